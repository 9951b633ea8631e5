import GesturedConfig
import GesturedCore
import GesturedIO

extension DeviceHub {
    /// Applies a reloaded configuration whole, as `ReloadPlan` (core) says, in one step of the
    /// pipeline: the screens are rebuilt, every open device's treatment is evaluated again (a
    /// device now refused is let go; one whose rotation, calibration, touch limit, grab or screen
    /// changed is treated anew under its id, which cancels its touches in flight; one whose
    /// passThrough changed is let go, to be opened again with or without its clone). Devices
    /// present but not open are the loop's to admit anew (`Hotplug.candidates`, after this).
    ///
    /// Throws, changing nothing, when the new screens' engines cannot be built.
    func reload(_ fresh: Configuration) throws(GestureEngine.BuildError) {
        let tokens = devices.keys.sorted()
        let plan = ReloadPlan(open: tokens.map { token in
            let device = devices[token]!
            return .init(key: token, description: device.description, properties: device.info.properties, treatment: device.treatment)
        }, fresh: fresh, current: live.pipeline.screens)
        let before = Self.describe(live.pipeline.screens)
        // What each open device becomes, for the reload's one step; the shell's part after it.
        var changes: [GesturePipeline.DeviceChange] = []
        var released: [(token: UInt64, reason: String)] = []
        var replaced: [(token: UInt64, admitted: DeviceAdmission.Admitted, changes: [String])] = []
        for (token, step) in plan.steps {
            guard let device = devices[token] else { continue }
            let line = DeviceLine(added: false, sysname: device.info.sysname, name: device.info.name)
            switch step {
            case .release(let refusal):
                changes.append(.release(device.id, line: line))
                released.append((token, "\(refusal) by the reloaded configuration"))
            case .keep(let admitted):
                changes.append(.keep(device.id, screen: admitted.screen))
            case .reopen(let what):
                changes.append(.release(device.id, line: line))
                released.append((token, "reopened for the reloaded configuration (\(what.joined(separator: ", ")))"))
            case .readd(let admitted, let what):
                do {
                    let prepared = try GesturePipeline.prepareReplacement(
                        of: device.id, device.description, rule: admitted.rule, fallbackCalibration: admitted.udevCalibration,
                        screen: admitted.screen, size: plan.sizes[admitted.screen])
                    changes.append(.replace(prepared))
                    replaced.append((token, admitted, what))
                } catch {
                    changes.append(.release(device.id, line: line))
                    released.append((token, "not usable with the reloaded configuration: \(error)"))
                }
            }
        }
        // A new cancelStyle needs no re-add: it applies from here on, to the reload's own cancels too.
        for (token, step) in plan.steps {
            if let admitted = step.admitted { clones.setCancelStyle(admitted.rule?.cancelStyle ?? .default, of: devices[token]!.id) }
        }
        try live.reload(fresh, sizes: plan.sizes, devices: changes, now: clock.now())
        let after = Self.describe(live.pipeline.screens)
        Log.info(before == after ? "screens rebuilt: \(after); running gestures cancelled"
                                 : "screens rebuilt: \(before) → \(after); running gestures cancelled")
        configuration = fresh
        power.configure(fresh)
        for (token, reason) in released {
            if let device = devices.removeValue(forKey: token) { release(device, reason: reason) }
        }
        for (token, admitted, what) in replaced { treatAnew(token: token, admitted, changes: what) }
    }

    /// The screens as the log names them: `front 800x480, back 1280x800` (`1280x800` alone in
    /// the single form).
    static func describe(_ screens: [GesturePipeline.Screen]) -> String {
        screens.map { s in
            (s.id.map { "\($0) " } ?? "") + "\(LineEncoder.fixed(s.size.width, decimals: 0))x\(LineEncoder.fixed(s.size.height, decimals: 0))"
        }.joined(separator: ", ")
    }

    /// The shell's part of a device treated anew (the pipeline's, `DeviceChange.replace`, is
    /// done): its grab follows the new treatment, which it keeps.
    private func treatAnew(token: UInt64, _ admitted: DeviceAdmission.Admitted, changes: [String]) {
        guard var device = devices[token] else { return }
        let label = "\(device.info.sysname) (\(device.info.name))"
        let screen = live.pipeline.screens[admitted.screen]
        let new = DeviceTreatment(admitted, screenID: screen.id, screenSize: screen.size)
        if new.grab != device.treatment.grab {
            do { try device.evdev.grab(new.grab) } catch {
                Log.warning("\(label): \(new.grab ? "exclusive grab" : "releasing the grab") failed: \(error)")
            }
        }
        device.treatment = new
        devices[token] = device
        Log.info("\(label): reloaded: \(changes.joined(separator: ", ")); its touches in flight were cancelled")
    }
}
