import GesturedCore
import GesturedIO
import Glibc

/// `gestured clone-guard --slots N --style STYLE [--touch-button]`: the guard of one
/// pass-through clone (`CloneGuard`), started by the daemon with the clone's uinput descriptor as
/// 3 and its pipe as 4. It ends the clone's touches when the daemon lets the clone go or dies.
enum CloneGuardCommand {
    static func run(slots: Int, style: CancelStyle, touchButton: Bool) throws(CommandFailure) {
        let uinput = FileDescriptor(rawValue: CloneGuard.uinputDescriptor)
        let control = FileDescriptor(rawValue: CloneGuard.controlDescriptor)
        func isOpen(_ descriptor: FileDescriptor) -> Bool {
            (try? GesturedIO.syscall("fcntl(F_GETFD)", onInterrupt: .retry) { fcntl(descriptor.rawValue, F_GETFD) }) != nil
        }
        guard isOpen(uinput), isOpen(control) else {
            throw CommandFailure(ExitStatus.usage, "gestured clone-guard: descriptors 3 and 4 are not open; the daemon starts it")
        }
        // A reload's SIGHUP is the daemon's: the guard ignores it, and ends on SIGTERM or SIGINT
        // (a service manager stopping everything) as when its pipe ends.
        signal(SIGHUP, SIG_IGN)
        do {
            let signals = try SignalChannel(signals: [SIGTERM, SIGINT])
            _ = try CloneGuard.serve(uinput: uinput, control: control, signals: signals, slotCount: slots,
                                     hasTouchButton: touchButton, style: style)
        } catch {
            throw CommandFailure(ExitStatus.failure, "gestured clone-guard: \(error); the clone goes with its touches as they are")
        }
    }
}
