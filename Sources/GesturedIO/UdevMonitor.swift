import CUdev
import Glibc

/// Hotplug: udev's netlink monitor for the `input` subsystem, a descriptor for the epoll loop.
///
/// It listens to the "udev" source, so an event arrives after udev has processed the device
/// (rules run, properties set), never the raw kernel uevent. Create it before enumerating: a
/// device that appears in between is then both enumerated and announced, and the caller drops
/// the duplicate by syspath, rather than being missed.
public final class UdevMonitor {
    /// One uevent for an input event node.
    public struct Event: Hashable, Sendable {
        /// `add`, `remove`, `change`, ... as udev says.
        public var action: String
        /// The node as udev describes it now (for `remove`, its last known state).
        public var device: InputDeviceInfo
    }

    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    /// Owned by the monitor (closed by `udev_monitor_unref`): poll it, never close it.
    public let descriptor: FileDescriptor

    public init() throws(SystemError) {
        let udev = try syscall("udev_new") { udev_new() }
        let monitor: OpaquePointer
        do {
            monitor = try syscall("udev_monitor_new_from_netlink") { udev_monitor_new_from_netlink(udev, "udev") }
        } catch {
            udev_unref(udev)
            throw error
        }
        self.udev = udev
        self.monitor = monitor
        do {
            _ = try negativeErrno("udev_monitor_filter_add_match_subsystem_devtype",
                                  udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil))
            _ = try negativeErrno("udev_monitor_enable_receiving", udev_monitor_enable_receiving(monitor))
            descriptor = FileDescriptor(rawValue: try negativeErrno("udev_monitor_get_fd", udev_monitor_get_fd(monitor)))
        } catch {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw error
        }
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Every pending event for an event node (`/dev/input/event*`); parent `inputN` devices and
    /// other nodes are skipped. Returns when the socket would block.
    public func receive() -> [Event] {
        var events: [Event] = []
        // The socket is non-blocking: nil means nothing more (or a malformed message, skipped).
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? "change"
            if let info = UdevEnumerator.info(device) { events.append(Event(action: action, device: info)) }
        }
        return events
    }
}
