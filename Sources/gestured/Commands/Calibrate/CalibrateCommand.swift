import GesturedCalibration
import GesturedCore
import GesturedDoctor
import GesturedIO
import Glibc

/// `gestured calibrate [--device GLOB] [--display auto|wayland|none] [--json] [--config FILE]`:
/// measures a panel's calibration matrix (docs/KIOSK.md, "Calibration"; CONTRACT.md §6).
///
/// The shell around `CalibrationSession`: it picks and grabs the panel (`CalibrationPanel`),
/// shows each target (`CrosshairSurface`, or a prompt on stdout), feeds the session the panel's
/// raw touches and its deadline, and prints the `CalibrationReport`. With `--json` stdout holds
/// the JSON object alone and the prompts go to stderr.
enum CalibrateCommand {
    static func run(config: String?, device: String?, display: CalibrationDisplay, json: Bool) throws(CommandFailure) {
        let choice = ConfigChoice.resolve(given: config)
        choice.announce(assumedScreen: false)
        let configuration = try loadConfiguration(choice.path)
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        let resolved: CalibrationDisplay.Resolved
        let plan = SurfaceShell.plan(searchPath: true)
        var launch: SurfaceLaunch?, unusable: String?
        switch plan {
        case .success(let value): launch = value
        case .failure(.noSocket(let path)): unusable = SurfaceLaunch.Refusal.noSocket(path).description
        case .failure(.noSurface): break
        }
        switch display.resolve(waylandDisplay: variable("WAYLAND_DISPLAY"), surface: launch?.executable, unusable: unusable) {
        case .success(let value): resolved = value
        case .failure(let unavailable): throw CommandFailure(ExitStatus.failure, unavailable.description)
        }
        let panel = try CalibrationPanel(configuration: configuration, glob: device)
        defer { panel.close() }
        var surface: CrosshairSurface?
        var shown: CalibrationTarget?
        defer { surface?.stop() }
        // The panel's name is in these lines: escaped on stdout as in the log (`LogText`).
        let say: (String) -> Void = json ? { Log.plain($0) }
                                         : { try? FileDescriptor.standardOutput.writeAll(Array((LogText.escaped($0) + "\n").utf8)) }

        var screen = configuredScreen(panel.candidate, configuration: configuration)
        switch resolved {
        case .none(let note):
            if let note { Log.plain(note) }
        case .wayland:
            surface = CrosshairSurface(launch: launch!)
            screen = try surface!.show(.topLeft)
            shown = .topLeft
        }
        say("calibrating \(panel.label) on a \(CalibrationReport.number(screen.width)) × \(CalibrationReport.number(screen.height)) "
            + "screen; it is grabbed until the end: the application sees none of these touches")
        for warning in ruleWarnings(panel.candidate, configuration: configuration) { Log.warning(warning) }

        let poller: Poller
        do {
            poller = try Poller()
            try poller.add(panel.candidate.evdev.descriptor, token: 0, events: .readable)
        } catch {
            throw CommandFailure(ExitStatus.failure, "cannot watch \(panel.label): \(error)")
        }
        defer { try? poller.close() }
        /// The shown surface's output, watched so that its end is noticed and its lines drained.
        func watchSurface() throws(CommandFailure) {
            guard let output = surface?.output else { return }
            do { try poller.add(output, token: 1, events: .readable) } catch {
                throw CommandFailure(ExitStatus.failure, "cannot watch \(surface!.path): \(error)")
            }
        }
        try watchSurface()

        var session = CalibrationSession(screen: screen)
        var report: CalibrationReport?
        func perform(_ steps: [CalibrationSession.Step]) throws(CommandFailure) {
            for step in steps {
                say(step.description)
                switch step {
                case .show(let target, _):
                    if let surface, shown != target {
                        _ = try surface.show(target)
                        shown = target
                        try watchSurface()
                    }
                case .finished(let fit, let raw):
                    let description = panel.candidate.description
                    report = CalibrationReport(device: panel.candidate.info.name, fit: fit, screen: screen, touches: raw,
                                               ids: CalibrationReport.IDs(vendor: description.vendor, product: description.product))
                case .failed(let failure):
                    throw CommandFailure(ExitStatus.failure, failure.description)
                case .took, .refused, .fitRefused:
                    break
                }
            }
        }
        try perform(session.start(now: MonotonicClock.now()))
        while report == nil {
            let left = session.nextDeadline.map { ($0 - MonotonicClock.now()).microseconds / 1000 + 1 } ?? 0
            let ready: [PollResult]
            do { ready = try poller.wait(timeout: Int32(clamping: max(0, left))) } catch {
                throw CommandFailure(ExitStatus.failure, "waiting for \(panel.label): \(error)")
            }
            for result in ready where result.token == 0 {
                guard let inputs = try panel.read() else {
                    throw CommandFailure(ExitStatus.failure, "\(panel.label) went away during the measurement")
                }
                for input in inputs { try perform(session.handle(input, now: MonotonicClock.now())) }
            }
            if let surface, ready.contains(where: { $0.token == 1 }) {
                _ = try surface.lines()
            }
            try perform(session.expire(now: MonotonicClock.now()))
        }
        surface?.stop()
        panel.close()
        print(json ? report!.json : report!.text, terminator: "")
    }

    /// The size of the panel's screen in the configuration (else the panel's physical size, else
    /// the fallback), as the daemon maps it.
    static func configuredScreen(_ candidate: DeviceCandidate, configuration: Configuration) -> Size {
        ScreenSizing.size(configured: configuration.screenSpecs[candidate.screen].size, firstDevice: candidate.description,
                          rotation: candidate.rule?.rotation ?? .none)
    }

    /// What in the panel's configuration rule would change the measured matrix's meaning.
    static func ruleWarnings(_ candidate: DeviceCandidate, configuration: Configuration) -> [String] {
        guard let index = candidate.admitted.ruleIndex, let rule = candidate.rule else { return [] }
        var warnings: [String] = []
        if rule.rotation != .none {
            warnings.append("devices[\(index)] rotates this panel; the measured matrix already turns its touches onto the screen, "
                            + "so remove that rule's rotation when you install the matrix")
        }
        if rule.calibration != nil {
            warnings.append("devices[\(index)] sets calibration, which wins over the udev property for gestured: "
                            + "replace it with the device rule printed at the end, or remove it")
        }
        return warnings
    }
}
