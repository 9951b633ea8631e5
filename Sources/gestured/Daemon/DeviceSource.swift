import GesturedIO

/// Where the daemon learns of input devices: the ones present now and those announced later
/// (plugged in, removed, processed by udev). `gestured run` asks udev (`UdevDeviceSource`); an
/// embedded daemon in a test gives its own, so `Hotplug` and reload run there too.
protocol DeviceSource: AnyObject {
    /// Readable when announcements wait (the loop polls it under `LoopToken.hotplugToken`);
    /// nil when none will come.
    var descriptor: FileDescriptor? { get }
    /// The input devices present now.
    func present() throws(SystemError) -> [InputDeviceInfo]
    /// The announcements that wait, in their order.
    func announcements() -> [UdevMonitor.Event]
}

/// udev: its enumeration and its netlink monitor.
final class UdevDeviceSource: DeviceSource {
    /// Nil when it could not be created (no hotplug then; logged).
    private let monitor: UdevMonitor?

    /// The monitor is made here, before any enumeration: a device added in between is then seen
    /// twice (the duplicate is dropped by syspath) rather than never.
    init() {
        var monitor: UdevMonitor?
        do { monitor = try UdevMonitor() } catch {
            Log.warning("udev monitor: \(error); devices added later will not be seen")
        }
        self.monitor = monitor
    }

    var descriptor: FileDescriptor? { monitor?.descriptor }
    func present() throws(SystemError) -> [InputDeviceInfo] { try UdevEnumerator.inputDevices() }
    func announcements() -> [UdevMonitor.Event] { monitor?.receive() ?? [] }
}
