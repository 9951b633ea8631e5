import GesturedCore

/// `gestured doctor`'s two outputs: plain lines (a check a line, each fix on the line after its
/// check) and the JSON object of CONTRACT.md §6.
extension DoctorReport {
    /// `ok       daemon: running; …`, `problem  clone: …` then `         fix: …`, and a summary.
    ///
    /// Messages carry what others chose (device names, a reader's `comm`, a compositor's error
    /// text through the probe's surface): each is escaped (`LogText`), so none can end a line,
    /// forge a `problem` line or drive the terminal. The JSON escapes them as JSON.
    public var text: String {
        var out = ""
        for check in checks {
            let status = check.status.rawValue
            out += status + String(repeating: " ", count: 9 - status.count)
                + LogText.escaped("\(check.check): \(check.message)") + "\n"
            if let fix = check.fix, check.status != .ok { out += "         fix: " + LogText.escaped(fix) + "\n" }
        }
        let problems = checks.filter { $0.status == .problem }.count
        let warnings = checks.filter { $0.status == .warning }.count
        out += problems == 0 ? "no problems" : (problems == 1 ? "1 problem" : "\(problems) problems")
        out += warnings == 0 ? "\n" : (warnings == 1 ? ", 1 warning\n" : ", \(warnings) warnings\n")
        return out
    }

    /// One JSON object on one line.
    public var json: String {
        let checkObjects = checks.map { check in
            "{\"check\":\(Self.string(check.check)),\"status\":\"\(check.status.rawValue)\",\"message\":\(Self.string(check.message)),"
                + "\"fix\":\(check.fix.map(Self.string) ?? "null")}"
        }
        let cloneObjects = clones.map { clone in
            let readers = clone.heldBy.map { reader in
                "{\"pid\":\(reader.pid),\"command\":\(Self.string(reader.command)),"
                    + "\"package\":\(reader.package.map(Self.string) ?? "null"),\"version\":\(reader.version.map(Self.string) ?? "null")}"
            }
            return "{\"device\":\(Self.string(clone.device)),\"clone\":\(clone.clone.map(Self.string) ?? "null"),"
                + "\"cancelStyle\":\"\(clone.cancelStyle.rawValue)\",\"heldBy\":[\(readers.joined(separator: ","))],"
                + "\"passesCancel\":\(clone.passesCancel.map { $0 ? "true" : "false" } ?? "null"),"
                + "\"recommendedCancelStyle\":\(clone.recommendedCancelStyle.map { "\"\($0.rawValue)\"" } ?? "null"),"
                + "\"fits\":\(clone.fits.map { $0 ? "true" : "false" } ?? "null")}"
        }
        let probeObject = probe.map { ",\"probe\":" + Self.json($0) } ?? ""
        return "{\"ok\":\(ok ? "true" : "false"),\"checks\":[\(checkObjects.joined(separator: ","))],"
            + "\"clones\":[\(cloneObjects.joined(separator: ","))]\(probeObject)}\n"
    }

    /// `{"results":[{"cancelStyle":"lift","received":"up"},…],"passesCancel":…,
    /// "recommendedCancelStyle":…,"failure":…}`; `received` is null when the surface never got the touch.
    static func json(_ probe: CancelProbe.Result) -> String {
        let results = probe.styles.map { result in
            "{\"cancelStyle\":\"\(result.style.rawValue)\",\"received\":\(result.received.map { "\"\($0.rawValue)\"" } ?? "null")}"
        }
        return "{\"results\":[\(results.joined(separator: ","))],"
            + "\"passesCancel\":\(probe.passesCancel.map { $0 ? "true" : "false" } ?? "null"),"
            + "\"recommendedCancelStyle\":\(probe.recommended.map { "\"\($0.rawValue)\"" } ?? "null"),"
            + "\"failure\":\(probe.failure.map(Self.string) ?? "null")}"
    }

    static func string(_ text: String) -> String { LineEncoder.jsonString(text) }
}
