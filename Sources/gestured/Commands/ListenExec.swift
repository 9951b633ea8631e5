import GesturedCore
import GesturedIO
import Glibc

/// `gestured listen --exec CMD`: runs CMD for each gesture line, its fields in `GESTURE_*`
/// environment variables (`GestureEnvironment`), and for each kiosk line (`idle`, `active`,
/// `wake`, `lock`, `unlock`), in `KIOSK_*` variables (`KioskEnvironment`); at most one instance running and one pending
/// (`CommandQueue`: the newest pending replaces an older one).
///
/// Without `--shell`, CMD is split at spaces into a program and its arguments, with no quoting,
/// expansion or redirection: what a gesture name or view contains can never become shell syntax.
/// With `--shell`, CMD is run by `/bin/sh -c`, which sees the variables like any other.
final class ListenExec {
    let command: String
    private let argv: [String]
    private var queue = CommandQueue<[(name: String, value: String)]>()
    private var child: ChildProcess?

    init(command: String, shell: Bool) throws(CommandFailure) {
        self.command = command
        argv = shell ? ["/bin/sh", "-c", command] : command.split(separator: " ").map(String.init)
        guard !argv.isEmpty, !command.isEmpty else { throw CommandFailure(ExitStatus.usage, "--exec needs a command") }
    }

    /// The pidfd to poll while a command runs.
    var pidfd: FileDescriptor? { child?.pidfd }
    /// Whether anything runs or waits.
    var isBusy: Bool { queue.isRunning }

    /// A line arrived; gesture and kiosk lines run the command (now, or when the running one exits).
    func handle(line: Substring) throws(CommandFailure) {
        guard let variables = GestureEnvironment.variables(ofTextLine: line) ?? KioskEnvironment.variables(ofTextLine: line)
        else { return }
        switch queue.submit(variables) {
        case .start(let job): try start(job)
        case .queued, .none: break
        }
    }

    /// The pidfd was readable: reaps the command and starts the pending one, if any.
    func reap() throws(CommandFailure) {
        guard let running = child else { return }
        let status: ChildProcess.Status?
        do { status = try running.wait() } catch { throw CommandFailure(ExitStatus.failure, "\(error)") }
        guard let status else { return }
        child = nil
        if status != .exited(0) { Log.plain("gestured listen: \(command): \(status)") }
        switch queue.finished() {
        case .start(let job): try start(job)
        case .queued, .none: break
        }
    }

    private func start(_ variables: [(name: String, value: String)]) throws(CommandFailure) {
        do {
            child = try ChildProcess(argv, environment: ChildProcess.environment(adding: variables))
        } catch {
            throw CommandFailure(ExitStatus.failure, "--exec: cannot run \(argv[0]): \(error)")
        }
    }
}
