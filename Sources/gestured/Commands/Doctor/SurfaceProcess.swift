import CLinux
import GesturedCore
import GesturedDoctor
import GesturedIO
import Glibc

/// A running `gestured-surface` (gestured(8), GESTURED-SURFACE): its stdin held open (closing
/// it ends the surface), its stdout read line by line with a deadline, its stderr kept for the
/// message when it exits early.
final class SurfaceProcess {
    private let child: ChildProcess
    private var input: FileDescriptor?
    private let output: FileDescriptor
    private let errors: FileDescriptor
    private var pending: [UInt8] = []
    private var stopped = false

    init(_ launch: SurfaceLaunch) throws(CancelProbeRun.Failure) {
        let path = launch.executable
        do {
            let stdin = try ChildProcess.inputPipe()
            let stdout = try ChildProcess.outputPipe(), stderr = try ChildProcess.outputPipe()
            defer { try? stdin.read.close(); try? stdout.write.close(); try? stderr.write.close() }
            child = try SurfaceShell.start(launch, stdin: stdin.read, stdout: stdout.write, stderr: stderr.write)
            input = stdin.write
            output = stdout.read
            errors = stderr.read
        } catch { throw CancelProbeRun.Failure(message: "cannot start \(path): \(error)") }
    }

    deinit { stop(within: 0) }

    /// Reads lines until `done` holds for one (true) or `milliseconds` pass (false). Throws when
    /// the surface's output ends (it exited), with what it said on stderr.
    @discardableResult
    func lines(within milliseconds: Int64, until done: (CancelProbe.SurfaceLine) -> Bool) throws(CancelProbeRun.Failure) -> Bool {
        let limit = MonotonicClock.now() + .milliseconds(milliseconds)
        while true {
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let parsed = CancelProbe.SurfaceLine(line[...]), done(parsed) { return true }
            }
            if pending.count > CancelProbeRun.lineLimit { pending.removeAll() }
            let left = (limit - MonotonicClock.now()).microseconds / 1000
            guard left > 0 else { return false }
            var fds = [pollfd(fd: output.rawValue, events: Int16(POLLIN), revents: 0)]
            _ = try? pollOnce(&fds, timeout: Int32(left))
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(output.rawValue, &buffer, buffer.count)
            if n > 0 { pending += buffer[..<n] }
            if n == 0 { throw CancelProbeRun.Failure(message: "gestured-surface exited: \(said())") }
        }
    }

    /// What the surface wrote on stderr (its reason when it exits), at most 4 KiB.
    private func said() -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(errors.rawValue, &buffer, buffer.count)
        let text = n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
        let status = (try? child.wait(blocking: false)).flatMap { $0.map { "\($0)" } } ?? "running"
        return (text.split(separator: "\n").last.map(String.init) ?? "no message") + " (\(status))"
    }

    /// Closes its stdin (it exits 0), waits up to `milliseconds` for it, then SIGTERM, then SIGKILL.
    func stop(within milliseconds: Int64) {
        guard !stopped else { return }
        stopped = true
        try? input?.close()
        input = nil
        for signal in [Int32(0), SIGTERM, SIGKILL] {
            if signal != 0 { child.signalGroup(signal) }
            var fds = [pollfd(fd: child.pidfd.rawValue, events: Int16(POLLIN), revents: 0)]
            _ = try? pollOnce(&fds, timeout: Int32(signal == SIGKILL ? -1 : milliseconds))
            if (try? child.wait(blocking: false)) ?? nil != nil { break }
        }
        try? output.close()
        try? errors.close()
    }
}
