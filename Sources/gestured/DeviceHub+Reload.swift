import GesturedConfig
import GesturedCore
import GesturedIO

/// How the configuration treats an open device: what its rule sets and its screen. Reload
/// re-adds a device to the pipeline (cancelling its touches in flight) only when this changes.
struct DeviceTreatment: Equatable {
    var rotation: Rotation
    /// The effective matrix: the rule's, else udev's, else nil (identity).
    var calibration: [Double]?
    var maximumTouches: Int?
    var grab: Bool
    /// Whether it forwards to a clone (false when the rule asked but the clone could not be made).
    var passThrough: Bool
    var screenID: String?
    var screenSize: Size

    init(rule: DeviceRule?, udevCalibration: [Double]?, screen: GesturePipeline.Screen) {
        rotation = rule?.rotation ?? .none
        calibration = rule?.calibration ?? udevCalibration
        maximumTouches = rule?.maximumTouches
        grab = rule?.grab ?? false
        passThrough = rule?.passThrough ?? false
        screenID = screen.id
        screenSize = screen.size
    }

    /// What differs from `old`, as the log says it ("rotation 0 → 90").
    func changes(from old: DeviceTreatment) -> [String] {
        var changes: [String] = []
        func size(_ s: Size) -> String { "\(LineEncoder.fixed(s.width, decimals: 0))x\(LineEncoder.fixed(s.height, decimals: 0))" }
        if rotation != old.rotation { changes.append("rotation \(old.rotation.rawValue) → \(rotation.rawValue)") }
        if calibration != old.calibration { changes.append("calibration changed") }
        if maximumTouches != old.maximumTouches {
            changes.append("maximumTouches \(old.maximumTouches.map(String.init) ?? "none") → \(maximumTouches.map(String.init) ?? "none")")
        }
        if grab != old.grab { changes.append(grab ? "grabbed" : "grab released") }
        if passThrough != old.passThrough { changes.append(passThrough ? "passThrough on" : "passThrough off") }
        if screenID != old.screenID { changes.append("screen \(old.screenID ?? "-") → \(screenID ?? "-")") }
        if screenSize != old.screenSize { changes.append("screen size \(size(old.screenSize)) → \(size(screenSize))") }
        return changes
    }
}

