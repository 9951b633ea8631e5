import GesturedConfig
import GesturedCore
import GesturedIO

/// Finding devices: the source's list at start and after a reload, and its announcements
/// (devices plugged in or removed while the daemon runs), as decisions for the loop to hand to
/// `DeviceHub`. It knows nothing of `DeviceHub` (what is open is asked through `isOpen`), and
/// `DeviceHub` nothing of it: the dependency runs one way, from the loop to both.
final class Hotplug {
    /// What an announcement asks of the open devices.
    enum Decision {
        /// A device to use, its node open.
        case open(DeviceCandidate)
        /// The device at this syspath went.
        case close(syspath: String, reason: String)
    }

    let source: any DeviceSource

    init(source: any DeviceSource) { self.source = source }

    /// The devices present now that are not open (`isOpen`, by syspath) and that the
    /// configuration admits.
    func candidates(configuration: Configuration, except isOpen: (String) -> Bool) -> [DeviceCandidate] {
        let infos: [InputDeviceInfo]
        do { infos = try source.present() } catch {
            Log.warning("udev enumeration failed: \(error); no device newly opened")
            return []
        }
        return infos.filter { !isOpen($0.syspath) }.compactMap { DeviceCandidate.admit($0, configuration: configuration) }
    }

    /// The announcements that wait, decided: a device added is opened (unless open already: the
    /// enumeration may have seen it), one removed is closed, and one whose `change` shows that
    /// udev has now processed it is taken up. Each decision counts for the later announcements
    /// of the same call, as if it had been carried out.
    func receive(configuration: Configuration, isOpen: (String) -> Bool) -> [Decision] {
        var decisions: [Decision] = []
        var decided: [String: Bool] = [:]   // syspath: open after the decisions so far
        for event in source.announcements() {
            let syspath = event.device.syspath
            let open = decided[syspath] ?? isOpen(syspath)
            switch event.action {
            case "remove":
                guard open else { continue }
                decisions.append(.close(syspath: syspath, reason: "removed (udev)"))
                decided[syspath] = false
            case "add", "change":
                guard !open, let candidate = DeviceCandidate.admit(event.device, configuration: configuration) else { continue }
                decisions.append(.open(candidate))
                decided[syspath] = true
            default:
                break
            }
        }
        return decisions
    }
}
