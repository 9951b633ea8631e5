import FoundationEssentials
import GesturedConfig
import GesturedCore
import GesturedEvemu
import GesturedTestSupport
import Testing

/// The vendored recordings (`EvemuDevices`) and how to replay them.
enum RealRecordings {
    struct Recording: CustomTestStringConvertible, Sendable {
        var name: String
        var events: String
        var description: String
        var testDescription: String { name }

        init(_ recording: EvemuDevices.Recording) {
            name = recording.name
            events = recording.events
            description = recording.description
        }

        func replay(format: LineFormat = .text, touches: Bool = false, failed: Bool = false,
                    configuration: Configuration = ConfigLoader.defaultConfiguration()) throws -> [String] {
            let events = try EvemuRecording.parse(try EvemuDevices.read(self.events), sysname: "event0")
            let description = try EvemuRecording.parse(try EvemuDevices.read(self.description), sysname: "event0")
            let device = try #require(description.description).deviceDescription(sysname: "event0")
            var lines: [String] = []
            try Replay.run(device: device, events: events.events, configuration: configuration,
                           options: Replay.Options(format: format, touches: touches, failed: failed)) { lines.append($0) }
            return lines
        }
    }

    static var goldenDirectory: String { TestEnvironment.packageRoot + "/Tests/Fixtures/golden" }

    /// Every vendored recording (the list, not the folder: a missing file fails its test).
    static var all: [Recording] { EvemuDevices.all.map(Recording.init) }

    /// The recording called `name`, or a thrown `EvemuDevices.Missing`.
    static func named(_ name: String) throws -> Recording { Recording(try EvemuDevices.recording(name)) }

    /// The text of a file (a golden file or a fixture), or a thrown `EvemuDevices.Missing`.
    static func read(_ path: String) throws -> String { try EvemuDevices.read(path) }
}
