import GesturedConfig
import GesturedCore
import GesturedEvemu

/// The `evemu` fuzz target: recording text through the evemu parser, which `gestured replay`,
/// `record-stroke` and `draw` read untrusted files with. Checks that
/// - the bytes parse as the same text as a `String` does (`parse(bytes:)` and `parse(_:)`);
/// - streamed in pieces of whole lines (`EvemuStreamParser`, as replay reads), the result is the
///   whole text's, errors included (same line, same message);
/// - an error names a line of the text;
/// - what parses writes back in evemu-record's form and parses to the same events and device;
/// - a described device with events replays through the pipeline with the built-in
///   configuration, every finger lifted at the end, with every output well formed and every
///   gesture ended (`PipelineTarget`).
public enum EvemuTarget {
    /// Replays longer than this many events are cut (the parser has read them all already).
    static let replayedEvents = 4_000

    public static func run(_ bytes: [UInt8]) throws(Violation) {
        let whole = Result { () throws(EvemuParseError) in try EvemuRecording.parse(bytes: bytes, sysname: "event0") }
        let text = Result { () throws(EvemuParseError) in
            try EvemuRecording.parse(String(decoding: bytes, as: UTF8.self), sysname: "event0")
        }
        try require(same(whole, text), "bytes and String parse differently: \(describe(whole)) / \(describe(text))")
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
        if case .failure(let e) = whole {
            try require(e.line >= 1 && e.line <= lines, "error at line \(e.line) of a text of \(lines) lines: \(e)")
        }
        // Pieces of 1 to 8 lines, as the first byte says.
        let streamed = stream(bytes, linesPerPiece: 1 + Int(bytes.first ?? 0) % 8)
        try require(same(whole, streamed), "streamed in pieces, the text parses differently: \(describe(whole)) / \(describe(streamed))")
        guard case .success(let recording) = whole else { return }
        try roundTrip(recording)
        guard let description = recording.description, !recording.events.isEmpty else { return }
        let device = description.deviceDescription(sysname: "event0")
        let scenario = PipelineScenario(devices: [device], recordings: [Array(recording.events.prefix(replayedEvents))])
        try PipelineTarget.run(scenario, configuration: defaultConfiguration)
    }

    static let defaultConfiguration = ConfigLoader.defaultConfiguration()

    static func stream(_ bytes: [UInt8], linesPerPiece: Int) -> Result<EvemuRecording, EvemuParseError> {
        var parser = EvemuStreamParser()
        var events: [RawEvent] = []
        var start = 0
        while start < bytes.count {
            var end = start, lines = 0
            while end < bytes.count && lines < linesPerPiece {
                if bytes[end] == UInt8(ascii: "\n") { lines += 1 }
                end += 1
            }
            let piece = Array(bytes[start..<end])
            // The error comes out through a Result: Swift 6.0's withUnsafeBufferPointer rethrows
            // `any Error`, not the closure's typed error.
            let parsed = piece.withUnsafeBufferPointer { buffer -> Result<[RawEvent], EvemuParseError> in
                do throws(EvemuParseError) { return .success(try parser.parse(buffer)) } catch { return .failure(error) }
            }
            switch parsed {
            case .success(let more): events += more
            case .failure(let error): return .failure(error)
            }
            start = end
        }
        return .success(EvemuRecording(description: parser.description, events: events))
    }

    static func same(_ a: Result<EvemuRecording, EvemuParseError>, _ b: Result<EvemuRecording, EvemuParseError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x.description == y.description && x.events == y.events
        case (.failure(let x), .failure(let y)): x == y
        default: false
        }
    }

    static func describe(_ r: Result<EvemuRecording, EvemuParseError>) -> String {
        switch r {
        case .success(let x): "\(x.events.count) events, \(x.description.map { "device \"\($0.name)\"" } ?? "no device")"
        case .failure(let e): "error \(e)"
        }
    }

    /// Writes the recording as evemu-record does and parses it again.
    static func roundTrip(_ recording: EvemuRecording) throws(Violation) {
        var text = "# EVEMU 1.3\n"
        if let d = recording.description {
            text += "N: \(d.name)\n"
            text += "I: \(hex(d.bustype, 4)) \(hex(d.vendor, 4)) \(hex(d.product, 4)) \(hex(d.version, 4))\n"
            if !d.properties.isEmpty { text += "P:" + d.properties.map { " " + hex(UInt16($0), 2) }.joined() + "\n" }
            for (type, mask) in d.bits.sorted(by: { $0.key < $1.key }) {
                text += "B: \(hex(type, 2))" + mask.map { " " + hex(UInt16($0), 2) }.joined() + "\n"
            }
            for (code, a) in d.axes.sorted(by: { $0.key < $1.key }) {
                text += "A: \(hex(code, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
            }
        }
        for e in recording.events {
            let micros = e.time.microseconds
            let (s, u) = (micros / 1_000_000, micros % 1_000_000)
            text += "E: \(s).\(String(repeating: "0", count: 6 - String(u).count))\(u) \(hex(e.type, 4)) \(hex(e.code, 4)) \(e.value)\n"
        }
        let again: EvemuRecording
        do { again = try EvemuRecording.parse(text, sysname: "event0") } catch {
            throw Violation("written back in evemu-record's form, the recording does not parse: \(error)")
        }
        try require(again.events == recording.events, "written back, the events changed")
        // A name ending in a carriage return (from a line ending in two) cannot be written back:
        // evemu text has no escapes, and a line's last `\r` belongs to its line break.
        var expected = recording.description
        if let name = expected?.name, name.hasSuffix("\r") { expected?.name = again.description?.name ?? name }
        try require(again.description == expected,
                    "written back, the device changed: \(String(describing: again.description)) / \(String(describing: recording.description))")
    }

    static func hex(_ v: UInt16, _ width: Int) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
