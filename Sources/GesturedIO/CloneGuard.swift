import CEvdev
import CLinux
import GesturedCore
import Glibc

/// The guard of a pass-through clone: a small process the daemon starts from its own binary
/// (`gestured clone-guard`, CloneGuardCommand.swift) that holds a duplicate of the clone's uinput
/// descriptor and the read end of a pipe whose write end only the daemon has. When that pipe
/// ends (the daemon exited, was killed or let the clone go) or the guard gets SIGTERM or SIGINT,
/// it writes the end of every touch of the clone in its `cancelStyle`, leaves the clone's
/// readers `readGrace` to read that, and closes its descriptor; the kernel then destroys the
/// clone, the daemon's descriptor being closed by then.
///
/// Why a process: when the kernel destroys a uinput device with touches down (the daemon's
/// descriptor closed by SIGKILL or a crash), libinput reports `TOUCH_CANCEL`, which Debian 12's
/// wlroots 0.15 (cage, sway) and weston 10 drop: the application kept those touches pressed
/// (docs/KIOSK.md, measured). Nothing the daemon does before it dies can help, so the end is
/// written by a process that outlives it. And evdev drops what its readers have not read yet
/// when a device goes, so the clone must outlive that write a moment (`readGrace`).
///
/// This type is the daemon's side (start, style changes, release, reap); `serve` is the guard's.
public final class CloneGuard {
    /// How long the clone lives on after its touches' ends are written, so that its readers
    /// (the compositor) read them before evdev discards what is unread. In the kernel guest under
    /// emulation, the slowest application measured read a forwarded down 1.7 s after the panel's
    /// stamp at the 99th percentile (`libinput debug-events`, the host's two cores at load
    /// average 7.5), the compositors 0.03 to 0.8 s (the latency lines of `make test-vm`,
    /// docs/KIOSK.md): 2 s covers that. It delays only the clone's removal once the daemon has
    /// let it go, never a touch.
    public static let readGrace = Interval.milliseconds(2000)

    /// The one message the daemon sends: the clone's cancel style changed (a reload). One byte.
    public static func message(_ style: CancelStyle) -> UInt8 {
        switch style {
        case .palm: UInt8(ascii: "p")
        case .lift: UInt8(ascii: "l")
        }
    }

    /// The style after `bytes` were received, starting from `style`; unknown bytes change nothing.
    public static func style(after bytes: some Sequence<UInt8>, from style: CancelStyle) -> CancelStyle {
        var style = style
        for byte in bytes {
            if let known = CancelStyle.allCases.first(where: { message($0) == byte }) { style = known }
        }
        return style
    }

    /// The descriptors the guard finds its uinput device and its pipe at.
    public static let uinputDescriptor: Int32 = 3
    public static let controlDescriptor: Int32 = 4

    public let child: ChildProcess
    private var control: FileDescriptor?

    /// Starts the guard of `clone` (its slots and `style`): `executable clone-guard --slots N
    /// --style STYLE [--touch-button]`, with the clone's uinput descriptor as 3 and the pipe's read
    /// end as 4, an empty environment and the daemon's stderr.
    public init(of clone: UinputClone, slotCount: Int, style: CancelStyle,
                executable: String = "/proc/self/exe") throws(SystemError) {
        var fds: [Int32] = [0, 0]
        try syscall("pipe2", onInterrupt: .fail) { pipe2(&fds, O_CLOEXEC) }
        let (read, write) = (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
        defer { try? read.close() }
        let arguments = ["gestured", "clone-guard", "--slots", String(slotCount), "--style", style.rawValue]
            + (clone.hasTouchButton ? ["--touch-button"] : [])
        do {
            child = try ChildProcess([executable] + arguments.dropFirst(), environment: [],
                                     descriptors: [Self.uinputDescriptor: clone.descriptor, Self.controlDescriptor: read])
        } catch {
            try? write.close()
            throw error
        }
        control = write
    }

    /// The guard is never killed from here: it must outlive the daemon to do its job.
    deinit {
        release()
        child.abandon()
    }

    /// Tells the guard the clone's new cancel style (a reload changed it).
    public func setStyle(_ style: CancelStyle) throws(SystemError) {
        guard let control else { return }
        try control.writeAll([Self.message(style)])
    }

    /// Lets the guard finish: it ends the clone's touches and, once the daemon has closed its own
    /// descriptor (`UinputClone.detach`), the clone goes `readGrace` later. Idempotent.
    public func release() {
        guard let control else { return }
        try? control.close()
        self.control = nil
    }

    /// Readable once the guard has exited.
    public var pidfd: FileDescriptor { child.pidfd }

    /// Its exit status once it has exited, else nil.
    public func reap() throws(SystemError) -> ChildProcess.Status? { try child.wait() }
}

extension CloneGuard {
    /// Why `serve` ended.
    public enum Ending: Hashable, Sendable {
        /// The pipe ended: the daemon let the clone go, exited or died.
        case released
        case signal(Int32)
    }

    /// The guard's life: waits for its pipe to end (reading style changes on the way) or a
    /// termination signal on `signals` (a signalfd, when given), writes the clone's ending
    /// (`CloneEncoder.endingEverySlot`) to `uinput`, waits `grace`, and closes `uinput`.
    public static func serve(uinput: FileDescriptor, control: FileDescriptor, signals: SignalChannel?,
                             slotCount: Int, hasTouchButton: Bool, style initial: CancelStyle,
                             grace: Interval = readGrace) throws(SystemError) -> Ending {
        var style = initial
        var bytes = [UInt8](repeating: 0, count: 64)
        var ending: Ending?
        while ending == nil {
            var fds = [pollfd(fd: control.rawValue, events: Int16(POLLIN), revents: 0)]
            if let signals { fds.append(pollfd(fd: signals.descriptor.rawValue, events: Int16(POLLIN), revents: 0)) }
            _ = try pollForever(&fds)
            if let signals, fds[1].revents != 0,
               let signal = try signals.read().first(where: { $0 == SIGTERM || $0 == SIGINT }) {
                ending = .signal(signal)
                break
            }
            guard fds[0].revents != 0 else { continue }
            let count = try syscall("read", path: "the daemon's pipe", onInterrupt: .retry) {
                Glibc.read(control.rawValue, &bytes, bytes.count)
            }
            if count == 0 { ending = .released } else { style = Self.style(after: bytes[..<count], from: style) }
        }
        var buffer: [input_event] = []
        let events = CloneEncoder.endingEverySlot(slotCount: slotCount, hasTouchButton: hasTouchButton, cancelStyle: style)
        try UinputClone.write(events, to: uinput, buffer: &buffer, name: "the clone's uinput descriptor")
        let deadline = MonotonicClock.now() + grace
        var nothing: [pollfd] = []
        while true {
            let left = deadline - MonotonicClock.now()
            guard left > .zero else { break }
            try pollOnce(&nothing, timeout: Int32(clamping: (left.microseconds + 999) / 1000))
        }
        try uinput.close()
        return ending ?? .released
    }
}
