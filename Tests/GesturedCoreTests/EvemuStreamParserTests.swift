import GesturedCore
import GesturedEvemu
import Testing

/// Parsing a recording piece by piece (as `gestured replay` streams its file) gives what parsing
/// it whole gives: the description, every event, and errors with line numbers from the start.
@Suite struct EvemuStreamParserTests {
    /// `text` cut after every `k`-th line, for each k.
    static func pieces(_ text: String, linesPerPiece k: Int) -> [[UInt8]] {
        var pieces: [[UInt8]] = [], current: [UInt8] = [], lines = 0
        for byte in text.utf8 {
            current.append(byte)
            if byte == UInt8(ascii: "\n") {
                lines += 1
                if lines % k == 0 { pieces.append(current); current = [] }
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func piecesParseAsTheWhole(linesPerPiece: Int) throws {
        let text = EvemuRecordingTests.isdv4 + "E: 1330495931.201135 0003 0035 1300 # a comment\nE: 1330495931.201136 0000 0000 0"
        let whole = try EvemuRecording.parse(text, sysname: "event7")
        var parser = EvemuStreamParser()
        var events: [RawEvent] = []
        for piece in Self.pieces(text, linesPerPiece: linesPerPiece) {
            events += try piece.withUnsafeBufferPointer { try parser.parse($0) }
        }
        #expect(events == whole.events && events.suffix(2).map(\.value) == [1300, 0])
        #expect(parser.description == whole.description && parser.description != nil)
    }

    @Test func errorsNameTheLineFromTheStart() throws {
        let text = "E: 1.100000 0000 0000 0\nE: 1.200000 0000 0000 0\nE: 1.300000 zz 0000 0\n"
        var parser = EvemuStreamParser()
        var error: EvemuParseError?
        for piece in Self.pieces(text, linesPerPiece: 1) {
            do { _ = try piece.withUnsafeBufferPointer { try parser.parse($0) } } catch let e { error = e as? EvemuParseError; break }
        }
        // The error itself, not only its type: `#expect(throws:)` returns it only from Swift 6.1.
        var whole: EvemuParseError?
        do { _ = try EvemuRecording.parse(text, sysname: "event7") } catch { whole = error }
        #expect(error != nil && error == whole && error?.line == 3)
        #expect(parser.description == nil)
    }
}

/// A streamed replay makes its device from the lines before the first event, so with
/// `descriptionFirst` a description line after an event is an error naming its line, not a
/// description silently unused; without it (a whole parse) it is taken as before.
@Suite struct EvemuStreamDescriptionFirstTests {
    static let text = "N: Panel\nE: 1.100000 0000 0000 0\nI: 0003 0001 0002 0003\nE: 1.200000 0000 0000 0\n"

    @Test func aDescriptionLineAfterAnEventIsAnError() throws {
        for k in [1, 2, 1000] {
            var parser = EvemuStreamParser(descriptionFirst: true)
            var error: EvemuParseError?
            for piece in EvemuStreamParserTests.pieces(Self.text, linesPerPiece: k) {
                do { _ = try piece.withUnsafeBufferPointer { try parser.parse($0) } } catch let e { error = e as? EvemuParseError; break }
            }
            #expect(error?.line == 3, "\(String(describing: error))")
            #expect(error?.message.hasPrefix("a device description line after the first event") == true)
        }
    }

    @Test func withoutDescriptionFirstItIsTaken() throws {
        var parser = EvemuStreamParser()
        var events: [RawEvent] = []
        for piece in EvemuStreamParserTests.pieces(Self.text, linesPerPiece: 1) {
            events += try piece.withUnsafeBufferPointer { try parser.parse($0) }
        }
        #expect(events.count == 2 && parser.description?.bustype == 3)
        let whole = try EvemuRecording.parse(Self.text, sysname: "event0")
        #expect(parser.description == whole.description)
    }

    @Test func anUnknownLineAfterAnEventIsStillUnknown() throws {
        var parser = EvemuStreamParser(descriptionFirst: true)
        #expect(throws: EvemuParseError(line: 2, message: "unknown line kind 'X'")) {
            try Array("E: 1.100000 0000 0000 0\nX: 1\n".utf8).withUnsafeBufferPointer { try parser.parse($0) }
        }
    }
}
