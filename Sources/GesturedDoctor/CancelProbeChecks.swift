import GesturedCore

/// The checks `gestured doctor --probe-cancel` adds: what the probe's surface received per
/// `cancelStyle`, and for each pass-through rule whether its `cancelStyle` fits that measurement
/// (a style that leaves the probe's touch pressed is a problem, exit 1, as in `judge`).
extension DoctorFacts {
    /// `report()` with the probe's result: its checks after the others, and `probe` set.
    /// - Parameter display: the compositor probed (`WAYLAND_DISPLAY`), for the messages.
    public func report(probe: CancelProbe.Result, display: String) -> DoctorReport {
        var report = report()
        report.probe = probe
        report.checks += Self.probeChecks(probe, display: display, rules: clones.map { ($0.rule, $0.cancelStyle) })
        return report
    }

    static let stuckFix = "if touches no longer reach the application now (weston 10 sends every touch to the surface of "
        + "the first touch still down, and the probe's stays down), restart the compositor"

    static func probeChecks(_ probe: CancelProbe.Result, display: String, rules: [(rule: Int, style: CancelStyle)]) -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        let on = "the compositor at \(display)"
        for result in probe.styles {
            let style = "cancelStyle \"\(result.style.rawValue)\""
            switch result.received {
            case .cancel?: checks.append(DoctorCheck("probe", .ok, "\(style): the surface on \(on) received wl_touch.cancel"))
            case .up?: checks.append(DoctorCheck("probe", .ok, "\(style): the surface on \(on) received wl_touch.up"))
            case .nothing?:
                // weston 10 sends every touch to the surface of the first touch still down; with the
                // probe's surface gone, touches then reach nobody until its last touchscreen goes
                // (the panel stays, grabbed by the daemon): only a restart of weston ends it.
                checks.append(DoctorCheck("probe", .warning, "\(style): the surface on \(on) received nothing: the touch stays pressed",
                                          fix: Self.stuckFix))
            case nil:
                // The press went to whatever covers the surface (the kiosk's application): the
                // probe lifted it at once and stopped (CancelProbe.Session).
                checks.append(DoctorCheck("probe", .problem, "\(style): the surface on \(on) never received the probe's touch: "
                                          + "it was lifted at once and the probe stopped, so no more presses land on what covers the surface",
                                          fix: "nothing may cover the surface while it runs; the compositor must take new touchscreens"))
            }
        }
        if let failure = probe.failure {
            checks.append(DoctorCheck("probe", .problem, "the probe did not finish: \(failure)",
                                      fix: "run it as root in the kiosk's session: WAYLAND_DISPLAY and XDG_RUNTIME_DIR of the compositor, "
                                          + "/dev/uinput present (modprobe uinput)"))
        }
        let recommended = probe.recommended
        for (rule, style) in rules {
            let said = "devices[\(rule)] cancelStyle \"\(style.rawValue)\""
            switch probe.fits(style) {
            case false?:
                checks.append(DoctorCheck("probe", .problem, "\(said) does not fit \(on): the probe's touch stayed pressed",
                                          fix: recommended.map { "set cancelStyle: \"\($0.rawValue)\" in devices[\(rule)], then systemctl reload gestured" }
                                              ?? "neither style ends a touch on this compositor: report it with the probe's output"))
            case true?:
                if style == .lift && recommended == .palm {
                    checks.append(DoctorCheck("probe", .warning, "\(said) fits \(on), which passes wl_touch.cancel on: "
                                              + "a claimed touch ends as a click where a cancel was possible",
                                              fix: "set cancelStyle: \"palm\" in devices[\(rule)], then systemctl reload gestured"))
                } else {
                    checks.append(DoctorCheck("probe", .ok, "\(said) fits \(on)"))
                }
            case nil: break
            }
        }
        if rules.isEmpty, let recommended {
            checks.append(DoctorCheck("probe", .ok, "cancelStyle \"\(recommended.rawValue)\" fits \(on) best"))
        }
        return checks
    }
}
