import GesturedCore

/// `gestured doctor`'s verdicts (CONTRACT.md §6): facts in, checks and clone verdicts out.
public struct DoctorCheck: Equatable, Sendable {
    public enum Status: String, Equatable, Sendable { case ok, warning, problem }
    public var check: String
    public var status: Status
    public var message: String
    public var fix: String?
    public init(_ check: String, _ status: Status, _ message: String, fix: String? = nil) {
        self.check = check; self.status = status; self.message = message; self.fix = fix
    }
}

/// One pass-through clone: who reads it and whether its `cancelStyle` fits that reader.
public struct CloneVerdict: Equatable, Sendable {
    public var device: String
    public var clone: String?
    public var cancelStyle: CancelStyle
    /// The readers, seat managers left out.
    public var heldBy: [DoctorFacts.Reader]
    public var passesCancel: Bool?
    public var recommendedCancelStyle: CancelStyle?
    public var fits: Bool?
}

public struct DoctorReport: Equatable, Sendable {
    public var checks: [DoctorCheck]
    public var clones: [CloneVerdict]
    /// `--probe-cancel`'s result, when it ran.
    public var probe: CancelProbe.Result?
    /// False when any check is a problem (exit status 1).
    public var ok: Bool { !checks.contains { $0.status == .problem } }
}

extension DoctorFacts {
    static let restart = "restart the daemon: systemctl restart gestured (journalctl -u gestured says why it stopped)"

    public func report() -> DoctorReport {
        var checks = [socketCheck()]
        guard configErrors.isEmpty else {
            return DoctorReport(checks: checks + configErrors.map {
                DoctorCheck("config", .problem, $0, fix: "correct the configuration (gestured check-config FILE); the daemon does not start "
                            + "with it, and a reload keeps the last valid one")
            }, clones: [])
        }
        checks += deviceChecks()
        if needsUinput {
            checks.append(uinputPresent
                ? DoctorCheck("uinput", .ok, "/dev/uinput present (passThrough and input actions need it)")
                : DoctorCheck("uinput", .problem, "/dev/uinput is missing: passThrough rules cannot clone their panel, nor input actions make gestured input",
                              fix: "load the module: modprobe uinput; at every boot: echo uinput > /etc/modules-load.d/gestured-uinput.conf"))
        }
        var verdicts: [CloneVerdict] = []
        var guards = self.guards
        for clone in clones {
            let (verdict, check) = Self.judge(clone, asRoot: caller.uid == 0)
            verdicts.append(verdict)
            checks.append(check)
            guard let node = clone.clone else { continue }
            // Guards are matched to clones by count: nothing on a guard names its clone.
            if !guards.isEmpty {
                let alive = guards.removeFirst()
                checks.append(DoctorCheck("guard", .ok, "\(node) (\(clone.device)): a clone guard is alive (pid \(alive.pid))"))
            } else if caller.uid != 0 {
                // A guard is known by its executable (/proc/PID/exe), which only root may look at
                // in another user's process (the daemon's): not seeing one proves nothing here.
                checks.append(DoctorCheck("guard", .warning,
                    "\(node) (\(clone.device)): no clone guard seen: other users' processes are hidden from \(caller.name)",
                    fix: "run gestured doctor as root"))
            } else {
                checks.append(DoctorCheck("guard", .problem,
                    "\(node) (\(clone.device)): no clone guard: if the daemon dies with a finger down, the touch stays pressed in the application",
                    fix: Self.restart))
            }
        }
        if let bound = scanBound, !clones.isEmpty { checks.append(Self.scanCheck(bound)) }
        checks += configWarnings.map { DoctorCheck("config", .warning, $0, fix: "see docs/CONFIG.md; gestured check-config FILE lists them") }
        return DoctorReport(checks: checks, clones: verdicts)
    }

    func socketCheck() -> DoctorCheck {
        let owned = [owner.map { "owner \($0)" }, group.map { "group \($0)" }, socket.mode.map { "mode 0" + String($0 & 0o7777, radix: 8) }]
            .compactMap { $0 }.joined(separator: ", ")
        let described = owned.isEmpty ? socket.path : "\(socket.path) (\(owned))"
        switch socket.reach {
        case .connected:
            return DoctorCheck("daemon", .ok, "running; socket \(described) open to \(caller.name) (uid \(caller.uid))")
        case .missing:
            return DoctorCheck("daemon", .problem, "not running: no socket at \(socket.path)",
                               fix: "start it: systemctl start gestured (or give its socket with --socket PATH)")
        case .refused:
            return DoctorCheck("daemon", .problem, "not running: nothing listens on \(described)", fix: Self.restart)
        case .denied:
            let groupWrites = (socket.mode ?? 0) & 0o020 != 0
            let fix = if let group = socket.group, groupWrites, group != "root" {
                "join the group \(group): usermod -aG \(group) \(caller.name), then log in again"
            } else {
                "run it as root or as \(socket.owner ?? "the socket's owner")"
            }
            return DoctorCheck("daemon", .problem, "socket \(described) may not be opened by \(caller.name) (uid \(caller.uid))", fix: fix)
        case .failed(let reason):
            return DoctorCheck("daemon", .problem, "socket \(described): \(reason)", fix: Self.restart)
        }
    }

