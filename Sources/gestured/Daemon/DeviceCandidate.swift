import GesturedCore
import GesturedIO
import Glibc

/// A udev input device the configuration uses, its node open: the shell's side of
/// `DeviceAdmission` (the policy, in the core), which opens the node only when the device is worth
/// it and logs every reason for not using one.
struct DeviceCandidate {
    let info: InputDeviceInfo
    let evdev: EvdevDevice
    let description: DeviceDescription
    /// How the configuration treats it (rule, screen, udev calibration); `rule.passThrough` and
    /// `grab` are turned off when the clone cannot be made.
    var admitted: DeviceAdmission.Admitted

    var rule: DeviceRule? { admitted.rule }
    var screen: Int { admitted.screen }

    /// Nil when the device is not (or not yet) to be used; the reason is logged.
    static func admit(_ info: InputDeviceInfo, configuration: Configuration) -> DeviceCandidate? {
        let label = "\(info.sysname) (\(info.name))"
        if let refusal = DeviceAdmission.considers(info.udevFacts, rules: configuration.devices) {
            switch refusal {
            case .notProcessed: Log.debug("\(label): not yet processed by udev; waiting for its uevent")
            default: Log.debug("\(label): \(refusal)")
            }
            return nil
        }
        let evdev: EvdevDevice
        do { evdev = try EvdevDevice(path: info.devnode) } catch {
            Log.warning("\(label): cannot open: \(error), ignoring")
            return nil
        }
        let description = evdev.description(sysname: info.sysname)
        switch DeviceAdmission.admit(description, properties: info.properties, configuration: configuration) {
        case .failure(let refusal):
            Log.info("\(label): \(refusal)")
            evdev.close()
            return nil
        case .success(let admitted):
            if let text = admitted.invalidUdevCalibration {
                Log.warning("\(label): LIBINPUT_CALIBRATION_MATRIX=\"\(text)\" is not 6 numbers, ignoring it")
            }
            if let reason = admitted.passThroughRefused {
                Log.error("\(label): passThrough: \(reason); reading it without grabbing, so the application sees every touch")
            }
            return DeviceCandidate(info: info, evdev: evdev, description: description, admitted: admitted)
        }
    }

    /// `EVIOCGRAB` as the rule asks; a failure is logged with what it means for the kiosk.
    func grabIfAsked() {
        guard rule?.grab == true else { return }
        do {
            try evdev.grab(true)
            Log.info("\(info.sysname): grabbed (EVIOCGRAB): no other program sees its events while gestured runs")
        } catch where error.isBusy {
            Log.error("\(info.sysname) (\(info.name)): cannot grab: another program holds it exclusively (EVIOCGRAB: EBUSY); "
                      + "gestured receives none of its events until that program lets go")
        } catch {
            Log.warning("\(info.sysname) (\(info.name)): exclusive grab failed: \(error); reading it shared")
        }
    }
}

extension InputDeviceInfo {
    /// What udev says of it, as `DeviceAdmission` reads it.
    var udevFacts: DeviceAdmission.UdevFacts {
        DeviceAdmission.UdevFacts(name: name, syspath: syspath, properties: properties, isInitialized: isInitialized)
    }
}
