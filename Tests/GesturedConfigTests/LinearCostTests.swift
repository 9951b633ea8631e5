import Testing
@testable import GesturedConfig
import GesturedCore

/// Loading costs work linear in the text for the shapes the security review (round two) found
/// quadratic: many diagnostics on one long line, a template file named many times. Counted
/// (steps, reads), never timed: twice the input costs at most about twice the work.
struct LinearCostTests {
    /// 40,000 unknown keys on one line took 6.9 s against 0.6 s one per line: each diagnostic's
    /// column was counted from the line's start.
    @Test(arguments: [false, true])
    func columnsOfManyKeysOnOneLineCostStepsLinearInTheLine(multibyte: Bool) {
        func steps(keys: Int) -> Int {
            let key = multibyte ? "ké" : "k"
            let line = "{ " + (0..<keys).map { "\(key)\($0): 1" }.joined(separator: ", ") + " }"
            let text = SourceText("// a comment\n" + line + "\n")
            var steps = 0, offset = 0
            var last = (line: 0, column: 0)
            for (index, byte) in text.bytes.enumerated() where byte == UInt8(ascii: "k") {
                offset = index
                last = text.position(of: offset, steps: &steps)
            }
            #expect(last.line == 2)
            #expect(last.column == String(decoding: text.bytes[13..<offset], as: UTF8.self).unicodeScalars.count + 1)
            return steps
        }
        let single = steps(keys: 4_000), double = steps(keys: 8_000)
        #expect(double <= single * 2 + 4_000, "\(single) steps for 4,000 keys, \(double) for 8,000")
    }

    @Test func columnsCountScalarsAcrossCheckpoints() {
        let text = SourceText("é" + String(repeating: "a", count: 200) + "\nx\r\ny")
        #expect(text.position(of: 0) == (1, 1))
        #expect(text.position(of: 2) == (1, 2))
        #expect(text.position(of: 130) == (1, 130))
        #expect(text.position(of: 202) == (1, 202))
        #expect(text.position(of: 203) == (2, 1))
        #expect(text.position(of: 206) == (3, 1))
        #expect(text.position(of: 207) == (3, 2))
    }

    /// A 3.2 MB template file named by 20 gestures ran past 120 s: read and parsed for each.
    @Test(arguments: [20, 40])
    func aTemplateFileNamedByManyGesturesIsReadOnce(references: Int) throws {
        let templates = StrokeTemplateFile.text([StrokeTemplate(name: "zig", points: [Point(x: 0, y: 0), Point(x: 10, y: 10),
                                                                                      Point(x: 20, y: 0)])], comment: "test")
        let reads = Counter()
        let gestures = (0..<references).map { #"{ id: "s\#($0)", type: "stroke", templates: [{ file: "zig.json5" }] }"# }
        let config = "{ views: [{ id: \"v\", gestures: [" + gestures.joined(separator: ", ") + "] }] }"
        _ = try ConfigLoader.parse(config, file: "/etc/gestured/gestured.json5", readFile: { path in
            reads.count += 1
            return path == "/etc/gestured/zig.json5" ? .success(Array(templates.utf8))
                : .failure(ConfigLoader.unreadable(file: path, message: "cannot open: No such file or directory"))
        })
        #expect(reads.count == 1)
    }

    /// A missing file named twice: its error once, where it is first named; still invalid.
    @Test func aMissingTemplateFileNamedTwiceIsReportedOnce() {
        let config = """
            { views: [{ id: "v", gestures: [
              { id: "a", type: "stroke", templates: [{ file: "gone.json5" }] },
              { id: "b", type: "stroke", templates: [{ file: "gone.json5" }] },
            ] }] }
            """
        #expect(StrokeConfigTests.load(config, [:]) == [
            "/etc/gestured/gestured.json5:2:50: views[0].gestures[0].templates[0].file: /etc/gestured/gone.json5: cannot open: No such file or directory",
        ])
    }
}

final class Counter: @unchecked Sendable { var count = 0 }
