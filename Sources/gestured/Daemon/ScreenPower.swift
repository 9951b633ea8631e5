import GesturedCore
import GesturedIO

/// Screens whose power comes from sysfs (`power.source` `"drm"`, `"backlight"`, or `"auto"` with
/// a `connector`): each attribute is opened once and read with one `pread` when a read of a
/// device may begin a touch sequence on its screen (no touch down there), before the pipeline
/// sees the read, so the sequence is claimed if the screen is off. Never polled: an idle daemon
/// reads nothing. A screen whose attribute cannot be opened, or reads as nothing known, keeps
/// what it had (the socket's word); both are logged, the second rate-limited.
final class ScreenPower {
    /// By screen index; nil where the socket says.
    private var attributes: [(kind: PowerAttribute, file: SysfsAttribute)?] = []
    /// Where sysfs is (tests give a directory of their own).
    private let sys: String
    /// How many attribute reads were made (tests count them: one per sequence, none idle).
    private(set) var reads = 0

    init(configuration: Configuration, sys: String = "/sys") {
        self.sys = sys
        configure(configuration)
    }

    /// Opens the attributes of `configuration`'s screens (closing those of the one before).
    func configure(_ configuration: Configuration) {
        for attribute in attributes { attribute?.file.close() }
        attributes = configuration.screenSpecs.indices.map { index -> (kind: PowerAttribute, file: SysfsAttribute)? in
            guard let kind = configuration.power(ofScreen: index).attribute else { return nil }
            let path = kind.path(sys: sys)
            let name = configuration.screenSpecs[index].id.map { "screen \($0)" } ?? "the screen"
            do {
                let file = try SysfsAttribute(path: path)
                Log.info("\(name): its power is read from \(path) when a touch sequence begins")
                return (kind, file)
            } catch {
                Log.warning("\(name): \(error); its power comes from `gestured ctl screen off|on` instead")
                return nil
            }
        }
    }

    /// Before `device`'s events go to the pipeline: reads its screen's attribute when no touch
    /// is down there, and says whether it is off (nil: not read, or nothing known), for the
    /// read's step (`LivePipeline.read`).
    func beforeRead(of device: GesturePipeline.DeviceID, live: LivePipeline) -> Bool? {
        guard !attributes.isEmpty, let screen = live.screen(of: device), screen < attributes.count,
              let (kind, file) = attributes[screen], !live.hasTouchesDown(onScreen: screen) else { return nil }
        reads += 1
        let text: String
        do { text = try file.read() } catch {
            Log.limited(.warning, key: "power \(file.path)", "\(file.path): \(error.errno); the screen's power is unchanged")
            return nil
        }
        guard let off = kind.isOff(text) else {
            Log.limited(.warning, key: "power \(file.path)",
                        "\(file.path): '\(text.split(separator: "\n").first ?? "")' says nothing known; the screen's power is unchanged")
            return nil
        }
        return off
    }
}
