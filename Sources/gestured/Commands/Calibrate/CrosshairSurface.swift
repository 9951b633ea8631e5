import GesturedCalibration
import GesturedCore
import GesturedDoctor
import GesturedIO
import Glibc

/// `gestured-surface --crosshair FX,FY`: the small Wayland client that shows one target full
/// screen (`SurfaceLine` has its interface). One process per target: it is started with the
/// target's crosshair, and ended (its stdin closed, then SIGTERM) when the next one is shown.
///
/// Its touch lines are read and dropped: the measurement reads the panel's raw axes, and the
/// panel is grabbed, so the compositor passes it none of the touches being measured. Its stderr
/// (which carries a compositor's `wl_display.error` text) is read, never inherited: its last line
/// joins the failure when it exits early, and the log escapes it (`LogText`).
final class CrosshairSurface {
    /// How long `ready` may take: a compositor maps a surface in milliseconds; ten seconds
    /// covers a slow first start of a Raspberry Pi's session.
    static let readyTimeout: Int64 = 10_000

    let launch: SurfaceLaunch
    var path: String { launch.executable }
    private var child: ChildProcess?
    private var input: FileDescriptor?
    private(set) var output: FileDescriptor?
    private var errors: FileDescriptor?
    private var pending: [UInt8] = []

    init(launch: SurfaceLaunch) { self.launch = launch }

    deinit { stop() }

    /// Shows `target`'s crosshair, replacing the one shown; returns the surface's size from its
    /// `ready` line.
    func show(_ target: CalibrationTarget) throws(CommandFailure) -> Size {
        stop()
        let label = "\(path) --crosshair \(SurfaceLine.crosshairArgument(target))"
        do {
            let inPipe = try ChildProcess.inputPipe()
            let out: (read: FileDescriptor, write: FileDescriptor), err: (read: FileDescriptor, write: FileDescriptor)
            do { out = try ChildProcess.outputPipe() } catch { try? inPipe.read.close(); try? inPipe.write.close(); throw error }
            do { err = try ChildProcess.outputPipe() } catch {
                for end in [inPipe.read, inPipe.write, out.read, out.write] { try? end.close() }
                throw error
            }
            defer { try? inPipe.read.close(); try? out.write.close(); try? err.write.close() }
            input = inPipe.write
            output = out.read
            errors = err.read
            child = try SurfaceShell.start(launch, arguments: ["--crosshair", SurfaceLine.crosshairArgument(target)],
                                           stdin: inPipe.read, stdout: out.write, stderr: err.write)
        } catch {
            throw CommandFailure(ExitStatus.failure, "\(label): cannot start: \(error)")
        }
        let deadline = MonotonicClock.now() + Interval.milliseconds(Self.readyTimeout)
        while true {
            for line in try lines() {
                if case .ready(let size) = SurfaceLine(line[...]) { return size }
            }
            let left = (deadline - MonotonicClock.now()).microseconds / 1000
            guard left > 0 else {
                throw CommandFailure(ExitStatus.failure, "\(label): no `ready WIDTH HEIGHT` line within \(Self.readyTimeout / 1000) s")
            }
            var fds = [pollfd(fd: output!.rawValue, events: Int16(POLLIN), revents: 0)]
            do { _ = try pollOnce(&fds, timeout: Int32(left)) } catch { throw CommandFailure(ExitStatus.failure, "\(label): \(error)") }
            if fds[0].revents & Int16(POLLIN) == 0 && fds[0].revents != 0 {
                throw CommandFailure(ExitStatus.failure, "\(label): exited before its `ready` line: \(said())")
            }
        }
    }

    /// The complete lines its output holds now (read without blocking); throws when it has
    /// ended (its output closed).
    func lines() throws(CommandFailure) -> [String] {
        guard let output else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            // Nothing more to read now (EAGAIN) or a failed read: the lines so far.
            guard let n = try? syscall("read", onInterrupt: .retry, {
                buffer.withUnsafeMutableBytes { Glibc.read(output.rawValue, $0.baseAddress, $0.count) }
            }) else { break }
            if n > 0 {
                pending.append(contentsOf: buffer[..<n])
                // A line longer than 4 KiB is no line of this interface: it is dropped whole.
                if pending.count > 1 << 16 { pending.removeAll() }
                continue
            }
            throw CommandFailure(ExitStatus.failure, "\(path): exited while a target was shown: \(said())")
        }
        var result: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            result.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        return result
    }

    /// The last line the surface wrote on stderr (of its first 4 KiB), or `no message`.
    private func said() -> String {
        guard let errors else { return "no message" }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = Glibc.read(errors.rawValue, &buffer, buffer.count)
        let text = n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
        return text.split(separator: "\n").last.map(String.init) ?? "no message"
    }

    /// How long a surface may take to exit after SIGTERM before it is killed.
    static let exitTimeout: Int32 = 2_000

    /// Ends the shown surface: its stdin is closed (the interface's end), SIGTERM follows, and
    /// it is reaped; one still running `exitTimeout` ms later is killed.
    func stop() {
        try? input?.close(); input = nil
        try? output?.close(); output = nil
        try? errors?.close(); errors = nil
        pending.removeAll()
        if let child {
            child.signalGroup(SIGTERM)
            var fds = [pollfd(fd: child.pidfd.rawValue, events: Int16(POLLIN), revents: 0)]
            if ((try? pollOnce(&fds, timeout: Self.exitTimeout)) ?? 0) == 0 { child.signalGroup(SIGKILL) }
            _ = try? child.wait(blocking: true)
        }
        child = nil
    }
}
