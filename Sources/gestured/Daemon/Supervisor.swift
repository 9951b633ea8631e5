import GesturedCore
import GesturedIO
import Glibc

/// The daemon's side of the service manager's supervision: readiness, reload and stop
/// notifications, a status line, and the watchdog (sd_notify(3), sd_watchdog_enabled(3)).
///
/// Inert when `NOTIFY_SOCKET` is unset (not started by systemd): every call returns at once
/// and no timer exists, so an idle daemon still never wakes. With `WATCHDOG_USEC`, a second
/// timerfd wakes the event loop at half the interval and `watchdogFired` sends `WATCHDOG=1`
/// from there: a loop that is stuck sends nothing and systemd restarts the service.
final class Supervisor {
    private let notifier: SystemdNotifier?
    /// How often to send `WATCHDOG=1`, when systemd asked for it.
    private let period: Interval?
    private var timer: DeadlineTimer?
    /// The counts of the last status sent: the loop calls `update` on every wakeup, so it
    /// compares two integers and formats a line only when they change.
    private var lastCounts: (devices: Int, clients: Int)?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID`. Problems are logged, never
    /// fatal: a daemon that cannot notify still serves its clients (systemd will time it out).
    init() {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        var notifier: SystemdNotifier?
        do { notifier = try SystemdNotifier(environmentValue: variable("NOTIFY_SOCKET")) } catch {
            Log.warning("NOTIFY_SOCKET: \(error); running without service manager notifications")
        }
        if notifier == nil, let value = variable("NOTIFY_SOCKET"), NotifyAddress(value) == nil, !value.isEmpty {
            Log.warning("NOTIFY_SOCKET=\(value): not a Unix socket address, ignoring")
        }
        self.notifier = notifier
        let interval = ServiceWatchdog.interval(usec: variable("WATCHDOG_USEC"), pid: variable("WATCHDOG_PID"),
                                                ownPID: getpid())
        period = notifier == nil ? nil : interval.map(ServiceWatchdog.period(for:))
        for name in ["WATCHDOG_USEC", "WATCHDOG_PID"] { unsetenv(name) }
    }

    /// Adds the watchdog timer to the loop's poller under `token`, armed one period from now;
    /// does nothing without a watchdog.
    func register(with poller: any EventPolling, token: UInt64) throws(SystemError) {
        guard let period else { return }
        let timer = try DeadlineTimer()
        try timer.arm(at: MonotonicClock.now() + period)
        try poller.add(timer.descriptor, token: token, events: .readable)
        self.timer = timer
        Log.info("watchdog: notifying systemd every \(period.microseconds / 1000) ms")
    }

    /// The watchdog timer fired in the event loop: tells systemd the loop is alive and re-arms.
    func watchdogFired() {
        guard let timer, let period else { return }
        _ = try? timer.acknowledge()
        send(.watchdog)
        do { try timer.arm(at: MonotonicClock.now() + period) } catch {
            Log.limited(.error, key: "watchdog timer", "cannot re-arm the watchdog timer: \(error)")
        }
    }

    /// Start-up is complete: devices are open and the socket listens.
    func ready(devices: Int, clients: Int) {
        lastCounts = (devices, clients)
        send(.ready(status: Self.status(devices: devices, clients: clients)))
    }

    /// A configuration reload begins; `ready` ends it, whatever its outcome.
    func reloading() { send(.reloading(monotonic: MonotonicClock.now())) }

    /// Sends a new status line when the counts changed since the last one.
    func update(devices: Int, clients: Int) {
        guard notifier != nil, lastCounts.map({ $0 != (devices, clients) }) ?? true else { return }
        lastCounts = (devices, clients)
        send(.status(Self.status(devices: devices, clients: clients)))
    }

    func stopping() { send(.stopping) }

    /// Start-up failed on an invalid configuration (exit status 78): its first error, with file,
    /// key path and line:column, becomes the status line, which `systemctl status` goes on
    /// showing after the process has exited. systemd reads the datagram before it reaps the
    /// process (its notification socket has priority over SIGCHLD), so it is not lost.
    static func invalidConfiguration(_ errors: [String]) {
        guard let first = errors.first else { return }
        let more = errors.count > 1 ? " (and \(errors.count - 1) more: journalctl -u gestured)" : ""
        Supervisor().send(.status("invalid configuration, not started: \(first)\(more)"))
    }

    /// The human summary `systemctl status` shows.
    static func status(devices: Int, clients: Int) -> String {
        "\(devices) touchscreen\(devices == 1 ? "" : "s"), \(clients) client\(clients == 1 ? "" : "s")"
    }

    private func send(_ notification: ServiceNotification) {
        guard let notifier else { return }
        do { try notifier.send(notification) } catch {
            Log.limited(.warning, key: "sd_notify", "cannot notify the service manager at \(notifier.address): \(error)")
        }
    }
}
