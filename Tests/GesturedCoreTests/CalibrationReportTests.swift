@testable import GesturedCalibration
import GesturedDoctor
import Testing
@testable import GesturedCore

/// What `gestured calibrate` prints (docs/KIOSK.md, "Calibration"): the udev rule for the panel
/// and its clone, the configuration's rule, the JSON of CONTRACT.md §6; and the lines of
/// `gestured-surface` it reads in `--display wayland`.
struct CalibrationReportTests {
    static let report = CalibrationReport(
        device: "ILITEK Multi-Touch-V5000",
        fit: CalibrationFit(matrix: [1.038577, -0.054431, -0.021, 0.050764, 0.968671, 0.018], residual: 0.25),
        screen: Size(width: 1280, height: 800),
        touches: [NormalizedPoint(x: 0.1435, y: 0.1122)])

    @Test func theUdevRuleSetsTheMatrixOnThePanelAndOnItsCloneByName() {
        #expect(Self.report.udevRule == """
            # /etc/udev/rules.d/99-gestured-calibration.rules: measured by gestured calibrate (residual 0.3 points); the panel, then gestured's clone of it
            SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="ILITEK Multi-Touch-V5000", ENV{LIBINPUT_CALIBRATION_MATRIX}="1.038577 -0.054431 -0.021 0.050764 0.968671 0.018"
            SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="ILITEK Multi-Touch-V5000 (gestured)", ENV{LIBINPUT_CALIBRATION_MATRIX}="1.038577 -0.054431 -0.021 0.050764 0.968671 0.018"

            """)
        // What the daemon reads back from the property is the matrix.
        #expect(CalibrationMatrix.parse(Self.report.matrixText) == Self.report.fit.matrix)
    }

    @Test func theDeviceRuleIsConfigurationText() {
        #expect(Self.report.deviceRule
                == "{ match: { name: \"ILITEK Multi-Touch-V5000\" }, calibration: [1.038577, -0.054431, -0.021, 0.050764, 0.968671, 0.018] }")
    }

    @Test func theJSONHasTheContractsKeys() {
        let json = Self.report.json
        #expect(json.hasPrefix("{\"device\":\"ILITEK Multi-Touch-V5000\",\"calibration\":[1.038577,-0.054431,-0.021,0.050764,0.968671,0.018],"
                               + "\"residual\":0.25,\"residualLimit\":30.19,\"screen\":{\"width\":1280,\"height\":800},"
                               + "\"touches\":[[0.1435,0.1122]],\"udevRule\":\"# /etc/udev/rules.d/99-gestured-calibration.rules"), "\(json)")
        #expect(json.contains("ENV{LIBINPUT_CALIBRATION_MATRIX}=\\\"1.038577 -0.054431 -0.021 0.050764 0.968671 0.018\\\"\\n"))
        #expect(json.hasSuffix(",\"udevRuleFile\":\"/etc/udev/rules.d/99-gestured-calibration.rules\","
                               + "\"udevReload\":\"udevadm control --reload && udevadm trigger --subsystem-match=input --action=change\","
                               + "\"deviceRule\":\"{ match: { name: \\\"ILITEK Multi-Touch-V5000\\\" }, calibration: [1.038577, -0.054431, -0.021, 0.050764, 0.968671, 0.018] }\"}\n"))
    }

    @Test func numbersKeepSixDecimalsAtMostAndNoNegativeZero() {
        #expect(CalibrationReport.number(1) == "1")
        #expect(CalibrationReport.number(-0.0000001) == "0")
        #expect(CalibrationReport.number(0.1234564) == "0.123456")
        #expect(CalibrationReport.number(-12.5) == "-12.5")
    }

    @Test func namesWithPatternCharactersStillMatchOnlyLiterally() {
        #expect(UdevName.pattern("Panel [v2] *|?") == .success("Panel ?v2? ???"))
        #expect(CalibrationReport.globLiteral("Panel [v2] *?") == "Panel ?v2] ??")
        #expect(Glob.matches(CalibrationReport.globLiteral("Panel [v2] *?"), "Panel [v2] *?"))
    }

    @Test func surfaceLinesParse() {
        #expect(SurfaceLine("ready 1920 1080") == .ready(Size(width: 1920, height: 1080)))
        #expect(SurfaceLine("down 3 240.5 135") == .down(id: 3, at: Point(x: 240.5, y: 135)))
        #expect(SurfaceLine("motion 3 241 136") == .motion(id: 3, at: Point(x: 241, y: 136)))
        #expect(SurfaceLine("up 3") == .up(id: 3))
        #expect(SurfaceLine("cancel") == .cancel)
        #expect(SurfaceLine("frame") == .frame)
        for bad in ["", "ready", "ready 0 1080", "ready 1920 nan", "ready 1920 1080 1", "down 3 1", "up x", "cancel 1", "hello"] {
            #expect(SurfaceLine(bad[...]) == nil, "\(bad)")
        }
        #expect(SurfaceLine.crosshairArgument(.bottomLeft) == "0.125,0.875")
    }
}

/// `--display` and `--device` (docs/KIOSK.md, "Calibration").
struct CalibrationChoiceTests {
    @Test func autoShowsTargetsOnWaylandOnlyWhenItCan() {
        let surface = "/usr/libexec/gestured/gestured-surface"
        #expect(CalibrationDisplay.auto.resolve(waylandDisplay: "wayland-1", surface: surface) == .success(.wayland(surface: surface)))
        #expect(CalibrationDisplay.auto.resolve(waylandDisplay: nil, surface: surface) == .success(.none(
            note: "--display auto: WAYLAND_DISPLAY is not set, so no target is shown on the screen: touch each one where this terminal says")))
        #expect(CalibrationDisplay.auto.resolve(waylandDisplay: "wayland-1", surface: nil) == .success(.none(
            note: "--display auto: gestured-surface is neither on PATH (not searched as root) nor beside gestured nor in /usr/libexec/gestured, "
                + "so no target is shown on the screen: "
                + "touch each one where this terminal says")))
        #expect(CalibrationDisplay.wayland.resolve(waylandDisplay: "", surface: surface) == .failure(.noWaylandDisplay))
        #expect(CalibrationDisplay.wayland.resolve(waylandDisplay: "wayland-1", surface: nil) == .failure(.noSurface))
        // As root without the Wayland socket (SurfaceLaunch.Refusal.noSocket): the reason is said.
        #expect(CalibrationDisplay.wayland.resolve(waylandDisplay: "wayland-1", surface: nil, unusable: "no socket") == .failure(.unusable("no socket")))
        #expect(CalibrationDisplay.auto.resolve(waylandDisplay: "wayland-1", surface: nil, unusable: "no socket") == .success(.none(
            note: "--display auto: no socket, so no target is shown on the screen: touch each one where this terminal says")))
        #expect(CalibrationDisplay.none.resolve(waylandDisplay: "wayland-1", surface: surface) == .success(.none(note: nil)))
    }

    @Test func thePanelIsTheOnlyOneOrTheOneNamed() {
        let panels = [(sysname: "event3", name: "ILITEK Multi-Touch"), (sysname: "event5", name: "Goodix Capacitive TouchScreen")]
        #expect(CalibrationPanelChoice.choose(Array(panels.prefix(1)), glob: nil) == .success(0))
        #expect(CalibrationPanelChoice.choose(panels, glob: "Goodix*") == .success(1))
        #expect(CalibrationPanelChoice.choose(panels, glob: "event3") == .success(0))
        #expect(CalibrationPanelChoice.choose(panels, glob: nil)
                == .failure(.several(["event3 (ILITEK Multi-Touch)", "event5 (Goodix Capacitive TouchScreen)"])))
        #expect(CalibrationPanelChoice.choose(panels, glob: "Wacom*") == .failure(.none(glob: "Wacom*")))
        #expect(CalibrationPanelChoice.choose([], glob: nil).map { _ in 0 } == .failure(.none(glob: nil)))
    }
}
