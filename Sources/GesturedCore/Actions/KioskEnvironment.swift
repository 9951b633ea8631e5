/// The fields of a kiosk line (`wake`, `lock`, `unlock`, `idle`, `active`) as environment
/// variables, for the command `gestured listen --exec` runs (docs/KIOSK.md, "Idle"):
/// `KIOSK_EVENT` is the line's kind, each key becomes `KIOSK_` and the key in upper case
/// (`seconds` → `KIOSK_SECONDS`), with its value unquoted, and `KIOSK_LINE` holds the whole line.
/// A gesture line's variables start with `GESTURE_` instead (`GestureEnvironment`), so one
/// script tells them apart.
public enum KioskEnvironment {
    /// The kinds of kiosk lines.
    public static let kinds: Set<String> = ["wake", "lock", "unlock", "idle", "active"]

    /// The variables of a kiosk event whose line has `seq` (the wake action's), as
    /// `variables(ofTextLine:)` gives them for that line, but made from the event's fields: the
    /// line is encoded only for `KIOSK_LINE`, never parsed back.
    public static func variables(of event: KioskEvent, seq: UInt64) -> [(name: String, value: String)] {
        var result = [("KIOSK_EVENT", event.name)]
        let screen = event.screen.map { [("KIOSK_SCREEN", $0)] } ?? []
        switch event.kind {
        case .wake(let device, let location):
            // The wake's screen follows its device (`LineEncoder.kiosk`).
            result += [("KIOSK_DEVICE", device.description)] + screen
                + [("KIOSK_X", LineEncoder.fixed(location.x, decimals: 2)), ("KIOSK_Y", LineEncoder.fixed(location.y, decimals: 2))]
        case .lock(let seconds), .idle(let seconds):
            result += [("KIOSK_SECONDS", String(seconds))] + screen
        case .unlock, .active:
            result += screen
        }
        var line = LineEncoder.output(.kiosk(event), seq: seq, format: .text)
        if line.hasSuffix("\n") { line.removeLast() }
        return result + [("KIOSK_TIME", event.time.description), ("KIOSK_SEQ", String(seq)), ("KIOSK_LINE", line)]
    }

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
