import CLinux
import GesturedCore
import Glibc

/// One state change to tell the service manager, as `sd_notify(3)` defines the fields.
///
/// Pure: `datagram` is the exact text sent, so the formatting is tested without a socket.
public enum ServiceNotification: Hashable, Sendable {
    /// Start-up is complete (devices opened, socket listening): `READY=1` and a status line.
    case ready(status: String)
    /// A reload began, at `monotonic` (CLOCK_MONOTONIC): `RELOADING=1`, `MONOTONIC_USEC=`.
    /// systemd ≥ 253 (`Type=notify-reload`) needs the timestamp; 252 ignores it.
    case reloading(monotonic: Instant)
    /// A new human-readable status line (`systemctl status` shows it).
    case status(String)
    /// The event loop is alive: `WATCHDOG=1`.
    case watchdog
    /// Shutting down: `STOPPING=1`.
    case stopping

    /// The datagram's text: `KEY=VALUE` fields separated by newlines.
    public var datagram: String {
        switch self {
        case .ready(let status): "READY=1\nSTATUS=\(Self.oneLine(status))"
        case .reloading(let monotonic): "RELOADING=1\nMONOTONIC_USEC=\(max(0, monotonic.microseconds))"
        case .status(let status): "STATUS=\(Self.oneLine(status))"
        case .watchdog: "WATCHDOG=1"
        case .stopping: "STOPPING=1"
        }
    }

    /// A newline would start a new field: statuses are flattened to one line.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}

/// Where `NOTIFY_SOCKET` points: a socket file, or a name in the abstract namespace (`@name`).
public enum NotifyAddress: Hashable, Sendable, CustomStringConvertible {
    case path(String)
    case abstract(String)

    /// Parses `NOTIFY_SOCKET`'s value. Nil for an empty value and for forms this daemon does
    /// not speak (e.g. `vsock:`); the caller then runs without notifications.
    public init?(_ value: String) {
        if value.hasPrefix("/") { self = .path(value) }
        else if value.hasPrefix("@"), value.utf8.count > 1 { self = .abstract(String(value.dropFirst())) }
        else { return nil }
    }

    public var description: String {
        switch self {
        case .path(let path): path
        case .abstract(let name): "@" + name
        }
    }
}

/// The watchdog systemd asks for, from `WATCHDOG_USEC` and `WATCHDOG_PID`.
public enum ServiceWatchdog {
    /// The interval within which systemd expects `WATCHDOG=1`, or nil when no watchdog is asked
    /// of this process: unset, zero or unparsable `WATCHDOG_USEC`, or a `WATCHDOG_PID` that names
    /// another process (the variables were inherited, not meant for us).
    public static func interval(usec: String?, pid: String?, ownPID: pid_t) -> Interval? {
        guard let usec, let micros = Int64(usec), micros > 0 else { return nil }
        if let pid, !pid.isEmpty, pid_t(pid) != ownPID { return nil }
        return Interval(microseconds: micros)
    }

    /// How often to send `WATCHDOG=1`: half the interval, as `sd_watchdog_enabled(3)` advises,
    /// so one late wakeup does not cost a restart.
    public static func period(for interval: Interval) -> Interval {
        Interval(microseconds: max(1, interval.microseconds / 2))
    }
}

/// Sends `ServiceNotification`s to the service manager over `NOTIFY_SOCKET` (an `AF_UNIX`
/// datagram socket), as `sd_notify(3)` does.
///
/// Thirty lines instead of libsystemd: the protocol is one `sendto` of `KEY=VALUE` text, and
/// a dependency on libsystemd would add a shared library (and its own dependencies) to the
/// target system for it. Fd passing and vsock addresses are not needed here.
public final class SystemdNotifier {
    public let address: NotifyAddress
    private let descriptor: FileDescriptor

    /// A notifier for `NOTIFY_SOCKET`'s value, or nil when it is unset or not a Unix address
    /// (not started by systemd, or by a manager this daemon does not speak to).
    public convenience init?(environmentValue value: String?) throws(SystemError) {
        guard let value, let address = NotifyAddress(value) else { return nil }
        try self.init(address: address)
    }

    public init(address: NotifyAddress) throws(SystemError) {
        self.address = address
        descriptor = FileDescriptor(rawValue: try syscall("socket(AF_UNIX, SOCK_DGRAM)", onInterrupt: .fail) {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        })
    }

    deinit { try? descriptor.close() }

    /// Sends one notification (one datagram; the manager reads it whole or not at all).
    public func send(_ notification: ServiceNotification) throws(SystemError) {
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let name: [UInt8]
        switch address {
        case .path(let path): name = Array(path.utf8) + [0]
        case .abstract(let abstract): name = [0] + Array(abstract.utf8)  // no terminating NUL
        }
        guard name.count <= MemoryLayout.size(ofValue: socketAddress.sun_path) else {
            throw SystemError(operation: "sendto", path: address.description, errno: .nameTooLong)
        }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count)
        let payload = Array(notification.datagram.utf8)
        try syscall("sendto", path: address.description, onInterrupt: .retry) {
            payload.withUnsafeBytes { bytes in
                withUnsafePointer(to: &socketAddress) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(descriptor.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, length)
                    }
                }
            }
        }
    }
}
