import FoundationEssentials
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Testing

/// `gestured draw`, `explain`, `check-config` warnings and `replay --trace` through the built
/// binary. The drawings are compared byte for byte with golden files, which change only on
/// purpose: `GESTURED_UPDATE_GOLDEN=1 swift test --filter DrawTests` rewrites them (and the
/// README's picture, which `make readme-picture` also regenerates), and the diff is reviewed.
struct DrawTests {
    static let root = TestEnvironment.packageRoot
    static let tapsConfig = root + "/Tests/Fixtures/draw/taps.json5"
    static let description = TestEnvironment.recordings + "/synthetic-touchscreen.desc"

    /// Each drawing: its golden file and the arguments that make it.
    static let goldens: [(golden: String, arguments: [String])] = [
        ("docs/images/example-config.svg", ["draw", "--config", root + "/config/gestured.json5"]),
        ("Tests/Fixtures/golden/draw/taps.svg", ["draw", "--config", tapsConfig]),
        ("Tests/Fixtures/golden/draw/taps-double-tap.svg",
         ["draw", "--config", tapsConfig, "--description", description, TestEnvironment.recordings + "/synthetic-double-tap.events"]),
        ("Tests/Fixtures/golden/draw/taps-pan-hold.svg",
         ["draw", "--config", tapsConfig, "--description", description, TestEnvironment.recordings + "/synthetic-pan-hold.events"]),
    ]

    @Test(arguments: goldens.map(\.golden))
    func drawingMatchesItsGoldenFile(golden: String) throws {
        let arguments = Self.goldens.first { $0.golden == golden }!.arguments
        let first = try drawing(arguments, output: "a.svg")
        let second = try drawing(arguments, output: "b.svg")
        #expect(first == second, "two runs of gestured \(arguments) differ")
        let path = Self.root + "/" + golden
        if ProcessInfo.processInfo.environment["GESTURED_UPDATE_GOLDEN"] == "1" {
            try TestEnvironment.writeFile(path: path, first)
        }
        let checkedIn = try readTextFile(path: path)
        #expect(first == checkedIn, "gestured \(arguments) differs from \(golden); if on purpose, regenerate it")
    }

    @Test func theSVGHasOneElementPerViewAndOnePathPerTouch() throws {
        let svg = try drawing(Self.goldens[3].arguments, output: "m.svg")
        for id in ["root", "panel", "under", "cover", "hidden", "disabled", "knob"] {
            #expect(svg.contains("<g id=\"\(id)\" data-view=\"\(id)\""), "\(id)")
        }
        #expect(svg.split(separator: "class=\"touch-path\"").count - 1 == 1)
        #expect(svg.contains("class=\"view never-hit\"") && svg.contains("(never hit: covered by cover)"))
        #expect(svg.contains("<g id=\"hidden\" data-view=\"hidden\" class=\"view not-hittable\""))
        #expect(svg.contains(">pan began drag</text>"))
    }

