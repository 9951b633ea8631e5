import GesturedConfig
import GesturedCore
import GesturedEvemu
import GesturedIO
import Glibc

enum ReplayCommand {
    /// The sysname the k-th recording's device gets in lines (CONTRACT.md §4): `event<k>`.
    static func sysname(_ k: Int) -> String { "event\(k)" }

    /// Replays one recording, or several interleaved by time (one device each), streamed
    /// (`RecordingStream`): memory is a piece of each file, not the files. Lines before a
    /// malformed line are written before the error.
    static func run(config: String?, options: Replay.Options,
                    description: String?, recordings paths: [String]) throws(CommandFailure) {
        let configuration = try loadConfiguration(config)
        let given = try RecordingStream.description(description, sysname: sysname(0))
        var streams: [RecordingStream] = []
        for (k, path) in paths.enumerated() {
            streams.append(try RecordingStream(path: path, description: given, sysname: sysname(k)))
        }
        var session: Replay.Session
        do {
            session = try Replay.Session(devices: streams.map(\.device), configuration: configuration,
                                         touches: options.touches, trace: options.trace, reader: options.reader)
        } catch {
            throw CommandFailure(ExitStatus.failure, "\(paths.joined(separator: ", ")): \(error)")
        }
        for notice in session.notices { Log.plain(notice) }
        if options.forwarded {
            for (k, refusal) in session.passThroughRefusals.enumerated() {
                guard let refusal else { continue }
                Log.plain("replay --forwarded: \(paths[k]) (\(sysname(k)), \"\(streams[k].device.name)\"): no forward lines: \(refusal)")
            }
        }
        var lines = Replay.Lines(options: options, devices: streams.map(\.device))
        var out = OutputBuffer()
        defer { out.flush() }
        try RecordingStream.play(&streams, session: &session) { session in
            // Replay runs no action; it says which the daemon would have run, and when.
            for request in session.batch.actions { Log.plain(request.replayNotice(in: session.batch)) }
            lines.take(&session, traced: { Log.trace($0) }) { out.take(&$0) }
        }
    }

    /// The recording's device (its own description, or `description`'s), named `sysname`, and
    /// its events.
    static func load(recording: String, description: String?,
                     sysname: String = sysname(0)) throws(CommandFailure) -> (DeviceDescription, [RawEvent]) {
        let events = try parse(recording, sysname: sysname)
        var device = events.description
        if let description {
            device = try parse(description, sysname: sysname).description
            guard device != nil else { throw CommandFailure(ExitStatus.failure, "\(description): no device description (N:, I:, B:, A: lines)") }
        }
        guard let device else {
            throw CommandFailure(ExitStatus.failure,
                                 "\(recording): the recording has no device description; name the file that has it with --description DESC")
        }
        return (device.deviceDescription(sysname: sysname), events.events)
    }

    /// Reads and parses a recording as bytes: no `String` of the whole file is built.
    private static func parse(_ path: String, sysname: String) throws(CommandFailure) -> EvemuRecording {
        let bytes: [UInt8]
        do { bytes = try readFile(path: path) } catch { throw CommandFailure(ExitStatus.failure, "\(error)") }
        do { return try EvemuRecording.parse(bytes: bytes, sysname: sysname) } catch {
            throw CommandFailure(ExitStatus.failure, "\(path): \(error)")
        }
    }
}
