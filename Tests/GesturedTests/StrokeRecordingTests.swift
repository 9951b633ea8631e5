import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Testing

/// Strokes in real recordings (the vendored fixtures): the Wacom circles are circles, and a
/// template recorded from a recording recognizes that recording again, through the built binary.
struct StrokeRecordingTests {
    static let circleNames = ["Wacom Bamboo 16FG 4x5 Finger single-center-circle", "Wacom ISDv4 E6 Finger.single-center-circle"]
    static var circles: [RealRecordings.Recording] { circleNames.compactMap { try? RealRecordings.named($0) } }

    static let configuration = """
        { views: [{ id: "root", gestures: [
          { id: "shape", type: "stroke", templates: [\(StrokeLibrary.names.map { "\"\($0)\"" }.joined(separator: ", "))] },
        ] }] }
        """

    @Test func bothWacomCirclesAreThere() throws {
        for name in Self.circleNames { _ = try RealRecordings.named(name) }
    }

    /// Against the sixteen built-in templates, each recording's one stroke is a circle.
    @Test(arguments: circles)
    func theSingleCenterCircleIsACircle(_ recording: RealRecordings.Recording) throws {
        let configuration = try ConfigLoader.parse(Self.configuration, file: "strokes.json5")
        let lines = try recording.replay(failed: true, configuration: configuration)
        let strokes = lines.filter { $0.hasPrefix("gesture stroke ") }
        #expect(strokes.count == 1, "\(strokes)")
        #expect(strokes.first?.hasPrefix("gesture stroke ended shape ") == true, "\(strokes)")
        #expect(strokes.first?.contains(" stroke=circle score=") == true, "\(strokes)")
    }

    /// record-stroke, then a configuration naming the file, then replay: the same recording is
    /// recognized as the recorded template with a score near 1; replay --strokes shows it first.
    @Test(arguments: circles)
    func recordStrokeRoundTrip(_ recording: RealRecordings.Recording) throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-record-stroke")
        let gestured = TestEnvironment.buildDirectory + "/gestured"
        let record = try Subprocess.run(gestured, ["record-stroke", "--name", "mine", "--output", directory.path + "/mine.json5",
                                                   recording.events, "--description", recording.description],
                                        in: directory.path, deadline: deadline(milliseconds: 20_000))
        #expect(record.termination == .exited(0), "\(record.stderr)")
        let templates = try StrokeTemplateFile.load(Array(RealRecordings.read(directory.path + "/mine.json5").utf8),
                                                    file: "mine.json5")
        #expect(templates.map(\.name) == ["mine"])

        let config = try directory.write("gestured.json5", """
            { views: [{ id: "root", gestures: [
              { id: "shape", type: "stroke", templates: ["rectangle", { file: "mine.json5" }, "triangle"] },
            ] }] }
            """)
        let replay = try Subprocess.run(gestured, ["replay", "--config", config, "--description", recording.description,
                                                   recording.events], in: directory.path, deadline: deadline(milliseconds: 20_000))
        #expect(replay.termination == .exited(0), "\(replay.stderr)")
        let line = try #require(replay.stdout.split(separator: "\n").first { $0.hasPrefix("gesture stroke ended shape ") })
        #expect(line.contains(" stroke=mine score="))
        let score = try #require(line.split(separator: " ").first { $0.hasPrefix("score=") }.flatMap { Double($0.dropFirst(6)) })
        #expect(score >= 0.99, "\(line)")

        let tuning = try Subprocess.run(gestured, ["replay", "--strokes", "--config", config, "--description",
                                                   recording.description, recording.events],
                                        in: directory.path, deadline: deadline(milliseconds: 20_000))
        let fields = tuning.stdout.split(separator: "\n").first?.split(separator: " ") ?? []
        #expect(fields.prefix(2) == ["stroke", "1"] && fields.count == 8, "\(tuning.stdout)")
        #expect(fields.dropFirst(5).first?.hasPrefix("mine=") == true, "\(tuning.stdout)")

        // The same gesture on a screen of the `screens` form: its templates, not the built-ins.
        let screens = try directory.write("screens.json5", """
            { screens: [{ id: "front", devices: "rest", views: [{ id: "root", gestures: [
              { id: "shape", type: "stroke", templates: ["rectangle", { file: "mine.json5" }, "triangle"] },
            ] }] }] }
            """)
        let onScreen = try Subprocess.run(gestured, ["replay", "--strokes", "--config", screens, "--description",
                                                     recording.description, recording.events],
                                          in: directory.path, deadline: deadline(milliseconds: 20_000))
        #expect(onScreen.stdout.split(separator: "\n").first?.split(separator: " ") == fields, "\(onScreen.stdout)")
    }
}
