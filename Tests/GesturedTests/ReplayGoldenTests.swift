import FoundationEssentials
import GesturedConfig
import GesturedCore
import Testing

/// Every real recording in Tests/Fixtures/evemu-devices, replayed with the built-in
/// configuration, against a golden file in Tests/Fixtures/golden. Golden files change only on
/// purpose: `GESTURED_UPDATE_GOLDEN=1 swift test --filter ReplayGoldenTests` rewrites them, and
/// the diff is reviewed like code.
struct ReplayGoldenTests {
    @Test(arguments: RealRecordings.all)
    func matchesGolden(recording: RealRecordings.Recording) throws {
        let lines = try recording.replay()
        let golden = RealRecordings.goldenDirectory + "/" + recording.name + ".txt"
        if ProcessInfo.processInfo.environment["GESTURED_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: RealRecordings.goldenDirectory, withIntermediateDirectories: true)
            try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: golden))
        }
        let expected = try RealRecordings.read(golden)
        #expect(lines.joined() == expected, "replay of \(recording.name) differs from \(golden)")
    }

    @Test(arguments: RealRecordings.all)
    func isDeterministic(recording: RealRecordings.Recording) throws {
        #expect(try recording.replay() == recording.replay())
        #expect(try recording.replay(format: .json, touches: true, failed: true)
                == recording.replay(format: .json, touches: true, failed: true))
    }
}