    @Test func aBackgroundIsEmbedded() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-draw")
        let image = try directory.write("ui.png", "PNG!")
        let svg = try drawing(["draw", "--config", Self.tapsConfig, "--background", image], output: "bg.svg")
        #expect(svg.contains("<image id=\"background\" x=\"0\" y=\"0\" width=\"1000\" height=\"1000\" preserveAspectRatio=\"none\" href=\"data:image/png;base64,UE5HIQ==\"/>"))
        let bad = try run(["draw", "--background", "ui.bmp", "--output", "x.svg"])
        #expect(bad.status == 2 && bad.stderr.contains("--background: ui.bmp: not a PNG"))
    }

    @Test func theHTMLStandsAlone() throws {
        let html = try drawing(Self.goldens[2].arguments, output: "t.html")
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(html.contains("id=\"timeline\"") && html.contains("<script>"))
        #expect(!html.contains("http://") || html.split(separator: "http://").count == 2)   // only the SVG namespace
        #expect(!html.contains("src="))
    }

    /// With `screens`, draw and explain picture one screen, named with `--screen`; without it
    /// they say which screens there are; `--screen` on a file without screens is refused.
    @Test func screensArePicturedOneAtATime() throws {
        let twoPanels = Self.root + "/config/two-panels.json5"
        let customer = try run(["explain", "--config", twoPanels, "--screen", "customer", "600", "400"])
        #expect(customer.status == 0 && customer.stdout.hasSuffix("\nview pay\n"), "\(customer)")
        let operatorScreen = try run(["explain", "--config", twoPanels, "--screen", "operator", "600", "400"])
        #expect(operatorScreen.status == 0 && operatorScreen.stdout.hasSuffix("\nview till\n"), "\(operatorScreen)")
        let unnamed = try run(["explain", "--config", twoPanels, "600", "400"])
        #expect(unnamed.status == 2 && unnamed.stderr.contains("has several screens (customer, operator): name one with --screen ID"))
        let unknown = try run(["explain", "--config", twoPanels, "--screen", "kitchen", "1", "1"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no screen 'kitchen'"))
        let single = try run(["explain", "--config", Self.tapsConfig, "--screen", "customer", "1", "1"])
        #expect(single.status == 2 && single.stderr.contains("has no screens"))
        let svg = try drawing(["draw", "--config", twoPanels, "--screen", "customer"], output: "c.svg")
        #expect(svg.contains("data-view=\"pay\"") && svg.contains("data-view=\"customerRoot\"") && !svg.contains("data-view=\"till\""))
        #expect(svg.contains("<rect id=\"screen\" x=\"0\" y=\"0\" width=\"800\" height=\"480\""), "the customer screen is 800×480")
    }

    @Test func explainEndsWithTheView() throws {
        let hit = try run(["explain", "--config", Self.tapsConfig, "150", "150"])
        #expect(hit.status == 0 && hit.stdout.hasSuffix("\nview panel\n"))
        let covered = try run(["explain", "--config", Self.tapsConfig, "700", "150"])
        #expect(covered.stdout.contains("    under: skipped: covered by its sibling cover, in front, which took the touch\n"))
        #expect(covered.stdout.hasSuffix("\nview cover\n"))
        let none = try run(["explain", "--config", Self.tapsConfig, "-5", "10"])
        #expect(none.status == 0 && none.stdout.hasSuffix("\nview none\n"))
        let layout = try run(["explain", "--config", Self.root + "/config/gestured.json5", "--layout", "night", "640", "300"])
        #expect(layout.stdout.contains("    map: skipped: hidden (isHidden)\n") && layout.stdout.hasSuffix("\nview root\n"))
        let unknown = try run(["explain", "--config", Self.root + "/config/gestured.json5", "--layout", "dusk", "1", "1"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no layout 'dusk'") && unknown.stderr.contains("it has day, night"))
    }

    @Test func checkConfigWarnsAndFailsOnlyWhenStrict() throws {
        let warned = try run(["check-config", Self.tapsConfig])
        #expect(warned.status == 0)
        #expect(warned.stdout == """
            warning: \(Self.tapsConfig):15:9: views[0].subviews[1]: view "under" can never be hit: "cover", in front of it, covers its whole hit area
            \(Self.tapsConfig): valid, with 1 warning

            """)
        let strict = try run(["check-config", "--strict", Self.tapsConfig])
        #expect(strict.status == 78 && strict.stderr.contains("1 warning (--strict)"))
        let example = try run(["check-config", "--strict", Self.root + "/config/gestured.json5"])
        #expect(example.status == 0)
    }

    @Test func replayTracesToStderr() throws {
        let traced = try run(["replay", "--trace", "--config", Self.tapsConfig, "--description", Self.description,
                              TestEnvironment.recordings + "/synthetic-tap.events"])
        #expect(traced.status == 0)
        #expect(traced.stderr == """
            trace 1.550000 single: possible → waiting (requires double to fail)
            trace 1.550000 drag: possible → failed (touch lifted before 10 pt of movement)
            trace 1.850000 double: possible → failed (no tap 2 within maximumTapInterval 0.3 s)
            trace 1.850000 single: waiting → possible (double failed)
            trace 1.850000 single: possible → ended (1 tap of 1 touch)

            """)
        #expect(traced.stdout.hasPrefix("gesture tap ended single view=root"))
        let plain = try run(["replay", "--config", Self.tapsConfig, "--description", Self.description,
                             TestEnvironment.recordings + "/synthetic-tap.events"])
        #expect(plain.stderr == "" && plain.stdout == traced.stdout)
    }

    // MARK: Running the binary

    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-draw")
        let done = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", arguments, in: directory.path,
                                      deadline: deadline(milliseconds: 20_000))
        guard case .exited(let status) = done.termination, !done.timedOut else {
            Issue.record("gestured \(arguments) ended with \(done.termination)"); return (-1, done.stdout, done.stderr)
        }
        return (status, done.stdout, done.stderr)
    }

    /// The file `gestured ARGUMENTS --output NAME` writes.
    func drawing(_ arguments: [String], output: String) throws -> String {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-draw")
        let path = directory.path + "/" + output
        let done = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", arguments + ["--output", path],
                                      in: directory.path, deadline: deadline(milliseconds: 20_000))
        #expect(done.termination == .exited(0), "gestured \(arguments): \(done.stderr)")
        return try readTextFile(path: path)
    }
}
