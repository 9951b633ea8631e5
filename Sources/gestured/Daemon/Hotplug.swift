import GesturedConfig
import GesturedCore
import GesturedIO

/// Finding devices: udev's enumeration at start and after a reload, and its netlink monitor in
/// the loop's epoll set for devices plugged in or removed while the daemon runs. What it finds
/// goes to `DeviceHub` (open what the core admits, close what went).
final class Hotplug {
    /// udev's netlink monitor; nil when it could not be created (no hotplug then).
    let monitor: UdevMonitor?

    private init(monitor: UdevMonitor?) { self.monitor = monitor }

    /// The udev monitor, then the devices present now that the configuration admits.
    ///
    /// The monitor before the enumeration: a device added in between is seen twice (the
    /// duplicate is dropped by syspath) rather than never.
    static func start(configuration: Configuration) -> (Hotplug, [DeviceCandidate]) {
        var monitor: UdevMonitor?
        do { monitor = try UdevMonitor() } catch {
            Log.warning("udev monitor: \(error); devices added later will not be seen")
        }
        return (Hotplug(monitor: monitor), candidates(configuration: configuration, except: { _ in false }))
    }

    /// The devices udev lists now that are not open (`isOpen`) and that the configuration admits.
    static func candidates(configuration: Configuration, except isOpen: (String) -> Bool) -> [DeviceCandidate] {
        let infos: [InputDeviceInfo]
        do { infos = try UdevEnumerator.inputDevices() } catch {
            Log.warning("udev enumeration failed: \(error); no device newly opened")
            return []
        }
        return infos.filter { !isOpen($0.syspath) }.compactMap { DeviceCandidate.admit($0, configuration: configuration) }
    }

    /// Udev announced devices: opens those added (unless open already: the enumeration may have
    /// seen them), closes those removed, and takes up a device whose `change` shows that udev
    /// has now processed it.
    func receive(into devices: DeviceHub) {
        guard let monitor else { return }
        for event in monitor.receive() {
            let open = devices.token(ofSyspath: event.device.syspath)
            switch event.action {
            case "remove":
                if let open { devices.close(token: open, reason: "removed (udev)") }
            case "add", "change":
                guard open == nil else { continue }
                if let candidate = DeviceCandidate.admit(event.device, configuration: devices.configuration) { devices.open(candidate) }
            default:
                break
            }
        }
    }
}