    private var owner: String? { socket.owner }
    private var group: String? { socket.group }

    func deviceChecks() -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        let touch = devices.filter { $0.used || $0.kind != .other }
        for device in touch {
            let said = "\(device.sysname) \"\(device.name)\" \(device.kind.rawValue)"
            if device.used {
                checks.append(DoctorCheck("device", .ok, "\(said): \(device.decision)"))
            } else if let rule = device.ignoredBy {
                checks.append(DoctorCheck("device", .ok, "\(said): ignored by devices[\(rule)]"))
            } else if let error = device.openError {
                checks.append(DoctorCheck("device", .warning, "\(said): cannot open: \(error)",
                                          fix: "run gestured doctor as root (it opens each device for a moment)"))
            } else {
                checks.append(DoctorCheck("device", .ok, "\(said): \(device.decision)"))
            }
        }
        if let error = udevError {
            checks.append(DoctorCheck("device", .problem, "udev could not list the input devices: \(error)",
                                      fix: "check that systemd-udevd runs and /run/udev is readable"))
        } else if !devices.contains(where: \.used) {
            checks.append(DoctorCheck("device", .problem, "no touch device is used",
                                      fix: "connect the panel, or add a device rule that matches it (gestured devices lists what udev sees)"))
        }
        return checks
    }

    /// The verdict on one clone and its check.
    /// - Parameter asRoot: whether the caller could see every process's open files.
    static func judge(_ clone: Clone, asRoot: Bool = true) -> (CloneVerdict, DoctorCheck) {
        let readers = clone.readers.filter { !$0.seatManager }
        var verdict = CloneVerdict(device: clone.device, clone: clone.clone, cancelStyle: clone.cancelStyle, heldBy: readers)
        let style = "cancelStyle \"\(clone.cancelStyle.rawValue)\" (devices[\(clone.rule)])"
        guard let node = clone.clone else {
            return (verdict, DoctorCheck("clone", .problem, "\(clone.device): no clone (the daemon makes it when it runs and /dev/uinput opens)",
                                         fix: restart))
        }
        let said = "\(node) (clone of \(clone.device))"
        guard !readers.isEmpty else {
            return (verdict, DoctorCheck("clone", .warning, "\(said): no program reads it, so the application gets no touches",
                                         fix: asRoot ? "start the compositor (it reads the clone as a touchscreen)"
                                                     : "run gestured doctor as root: other users' open files are hidden from it"))
        }
        let names = readers.map(describe).joined(separator: ", ")
        let entries = readers.compactMap { reader in
            reader.package.flatMap { package in reader.version.flatMap { CancelPassing.entry(package: package, version: $0) } }
        }
        guard entries.count == readers.count, let first = entries.first else {
            return (verdict, DoctorCheck("clone", .warning,
                "\(said): read by \(names), not in the measured table: whether it passes wl_touch.cancel is unknown; \(style)",
                fix: "check with wev: a claimed touch must end with cancel or up (docs/KIOSK.md); \"lift\" is the safe choice"))
        }
        verdict.passesCancel = entries.allSatisfy(\.passesCancel)
        verdict.recommendedCancelStyle = entries.allSatisfy { $0.recommended == first.recommended } ? first.recommended : .lift
        let fits = entries.allSatisfy { $0.fitting.contains(clone.cancelStyle) }
        verdict.fits = fits
        let passes = verdict.passesCancel == true ? "passes wl_touch.cancel on" : "does not pass wl_touch.cancel on"
        let measured = entries.map(\.measurement).joined(separator: "; ")
        if fits {
            return (verdict, DoctorCheck("clone", .ok, "\(said): read by \(names), which \(passes); \(style) fits (measured: \(measured))"))
        }
        let recommended = verdict.recommendedCancelStyle?.rawValue ?? CancelStyle.lift.rawValue
        return (verdict, DoctorCheck("clone", .problem,
            "\(said): read by \(names), which \(passes); \(style) does not fit: claimed touches stay pressed in the application (measured: \(measured))",
            fix: "set cancelStyle: \"\(recommended)\" in devices[\(clone.rule)], then systemctl reload gestured"))
    }

    /// The warning that the scan of /proc stopped at a bound: a reader or a guard may be missing
    /// from the checks above.
    static func scanCheck(_ bound: ScanBound) -> DoctorCheck {
        let reached = switch bound {
        case .processes(let limit): "looked at the first \(limit) processes only"
        case .descriptors(let pid, let limit): "looked at the first \(limit) open files of pid \(pid) only"
        case .allDescriptors(let limit): "stopped after \(limit) open files in all"
        }
        return DoctorCheck("processes", .warning, "the scan of /proc \(reached): a clone's reader or guard past that bound was not seen",
                           fix: "see which processes hold many files (ls /proc/*/fd | wc -l) and end those that should not")
    }

    static func describe(_ reader: Reader) -> String {
        var text = "\(reader.command) (pid \(reader.pid)"
        if let package = reader.package { text += ", \(package) \(reader.version ?? "?")" }
        return text + ")"
    }
}
