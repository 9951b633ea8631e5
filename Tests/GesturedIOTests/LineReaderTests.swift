import GesturedIO
import GesturedTestSupport
import Testing

/// `LineReader`, how `gestured replay` streams a recording: pieces end at newlines, and together
/// they are the file, whatever the buffer size (a line longer than the buffer grows it).
@Suite struct LineReaderTests {
    @Test(arguments: [1, 4, 16, 1 << 16])
    func piecesEndAtNewlinesAndMakeTheFile(bufferSize: Int) throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let text = (0..<500).map { "line \($0) " + String(repeating: "x", count: $0 % 37) }.joined(separator: "\n") + "\nlast, no newline"
        let reader = try LineReader(path: try directory.write("lines.txt", text), bufferSize: bufferSize)
        var pieces: [[UInt8]] = []
        while let piece = try reader.next() { pieces.append(Array(piece)) }
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == text)
        #expect(pieces.count > 1 || bufferSize > text.utf8.count)
        #expect(pieces.dropLast().allSatisfy { $0.last == UInt8(ascii: "\n") })
        #expect(String(decoding: pieces.last ?? [], as: UTF8.self).hasSuffix("last, no newline"))
        #expect(try reader.next() == nil)
    }

    @Test func aFileEndingInANewlineAndAnEmptyFile() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let reader = try LineReader(path: try directory.write("two.txt", "a\nb\n"), bufferSize: 3)
        #expect(try reader.next().map(Array.init) == Array("a\n".utf8))
        #expect(try reader.next().map(Array.init) == Array("b\n".utf8))
        #expect(try reader.next() == nil)
        #expect(try LineReader(path: try directory.write("empty.txt", "")).next() == nil)
    }

    @Test func aMissingFileNamesItself() throws {
        #expect(throws: SystemError.self) { try LineReader(path: "/nonexistent/recording.events") }
        do { _ = try LineReader(path: "/nonexistent/recording.events") } catch {
            #expect("\(error)".contains("/nonexistent/recording.events"), "\(error)")
        }
    }
}
