import GesturedCore
import GesturedTestSupport
import Testing

/// What `explain` and `check-config` say about a gesture that sends input: what the
/// application sees of its touches, and a warning where it would also see a tap.
@Suite struct InputActionExplainTests {
    /// A pass-through panel whose cancels are lifts; a long press that is a right click, with
    /// delaysTouchesBegan or without.
    static func config(delays: Bool, cancelStyle: String = "lift") -> String {
        """
        { screen: { width: 800, height: 480 },
          devices: [ { match: { type: "touchscreen" }, passThrough: true, cancelStyle: "\(cancelStyle)" } ],
          views: [ { id: "app", gestures: [
            { id: "menu", type: "longPress", delaysTouchesBegan: \(delays),
              action: { on: "began", input: { click: "right" } } } ] } ] }
        """
    }

    func gestured(_ arguments: [String], config: String) throws -> Subprocess.Completed {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-input")
        let file = try directory.write("input.json5", config)
        return try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", arguments + [file], in: directory.path,
                                  deadline: deadline(milliseconds: 20_000))
    }

    func explain(_ config: String) throws -> [String] {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-input")
        let file = try directory.write("input.json5", config)
        let run = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", ["explain", "--config", file, "100", "100"],
                                     in: directory.path, deadline: deadline(milliseconds: 20_000))
        #expect(run.termination == .exited(0), "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("input: ") || $0.hasPrefix("application: ") }
    }

    @Test func explainSaysWhatTheApplicationSees() throws {
        #expect(try explain(Self.config(delays: true)) == [
            "input: menu sends click right when it begins; the application gets nothing of its touches once it recognizes (delaysTouchesBegan)",
            "application: held menu",
        ])
        #expect(try explain(Self.config(delays: false)) == [
            "input: menu sends click right when it begins; the application gets its touches until it begins, then a lift (cancelStyle lift), which it takes as a tap",
            "application: forwarded",
        ])
        #expect(try explain(Self.config(delays: false, cancelStyle: "palm"))[0].hasSuffix("then their cancel (cancelStyle palm)"))
    }

    /// The lift-is-a-tap case is a warning, located at the input; delaysTouchesBegan or palm
    /// cancels make it go.
    @Test func checkConfigWarnsWhenTheLiftIsATap() throws {
        let warned = try gestured(["check-config"], config: Self.config(delays: false))
        #expect(warned.termination == .exited(0))
        #expect(warned.stdout.contains("input.json5:5:37: views[0].gestures[0].action.input: menu sends click right when it begins; "
            + "the application gets its touches until it begins, then a lift (cancelStyle lift), which it takes as a tap as well as "
            + "the input; set delaysTouchesBegan: true so that it gets nothing of them\n"), "\(warned.stdout)")
        for config in [Self.config(delays: true), Self.config(delays: false, cancelStyle: "palm")] {
            let quiet = try gestured(["check-config"], config: config)
            #expect(quiet.termination == .exited(0) && !quiet.stdout.contains("warning"), "\(quiet.stdout)")
        }
    }
}
