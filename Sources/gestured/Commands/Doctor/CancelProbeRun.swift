import CLinux
import GesturedCore
import GesturedDoctor
import GesturedIO
import Glibc

/// `gestured doctor --probe-cancel`'s I/O: a uinput touchscreen of its own (never the daemon's
/// clones), `gestured-surface` on the compositor at `WAYLAND_DISPLAY`, and per `cancelStyle` one
/// touch pressed at the middle and ended the way the forwarder ends a claimed touch
/// (`CancelProbe.frames`). `CancelProbe` reads what the surface printed. Every wait has a
/// deadline; the surface is stopped and the touchscreen destroyed on every path.
enum CancelProbeRun {
    /// The compositor opening the new touchscreen, and the surface's first `ready`.
    static let startMilliseconds: Int64 = 10_000
    /// The press reaching the surface.
    static let downMilliseconds: Int64 = 5_000
    /// After the ending: how long the surface has to say `cancel` or `up` before it is `nothing`.
    static let endMilliseconds: Int64 = 3_000
    /// The surface exiting once its stdin is closed, before SIGTERM (then SIGKILL).
    static let stopMilliseconds: Int64 = 2_000
    /// The longest surface line kept (its lines are short; a longer one is cut).
    static let lineLimit = 256

    struct Failure: Error { var message: String }

    /// The probe's result, and the display it ran on (for the messages).
    static func run() -> (CancelProbe.Result, display: String) {
        let display = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? ""
        guard !display.isEmpty else {
            return (CancelProbe.Result(styles: [], failure: "WAYLAND_DISPLAY is not set: run it in the compositor's session"), "(none)")
        }
        var session = CancelProbe.Session()
        do throws(Failure) {
            return (try probe(&session), display)
        } catch {
            return (CancelProbe.Result(styles: session.results, failure: error.message), display)
        }
    }

    private static func probe(_ session: inout CancelProbe.Session) throws(Failure) -> CancelProbe.Result {
        let launch = try surfaceLaunch()
        let touchscreen: UinputClone
        do {
            touchscreen = try UinputClone(probeNamed: "gestured cancel probe", axisMaximum: CancelProbe.axisMaximum,
                                          slots: CancelProbe.slots)
        } catch { throw Failure(message: "cannot make the probe's touchscreen: \(error)") }
        defer { touchscreen.close() }
        guard let node = touchscreen.devnode else { throw Failure(message: "the kernel named no node for the probe's touchscreen") }
        // The touchscreen's own device number (its event node's sysfs `dev`), which a reader's descriptor must be.
        let eventName = node.split(separator: "/").last.map(String.init) ?? ""
        guard let number = touchscreen.syspath.flatMap({ ProcessScan.deviceNumber(sysfsDevice: $0 + "/" + eventName) }) else {
            throw Failure(message: "the kernel gave no device number for the probe's touchscreen \(node)")
        }
        try waitUntilOpened(node, number)
        let surface = try SurfaceProcess(launch)
        defer { surface.stop(within: stopMilliseconds) }
        guard try surface.lines(within: startMilliseconds, until: { if case .ready = $0 { true } else { false } }) else {
            throw Failure(message: "gestured-surface did not say ready within \(startMilliseconds / 1000) s (no fullscreen size from the compositor)")
        }
        var step = session.start()
        while true {
            switch step {
            case .write(let frames, let wait):
                try write(frames, to: touchscreen)
                var next: CancelProbe.Session.Step?
                let within = switch wait { case .down: downMilliseconds; case .ending: endMilliseconds }
                try surface.lines(within: within) { next = session.feed($0); return next != nil }
                step = next ?? session.deadlinePassed()
            case .finish(let lift, let result):
                if !lift.isEmpty { try write(lift, to: touchscreen) }
                return result
            }
        }
    }

    private static func write(_ events: [RawEvent], to touchscreen: UinputClone) throws(Failure) {
        do { try touchscreen.write(events) } catch { throw Failure(message: "writing to the probe's touchscreen: \(error)") }
    }

    /// How `gestured-surface` is started (`SurfaceLaunch`): found beside this executable or where
    /// the package installs it, never on PATH; as root, run as the Wayland socket's owner.
    static func surfaceLaunch() throws(Failure) -> SurfaceLaunch {
        switch SurfaceShell.plan(searchPath: false) {
        case .success(let launch): return launch
        case .failure(let refusal): throw Failure(message: refusal.description)
        }
    }

    /// Until a process other than this one has the device `number` (at `node`) open (the
    /// compositor, or the seat manager that opens it for the compositor): inotify's `IN_OPEN`
    /// on the node says when to look again.
    static func waitUntilOpened(_ node: String, _ number: ProcessScan.DeviceNumber) throws(Failure) {
        let inotify: Int32
        do {
            inotify = try syscall("inotify_init1", onInterrupt: .fail) { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        } catch { throw Failure(message: "\(error)") }
        defer { close(inotify) }
        do {
            try syscall("inotify_add_watch", path: node, onInterrupt: .fail) { inotify_add_watch(inotify, node, UInt32(IN_OPEN)) }
        } catch { throw Failure(message: "\(error)") }
        let limit = MonotonicClock.now() + .milliseconds(startMilliseconds)
        while true {
            if !ProcessScan.scan(ProcessScan.Query(devices: [number], firstReaderOnly: true)).readers.isEmpty { return }
            let left = (limit - MonotonicClock.now()).microseconds / 1000
            guard left > 0 else {
                throw Failure(message: "the compositor did not open the probe's touchscreen \(node) within \(startMilliseconds / 1000) s")
            }
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)]
            _ = try? pollOnce(&fds, timeout: Int32(left))
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(inotify, &buffer, buffer.count)
        }
    }
}
