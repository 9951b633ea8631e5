/// The fields of a kiosk line (`wake`, `lock`, `unlock`, `idle`, `active`) as environment
/// variables, for the command `gestured listen --exec` runs (docs/KIOSK.md, "Idle"):
/// `KIOSK_EVENT` is the line's kind, each key becomes `KIOSK_` and the key in upper case
/// (`seconds` → `KIOSK_SECONDS`), with its value unquoted, and `KIOSK_LINE` holds the whole line.
/// A gesture line's variables start with `GESTURE_` instead (`GestureEnvironment`), so one
/// script tells them apart.
public enum KioskEnvironment {
    /// The kinds of kiosk lines.
    public static let kinds: Set<String> = ["wake", "lock", "unlock", "idle", "active"]

    /// The variables of a text kiosk line, or nil when the line is not one.
    public static func variables(ofTextLine line: some StringProtocol) -> [(name: String, value: String)]? {
        var text = Substring(line)
        if text.hasSuffix("\n") { text = text.dropLast() }
        guard let tokens = GestureEnvironment.tokenize(text), let first = tokens.first, first.key == nil,
              kinds.contains(first.value) else { return nil }
        var result = [("KIOSK_EVENT", first.value)]
        for token in tokens.dropFirst() {
            guard let key = token.key else { return nil }
            result.append(("KIOSK_" + String(GestureEnvironment.name(of: key).dropFirst("GESTURE_".count)), token.value))
        }
        result.append(("KIOSK_LINE", String(text)))
        return result
    }
}
