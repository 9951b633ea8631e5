import GesturedCore
import GesturedEvemu
import GesturedIO

/// A recording read and parsed a piece at a time (`LineReader`, `EvemuStreamParser`), for
/// `Replay.Session.play`: a replay holds a piece of each recording, not the files.
///
/// Opening it reads up to the first event, for the device: the description is the lines
/// before it (evemu-record writes them first), or `--description`'s file. A malformed line
/// is found when its piece is read, so the lines replayed before it are written first.
struct RecordingStream {
    let path: String
    /// The device, named `sysname`.
    let device: DeviceDescription
    private let reader: LineReader
    private var parser: EvemuStreamParser
    /// The events read while looking for the description, given first.
    private var first: [RawEvent]?

    /// Opens `path`; `description`, when given, is the device (`--description`'s, parsed).
    init(path: String, description: EvemuDescription?, sysname: String) throws(CommandFailure) {
        self.path = path
        do { reader = try LineReader(path: path) } catch { throw CommandFailure(ExitStatus.failure, "\(error)") }
        parser = EvemuStreamParser(descriptionFirst: description == nil)
        var events: [RawEvent] = []
        while events.isEmpty, let piece = try Self.read(reader) {
            do { events = try parser.parse(piece) } catch { throw CommandFailure(ExitStatus.failure, "\(path): \(error)") }
        }
        first = events
        guard let device = description ?? parser.description else {
            throw CommandFailure(ExitStatus.failure,
                                 "\(path): the recording has no device description; name the file that has it with --description DESC")
        }
        self.device = device.deviceDescription(sysname: sysname)
    }

    /// The next piece of events; nil at the end of the recording.
    mutating func next() throws(CommandFailure) -> [RawEvent]? {
        if let events = first {
            first = nil
            return events
        }
        guard let piece = try Self.read(reader) else { return nil }
        do { return try parser.parse(piece) } catch { throw CommandFailure(ExitStatus.failure, "\(path): \(error)") }
    }

    private static func read(_ reader: LineReader) throws(CommandFailure) -> UnsafeBufferPointer<UInt8>? {
        do { return try reader.next() } catch { throw CommandFailure(ExitStatus.failure, "\(error)") }
    }

    /// `--description`'s file: its device description (its events, if any, are not used).
    static func description(_ path: String?, sysname: String) throws(CommandFailure) -> EvemuDescription? {
        guard let path else { return nil }
        let bytes: [UInt8]
        do { bytes = try readFile(path: path) } catch { throw CommandFailure(ExitStatus.failure, "\(error)") }
        let description: EvemuDescription?
        do { description = try EvemuRecording.parse(bytes: bytes, sysname: sysname).description } catch {
            throw CommandFailure(ExitStatus.failure, "\(path): \(error)")
        }
        guard let description else {
            throw CommandFailure(ExitStatus.failure, "\(path): no device description (N:, I:, B:, A: lines)")
        }
        return description
    }

    /// Plays `streams` through `session` (`Replay.Session.play`), calling `each` after every step.
    static func play(_ streams: inout [RecordingStream], session: inout Replay.Session,
                     each: (inout Replay.Session) -> Void) throws(CommandFailure) {
        try session.play(next: { (k: Int) throws(CommandFailure) -> [RawEvent]? in try streams[k].next() }, each: each)
    }
}
