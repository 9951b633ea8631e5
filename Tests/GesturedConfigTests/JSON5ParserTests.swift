import Testing
@testable import GesturedConfig

/// The one parser's located values: each value knows its bytes, each member its key, and the
/// index by key path agrees with the tree.
struct JSON5ParserTests {
    @Test func valuesKnowTheirBytesAndMembersTheirKeys() throws {
        let text = "{ a: [1, 'x'], \"b\": null }"
        let document = try JSON5Parser.parse(SourceText(text))
        let bytes = Array(text.utf8)
        func slice(_ v: LocatedValue) -> String { String(decoding: bytes[v.range], as: UTF8.self) }
        #expect(slice(document.root) == text)
        #expect(document.root.keyOffset == nil)
        guard case .object(let members) = document.root.value, let a = members["a"], let b = members["b"],
              case .array(let elements) = a.value else {
            Issue.record("not the document written: \(document.root)"); return
        }
        #expect(slice(a) == "[1, 'x']" && a.keyOffset == 2)
        #expect(slice(b) == "null" && b.keyOffset == 15 && b.value == .null)
        #expect(elements.map(slice) == ["1", "'x'"])
        #expect(elements.map(\.value) == [.number(1), .string("x")])
        #expect(elements.map(\.keyOffset) == [nil, nil])
        #expect(document.map.valueOffsets == ["": 0, "a": 5, "a[0]": 6, "a[1]": 9, "b": 20])
        #expect(document.map.keyOffsets == ["a": 2, "b": 15])
    }

    /// Of a key given twice, the first is kept (its value and place); the repeat is recorded.
    @Test func aRepeatedKeyKeepsTheFirst() throws {
        let document = try JSON5Parser.parse(SourceText("{ k: 1, k: { x: 2 } }"))
        #expect(document.root.value == .object(["k": LocatedValue(value: .number(1), range: 5..<6, keyOffset: 2)]))
        #expect(document.map.duplicateKeys.map { "\($0.path) \($0.offset) \($0.firstOffset)" } == ["k 8 2"])
        #expect(document.map.valueOffsets["k.x"] == nil)
    }

    /// Found by the strokes fuzz target: a template file holding only a long number stopped the
    /// process inside JSONDecoder, which read past its buffer (the loader then gave it the text
    /// and a line break). The parser reads the number where it ends, correctly rounded.
    @Test func aLongNumberAtTheEndOfTheTextReads() throws {
        let digits = "55555555555555555555555555555555555550000000000008915000000985716725"
        let document = try JSON5Parser.parse(SourceText(" " + digits))
        #expect(document.root.value == .number(Double(digits)!))
        #expect(document.root.range == 1..<69)
    }

    /// Numbers as JSONDecoder reads them: signs, hex, leading and trailing points, Infinity, NaN.
    @Test func numbersReadAsWritten() throws {
        let text = "[+1, -0x1F, .5e-3, 2., -Infinity, NaN, -0]"
        guard case .array(let elements) = try JSON5Parser.parse(SourceText(text)).root.value else {
            Issue.record("not an array"); return
        }
        let numbers = elements.compactMap { if case .number(let n) = $0.value { n } else { nil } }
        #expect(numbers.count == 7)
        #expect(Array(numbers.prefix(5)) == [1, -31, 0.0005, 2, -.infinity])
        #expect(numbers[5].isNaN)
        #expect(numbers[6] == 0 && numbers[6].sign == .minus)
    }

    /// The same input through the loader is an ordinary located error.
    @Test func aFileHoldingALongNumberIsAnObjectMissing() {
        #expect(diagnostics("55555555555555555555555555555555555550000000000008915000000985716725") == [
            "test.json5:1:1: expected an object, found a number"
        ])
    }
}
