import GesturedConfig
import GesturedCore
import GesturedIO

extension DeviceHub {
    /// Applies a reloaded configuration whole, as `ReloadPlan` (core) says: the screens are
    /// rebuilt, every open device's treatment is evaluated again (a device now refused is let go;
    /// one whose rotation, calibration, touch limit, grab or screen changed is added again,
    /// which cancels its touches in flight; one whose passThrough changed is closed and opened
    /// again, with or without its clone). Devices present but not open are the loop's to admit
    /// anew (`Hotplug.candidates`, after this).
    ///
    /// Throws, changing nothing, when the new screens' engines cannot be built.
    func reload(_ fresh: Configuration) throws(GestureEngine.BuildError) {
        let tokens = devices.keys.sorted()
        let plan = ReloadPlan(open: tokens.map { token in
            let device = devices[token]!
            return .init(key: token, description: device.description, properties: device.info.properties, treatment: device.treatment)
        }, fresh: fresh, current: live.pipeline.screens)
        let before = Self.describe(live.pipeline.screens)
        // A new cancelStyle needs no re-add: it applies from here on, to the reload's own cancels too.
        for (token, step) in plan.steps {
            if let admitted = step.admitted { clones.setCancelStyle(admitted.rule?.cancelStyle ?? .default, of: devices[token]!.id) }
        }
        try live.reload(fresh, sizes: plan.sizes, now: clock.now())
        clones.flush()   // touches whose view's rules changed, cancelled in the application
        let after = Self.describe(live.pipeline.screens)
        Log.info(before == after ? "screens rebuilt: \(after); running gestures cancelled"
                                 : "screens rebuilt: \(before) → \(after); running gestures cancelled")
        configuration = fresh
        power.configure(fresh)
        for (token, step) in plan.steps {
            switch step {
            case .release(let refusal):
                close(token: token, reason: "\(refusal) by the reloaded configuration")
            case .keep(let admitted):
                live.setScreen(admitted.screen, of: devices[token]!.id)
            case .reopen(let changes):
                close(token: token, reason: "reopened for the reloaded configuration (\(changes.joined(separator: ", ")))")
            case .readd(let admitted, let changes):
                readd(token: token, admitted, changes: changes)
            }
        }
    }

    /// The screens as the log names them: `front 800x480, back 1280x800` (`1280x800` alone in
    /// the single form).
    static func describe(_ screens: [GesturePipeline.Screen]) -> String {
        screens.map { s in
            (s.id.map { "\($0) " } ?? "") + "\(LineEncoder.fixed(s.size.width, decimals: 0))x\(LineEncoder.fixed(s.size.height, decimals: 0))"
        }.joined(separator: ", ")
    }

    /// Adds an open device to the pipeline again with its new treatment: its touches in flight
    /// are cancelled (their gestures end), and the next ones use the new rotation, calibration,
    /// touch limit and screen.
    private func readd(token: UInt64, _ admitted: DeviceAdmission.Admitted, changes: [String]) {
        guard var device = devices[token] else { return }
        let label = "\(device.info.sysname) (\(device.info.name))"
        let now = clock.now()
        // The clone stays: the application's touches on it end here, not with the device.
        live.cancelForwarded(device: device.id, now: now)
        clones.flush()
        live.remove(device.id, now: now)
        let old = device.id
        do { device.id = try live.add(device.description, admitted) } catch {
            devices[token] = device
            close(token: token, reason: "not usable with the reloaded configuration: \(error)")
            return
        }
        clones.move(from: old, to: device.id)
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