extension DeviceHub {
    /// Applies a reloaded configuration whole: the screens are rebuilt, every open device's rules
    /// are evaluated again (a device now ignored, or taken by no screen, is let go; one whose
    /// rotation, calibration, touch limit, grab or screen changed is added again, which cancels
    /// its touches in flight; one whose passThrough changed is closed and opened again, with or
    /// without its clone), and devices present but not open are admitted anew.
    ///
    /// Throws, changing nothing, when the new screens' engines cannot be built.
    func reload(_ fresh: Configuration) throws(GestureEngine.BuildError) {
        enum Plan {
            case keep(screen: Int)
            case readd(DeviceRule?, [Double]?, screen: Int, changes: [String])
            /// passThrough changed: the clone is made (or goes) with the device.
            case reopen(changes: [String])
            case release(String)
        }
        var plans: [(UInt64, Plan)] = []
        for token in devices.keys.sorted() {
            let device = devices[token]!
            let decision = DeviceSelection.decide(device.description, properties: device.info.properties, rules: fresh.devices)
            guard case .use(let index) = decision else { plans.append((token, .release("\(decision)"))); continue }
            guard let screen = fresh.screenIndex(of: device.description, properties: device.info.properties) else {
                plans.append((token, .release("not used (no screen takes it)"))); continue
            }
            let rule = index.map { fresh.devices[$0] }
            var udevCalibration: [Double]?
            if rule?.calibration == nil, let text = device.info.properties["LIBINPUT_CALIBRATION_MATRIX"] {
                udevCalibration = CalibrationMatrix.parse(text)
            }
            plans.append((token, .readd(rule, udevCalibration, screen: screen, changes: [])))
        }
        // Each screen's size: its configured one, else that of the screen of the same id before,
        // else its first device's.
        let specs = fresh.screenSpecs
        var sizes: [Size] = []
        for (index, spec) in specs.enumerated() {
            if let size = spec.size ?? live.pipeline.screens.first(where: { $0.id == spec.id })?.size {
                sizes.append(size); continue
            }
            let first = plans.first { if case .readd(_, _, let s, _) = $0.1 { s == index } else { false } }
            let rule: DeviceRule? = if case .readd(let r, _, _, _)? = first?.1 { r } else { nil }
            sizes.append(GesturePipeline.size(configured: nil, firstDevice: first.map { devices[$0.0]!.description },
                                              rotation: rule?.rotation ?? .none))
        }
        let before = Self.describe(live.pipeline.screens)
        // A new cancelStyle needs no re-add: it applies from here on, to the reload's own cancels too.
        for case (let token, .readd(let rule, _, _, _)) in plans { setCancelStyle(rule?.cancelStyle ?? .default, token: token) }
        live.output.removeAll(keepingCapacity: true)
        try live.pipeline.reload(configuration: fresh, sizes: sizes, now: MonotonicClock.now(), into: &live.output)
        writeForwarded()   // touches whose view's rules changed, cancelled in the application
        let after = Self.describe(live.pipeline.screens)
        Log.info(before == after ? "screens rebuilt: \(after); running gestures cancelled"
                                 : "screens rebuilt: \(before) → \(after); running gestures cancelled")
        clients.publish()
        configuration = fresh

        for i in plans.indices {
            guard case .readd(let rule, let udev, let screen, _) = plans[i].1 else { continue }
            let old = devices[plans[i].0]!.treatment
            let new = DeviceTreatment(rule: rule, udevCalibration: udev, screen: live.pipeline.screens[screen])
            let changes = new.changes(from: old)
            plans[i].1 = changes.isEmpty ? .keep(screen: screen)
                : new.passThrough != old.passThrough ? .reopen(changes: changes)
                : .readd(rule, udev, screen: screen, changes: changes)
        }
        for (token, plan) in plans {
            switch plan {
            case .release(let reason):
                close(token: token, reason: "\(reason) by the reloaded configuration")
            case .keep(let screen):
                live.pipeline.setScreen(screen, of: devices[token]!.id)
            case .reopen(let changes):
                close(token: token, reason: "reopened for the reloaded configuration (\(changes.joined(separator: ", ")))")
            case .readd(let rule, let udev, let screen, let changes):
                readd(token: token, rule: rule, udevCalibration: udev, screen: screen, changes: changes)
            }
        }
        admitNew()
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
    private func readd(token: UInt64, rule: DeviceRule?, udevCalibration: [Double]?, screen: Int, changes: [String]) {
        guard var device = devices[token] else { return }
        let label = "\(device.info.sysname) (\(device.info.name))"
        let now = MonotonicClock.now()
        // The clone stays: the application's touches on it end here, not with the device.
        live.pipeline.cancelForwarded(device: device.id, now: now)
        writeForwarded()
        live.output.removeAll(keepingCapacity: true)
        live.pipeline.removeDevice(device.id, now: now, into: &live.output)
        clients.publish()
        do {
            device.id = try live.pipeline.addDevice(device.description, rule: rule, fallbackCalibration: udevCalibration,
                                                    screen: screen)
        } catch {
            devices[token] = device
            close(token: token, reason: "not usable with the reloaded configuration: \(error)")
            return
        }
        let new = DeviceTreatment(rule: rule, udevCalibration: udevCalibration, screen: live.pipeline.screens[screen])
        if new.grab != device.treatment.grab {
            do { try device.evdev.grab(new.grab) } catch {
                Log.warning("\(label): \(new.grab ? "exclusive grab" : "releasing the grab") failed: \(error)")
            }
        }
        device.treatment = new
        devices[token] = device
        Log.info("\(label): reloaded: \(changes.joined(separator: ", ")); its touches in flight were cancelled")
    }

    /// Opens the devices udev lists that are not open and that the configuration now admits.
    private func admitNew() {
        let open = Set(devices.values.map(\.info.syspath))
        let infos: [InputDeviceInfo]
        do { infos = try UdevEnumerator.inputDevices() } catch {
            Log.warning("udev enumeration failed: \(error); devices newly matched are not opened")
            return
        }
        for info in infos where !open.contains(info.syspath) {
            if let candidate = DeviceCandidate.admit(info, configuration: configuration) { self.open(candidate) }
        }
    }
}
