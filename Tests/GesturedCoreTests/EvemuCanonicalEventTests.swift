import FoundationEssentials
@testable import GesturedCore
@testable import GesturedEvemu
import GesturedSynthetic
import GesturedTestSupport
import Testing

/// The parser reads evemu-record's own `E:` lines with a fast reader and everything else with
/// the general one (`EvemuTextParser`). Which reader took a line must never show: these tests
/// parse the same text with the fast reader on and off and compare the whole outcome (the
/// events and description, or the error's line and message).
@Suite struct EvemuCanonicalEventTests {
    /// The outcome of a parse, comparable whether it succeeded or failed.
    enum Outcome: Equatable {
        case parsed(events: [RawEvent], description: EvemuDescription?)
        case failed(EvemuParseError)
    }

    static func outcome(_ text: String, fast: Bool) -> Outcome {
        var text = text
        return text.withUTF8 { bytes in
            do throws(EvemuParseError) {
                let recording = try EvemuTextParser.parse(bytes, readsCanonicalEvents: fast)
                return .parsed(events: recording.events, description: recording.description)
            } catch {
                return .failed(error)
            }
        }
    }

    static func expectSameOutcome(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome(text, fast: true) == outcome(text, fast: false), "\(text.debugDescription)",
                sourceLocation: sourceLocation)
    }

    /// Lines at the edges of the fast reader's form: each is read by one reader or the other,
    /// accepted or refused, with the same result.
    static let edgeLines = [
        "E: 1330495931.101111 0003 0039 0",
        "E: 0.000000 0000 0000 0",
        "E: 999999999999.999999 ffff FFFF 2147483647",  // 12-digit seconds: the fast reader's limit
        "E: 9999999999999.000000 0000 0000 0",  // 13 digits: only the general reader accepts it
        "E: 99999999999999.000000 0000 0000 0",  // 14 digits: out of range
        "E: 0000000000000001.000000 0000 0000 0",  // leading zeros
        "E: 1.5 0000 0000 0",  // a short fraction is a decimal fraction
        "E: 1.0000001 0000 0000 0",  // more than 6 fractional digits
        "E: 1. 0000 0000 0",
        "E: .5 0000 0000 0",
        "E: 1.000000 3 35 1",  // short hex fields
        "E: 1.000000 00003 0035 1",  // 5 hex digits, still 16 bits
        "E: 1.000000 10000 0035 1",  // 17 bits
        "E: 1.000000 0x3 0X2f 1",
        "E: 1.000000 000g 0035 1",
        "E: 1.000000 0003 0035 -2147483648",
        "E: 1.000000 0003 0035 -2147483649",
        "E: 1.000000 0003 0035 2147483648",
        "E: 1.000000 0003 0035 00000000001",  // 11 digits, fits
        "E: 1.000000 0003 0035 +7",
        "E: 1.000000 0003 0035 -",
        "E: 1.000000 0003 0035 --1",
        "E: 1.000000 0003 0035 -0001",  // evemu 2 writes %04d
        "E: 1.000000 0003 0035 12x",
        "E: 1.000000 0003 0035 1 2",
        "E: 1.000000 0003 0035",  // truncated
        "E: 1.000000 0003 0035 ",
        "E: 1.000000 0003",
        "E: 1.000000",
        "E: 1",
        "E:",
        "E",
        "E:1.000000 0003 0035 1",  // no space after the tag
        "E:  1.000000  0003\t0035   1",  // more blanks
        " E: 1.000000 0003 0035 1",
        "\tE: 1.000000 0003 0035 1",
        "E: 1.000000 0003 0035 1   ",
        "E: 1.000000 0003 0035 1\t",
        "E: 1.000000 0003 0035 1 # EV_ABS / ABS_MT_POSITION_X 1",
        "E: 1.000000 0003 0035 0001\t# EV_ABS / ABS_MT_POSITION_X   1",  // evemu 2
        "E: 1.000000 0003 0035 1#comment",
        "E: 1.000000 0003 0035 1 #",
        "E: 1.000000 0003 0035 1 x",
        "E: 1.000000#0003 0035 1",
        "E: 1.000000 0003#0035 1",
        "E: 1.000000 0003 0035 1\r",
        "E: 1.000000 0003 0035 1\r\r",
        "E: 1.000000 0003 0035 1\rx",
        "E: 1.000000\r0003 0035 1",
        "E: 1.000000 0003 0035 1\u{0}",
        "E: 1.000000 0003 0035 1é",
        "E: 1.000000 0003 0035 é",
        "e: 1.000000 0003 0035 1",
        "N: E: 1.000000 0003 0035 1",
        "# E: 1.000000 0003 0035 1",
    ]

    @Test func edgeLinesAloneAndInContext() {
        for line in Self.edgeLines {
            Self.expectSameOutcome(line)
            Self.expectSameOutcome(line + "\n")
            Self.expectSameOutcome(line + "\r\n")
            // After other lines and before a good one: line numbers and the next line's start.
            Self.expectSameOutcome("# header\n\nE: 1.000000 0000 0000 0\n" + line + "\nE: 2.000000 0000 0000 0\n")
            Self.expectSameOutcome("E: 1.000000 0000 0000 0\r\n" + line + "\r\nE: 2.000000 0000 0000 0")
        }
    }

    /// The canonical lines are the fast reader's: they parse to the events they spell.
    @Test func canonicalLines() throws {
        let text = "E: 1330495931.101111 0003 0039 0\nE: 7.000001 0003 002f -1\r\n"
            + "E: 8.123456 0001 014A 1 # EV_KEY / BTN_TOUCH 1\nE: 9.999999 ffff 0000 -2147483648"
        #expect(Self.outcome(text, fast: true) == .parsed(events: [
            RawEvent(time: Instant(microseconds: 1_330_495_931_101_111), type: 3, code: 0x39, value: 0),
            RawEvent(time: Instant(microseconds: 7_000_001), type: 3, code: 0x2f, value: -1),
            RawEvent(time: Instant(microseconds: 8_123_456), type: 1, code: 0x14a, value: 1),
            RawEvent(time: Instant(microseconds: 9_999_999), type: 0xffff, code: 0, value: Int32.min),
        ], description: nil))
        Self.expectSameOutcome(text)
    }

    /// Random edits of canonical lines (bytes replaced, inserted, deleted, from the characters
    /// the grammar cares about), in a recording with a description: the two readers agree on
    /// every one.
    @Test func mutatedLines() {
        let alphabet = Array("0123456789abcdefxX-+.: \t#\r\nEN\u{0}".utf8) + [0xc3, 0xa9, 0xff]
        let lines = [
            "E: 1330495931.101111 0003 0039 -1",
            "E: 12.000250 0001 014a 1 # EV_KEY / BTN_TOUCH 1",
            "E: 0.999999 0000 0000 0000",
        ]
        var random = SplitMix64(seed: 0x65_76_65_6d_75)
        for _ in 0..<20_000 {
            var line = Array(lines[Int(random.next() % UInt64(lines.count))].utf8)
            for _ in 0...(random.next() % 3) {
                let index = Int(random.next() % UInt64(line.count + 1))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0 where index < line.count: line[index] = byte
                case 1 where index < line.count: line.remove(at: index)
                default: line.insert(byte, at: index)
                }
            }
            let text = "N: device\nA: 35 0 100 0 0\n" + String(decoding: line, as: UTF8.self)
                + "\nE: 99.000000 0000 0000 0\n"
            Self.expectSameOutcome(text)
        }
    }

    /// The fast reader's fixed-width fields (`.dddddd hhhh hhhh `): every byte value at every
    /// position of them, upper-case hex included, reads as the general reader reads it.
    @Test func everyByteInTheFixedFieldsReadsAsWithTheGeneralReader() {
        func outcome(_ bytes: [UInt8], fast: Bool) -> Outcome {
            bytes.withUnsafeBufferPointer { buffer in
                do throws(EvemuParseError) {
                    let recording = try EvemuTextParser.parse(buffer, readsCanonicalEvents: fast)
                    return .parsed(events: recording.events, description: recording.description)
                } catch {
                    return .failed(error)
                }
            }
        }
        let line = Array("E: 7.123456 0003 0035 9\n".utf8)
        var accepted = 0
        for position in 4...21 {   // from the `.` to the space after the second hex field
            for byte in 0...255 as ClosedRange<UInt8> {
                var mutated = line
                mutated[position] = byte
                let fast = outcome(mutated, fast: true)
                #expect(fast == outcome(mutated, fast: false), "byte \(byte) at \(position)")
                if case .parsed = fast { accepted += 1 }
            }
        }
        // Each digit position takes 10 (fraction) or 22 (hex: 0-9, a-f, A-F) bytes.
        #expect(accepted >= 6 * 10 + 8 * 22, "\(accepted)")
        #expect(outcome(line, fast: true) == .parsed(events: [RawEvent(time: Instant(seconds: 7, microseconds: 123_456), type: 3,
                                                                       code: 0x35, value: 9)], description: nil))
        #expect(outcome(Array("E: 7.999999 FfFf aB9c 9\n".utf8), fast: true)
                == .parsed(events: [RawEvent(time: Instant(seconds: 7, microseconds: 999_999), type: 0xffff,
                                             code: 0xab9c, value: 9)], description: nil))
    }

    /// Every recording in Tests/Fixtures/evemu-devices parses to the same recording with
    /// the fast reader as without it.
    @Test func everyFixtureSameWithBothReaders() throws {
        let files = EvemuDevices.allFiles
        #expect(files.count == 22)
        var events = 0
        for file in files {
            let text = try EvemuDevices.read(file)
            let fast = Self.outcome(text, fast: true)
            #expect(fast == Self.outcome(text, fast: false), "\(file)")
            if case .parsed(events: let parsed, description: _) = fast { events += parsed.count } else { Issue.record("\(file): \(fast)") }
        }
        #expect(events > 10_000)
    }

    /// An array is allocated for the largest number of events the text could hold; a text of
    /// nothing but the shortest `E:` lines fills it exactly.
    @Test func shortestEventLinesFillTheReservation() throws {
        let lines = Array(repeating: "E:0.0 0 0 0", count: 1000)
        for text in [lines.joined(separator: "\n"), lines.joined(separator: "\n") + "\n"] {
            let events = try EvemuRecording.parse(text, sysname: "event0").events
            #expect(events.count == 1000)
            #expect(events.allSatisfy { $0 == RawEvent(time: .zero, type: 0, code: 0, value: 0) })
        }
    }
}
