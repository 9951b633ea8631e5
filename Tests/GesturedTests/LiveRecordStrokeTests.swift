import GesturedConfig
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Testing

/// `record-stroke` with no RECORDING, through the built binary under `umockdev-run`: the Wacom
/// ISDv4 circle replayed as a live touchscreen is captured as a template that recognizes the same
/// recording again (`StrokeRecordingTests.recordStrokeRoundTrip` does this from the recording);
/// with no touch device, a clear error and exit 1.
struct LiveRecordStrokeTests {
    static let gestured = TestEnvironment.buildDirectory + "/gestured"

    /// `timeout -s KILL 30 umockdev-run -d … -i … [-e …] -- gestured record-stroke …` with
    /// `recording`'s device at /dev/input/event7; nil (with the reason recorded) without umockdev.
    static func recordStroke(_ recording: RealRecordings.Recording, replaying: Bool, arguments: [String],
                             in directory: TestEnvironment.TemporaryDirectory) throws -> Subprocess.Completed? {
        guard let umockdevRun = TestEnvironment.which("umockdev-run") else {
            Issue.record("umockdev-run is not installed: run `make deps`"); return nil
        }
        let node = "/dev/input/event7"
        let description = try #require(try EvemuRecording.parse(RealRecordings.read(recording.description),
                                                                sysname: "event7").description)
        let files = UmockdevDevice.files(for: description, node: node)
        var umockdev = ["-d", try directory.write("device.umockdev", files.umockdev),
                        "-i", "\(node)=" + (try directory.write("device.ioctl", files.ioctl))]
        if replaying { umockdev += ["-e", "\(node)=\(recording.events)"] }
        return try Subprocess.run("timeout", ["-s", "KILL", "30", umockdevRun] + umockdev
                                  + ["--", gestured, "record-stroke", "--name", "live"] + arguments,
                                  in: directory.path, deadline: deadline(milliseconds: 40_000))
    }

    @Test func aStrokeDrawnOnALiveTouchscreenBecomesATemplate() throws {
        let recording = try RealRecordings.named("Wacom ISDv4 E6 Finger.single-center-circle")
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-live-stroke")
        let file = directory.path + "/live.json5"
        guard let record = try Self.recordStroke(recording, replaying: true, arguments: ["--output", file, "--timeout", "20"],
                                                 in: directory) else { return }
        #expect(record.termination == .exited(0), "\(record.stderr)")
        #expect(record.stderr.contains("draw the shape on event7 (Wacom ISDv4 E6 Finger) now (waiting up to 20 s)\n"), "\(record.stderr)")
        #expect(record.stderr.contains("recorded the stroke drawn on event7 (Wacom ISDv4 E6 Finger)\n"), "\(record.stderr)")
        let text = try RealRecordings.read(file)
        #expect(text.contains("gestured record-stroke --name live: the first stroke of live device event7 (Wacom ISDv4 E6 Finger)"))
        let templates = try StrokeTemplateFile.load(Array(text.utf8), file: "live.json5")
        #expect(templates.map(\.name) == ["live"])

        let config = try directory.write("gestured.json5", """
            { views: [{ id: "root", gestures: [
              { id: "shape", type: "stroke", templates: ["rectangle", { file: "live.json5" }, "circle", "triangle"] },
            ] }] }
            """)
        let replay = try Subprocess.run(Self.gestured, ["replay", "--config", config, "--description", recording.description,
                                                        recording.events], in: directory.path, deadline: deadline(milliseconds: 20_000))
        #expect(replay.termination == .exited(0), "\(replay.stderr)")
        let line = try #require(replay.stdout.split(separator: "\n").first { $0.hasPrefix("gesture stroke ended shape ") },
                                "\(replay.stdout)")
        #expect(line.contains(" stroke=live score="), "\(line)")
        let score = try #require(line.split(separator: " ").first { $0.hasPrefix("score=") }.flatMap { Double($0.dropFirst(6)) })
        #expect(score >= 0.99, "\(line)")
    }

    /// The Bamboo is a touchpad: `run` does not use it without a rule that adds it, so neither
    /// does record-stroke, and there is no other device.
    @Test func withoutATouchDeviceItFailsClearly() throws {
        let recording = try RealRecordings.named("Wacom Bamboo 16FG 4x5 Finger single-center-circle")
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-live-stroke-none")
        guard let record = try Self.recordStroke(recording, replaying: false, arguments: ["--output", directory.path + "/t.json5"],
                                                 in: directory) else { return }
        #expect(record.termination == .exited(1), "\(record.stderr)")
        #expect(record.stderr.contains("no touch device: none that the configuration uses is present"), "\(record.stderr)")
        #expect(!record.stderr.contains("draw the shape"), "\(record.stderr)")
        #expect(record.stdout.isEmpty)
    }

    /// A touchscreen that nobody touches: the wait is bounded by --timeout (here 0.2 s of the
    /// program's own epoll wait), then a clear error and exit 1, no file.
    @Test func nobodyDrawingGivesUpAfterTheTimeout() throws {
        let recording = try RealRecordings.named("Wacom ISDv4 E6 Finger.single-center-circle")
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-live-stroke-idle")
        guard let record = try Self.recordStroke(recording, replaying: false,
                                                 arguments: ["--output", directory.path + "/t.json5", "--timeout", "0.2"],
                                                 in: directory) else { return }
        #expect(record.termination == .exited(1), "\(record.stderr)")
        #expect(record.stderr.contains("draw the shape on event7 (Wacom ISDv4 E6 Finger) now (waiting up to 0.2 s)\n"), "\(record.stderr)")
        #expect(record.stderr.contains("no stroke drawn within 0.2 s (--timeout SECONDS gives more time)"), "\(record.stderr)")
        #expect((try? readFile(path: directory.path + "/t.json5")) == nil)
    }
}
