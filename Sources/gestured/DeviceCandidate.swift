import GesturedCore
import GesturedIO
import Glibc

/// Whether and how the daemon uses one udev input device (docs/DEVICES.md): udev's readiness,
/// the configuration's rules (`DeviceSelection`), the udev calibration. Opens the node only when
/// the device could be used, and logs every reason for not using one.
struct DeviceCandidate {
    let info: InputDeviceInfo
    let evdev: EvdevDevice
    let description: DeviceDescription
    let rule: DeviceRule?
    /// The udev `LIBINPUT_CALIBRATION_MATRIX`, when valid and the rule sets no calibration.
    let udevCalibration: [Double]?
    /// The index of its screen (`Configuration.screenIndex(of:properties:)`).
    let screen: Int

    /// Nil when the device is not (or not yet) to be used; the reason is logged.
    static func admit(_ info: InputDeviceInfo, configuration: Configuration) -> DeviceCandidate? {
        let label = "\(info.sysname) (\(info.name))"
        guard DeviceSelection.isReady(initialized: info.isInitialized, properties: info.properties) else {
            Log.debug("\(label): not yet processed by udev; waiting for its uevent")
            return nil
        }
        // The daemon's own clones are touchscreens to udev too: taking one as input would feed
        // the daemon its own forwarded touches.
        guard !UinputClone.isClone(name: info.name, syspath: info.syspath) else {
            Log.debug("\(label): a clone made by gestured, not used")
            return nil
        }
        // Only touchscreens and devices a rule may add are worth opening (a keyboard never is).
        let kind = DeviceKind(properties: info.properties)
        guard kind == .touchscreen || configuration.devices.contains(where: \.add) else {
            Log.debug("\(label): \(kind.rawValue), not used (no rule adds devices)")
            return nil
        }
        let evdev: EvdevDevice
        do { evdev = try EvdevDevice(path: info.devnode) } catch {
            Log.warning("\(label): cannot open: \(error), ignoring")
            return nil
        }
        let description = evdev.description(sysname: info.sysname)
        let decision = DeviceSelection.decide(description, properties: info.properties, rules: configuration.devices)
        guard case .use(let index) = decision else {
            Log.info("\(label): \(decision)")
            evdev.close()
            return nil
        }
        guard let screen = configuration.screenIndex(of: description, properties: info.properties) else {
            Log.info("\(label): not used (no screen takes it: no screen's devices match it and none says devices: \"rest\")")
            evdev.close()
            return nil
        }
        let rule = index.map { configuration.devices[$0] }
        var udevCalibration: [Double]?
        if rule?.calibration == nil, let text = info.properties["LIBINPUT_CALIBRATION_MATRIX"] {
            udevCalibration = CalibrationMatrix.parse(text)
            if udevCalibration == nil {
                Log.warning("\(label): LIBINPUT_CALIBRATION_MATRIX=\"\(text)\" is not 6 numbers, ignoring it")
            }
        }
        return DeviceCandidate(info: info, evdev: evdev, description: description, rule: rule,
                               udevCalibration: udevCalibration, screen: screen)
    }

    /// `EVIOCGRAB` as the rule asks; a failure is logged with what it means for the kiosk.
    func grabIfAsked() {
        guard rule?.grab == true else { return }
        do {
            try evdev.grab(true)
            Log.info("\(info.sysname): grabbed (EVIOCGRAB): no other program sees its events while gestured runs")
        } catch where error.errno.rawValue == EBUSY {
            Log.error("\(info.sysname) (\(info.name)): cannot grab: another program holds it exclusively (EVIOCGRAB: EBUSY); "
                      + "gestured receives none of its events until that program lets go")
        } catch {
            Log.warning("\(info.sysname) (\(info.name)): exclusive grab failed: \(error); reading it shared")
        }
    }

    /// Logs the faults the pipeline's decoder survived for this device, rate-limited per kind.
    static func logAnomalies(_ anomalies: [(EvdevFrameDecoder.Anomaly, Int)], sysname: String) {
        for (anomaly, count) in anomalies {
            Log.limited(.warning, key: "\(sysname) \(anomaly.rawValue)",
                        "\(sysname): \(anomaly)\(count > 1 ? " (\(count) times)" : "")")
        }
    }
}
