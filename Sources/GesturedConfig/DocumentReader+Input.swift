import GesturedCore

extension ConfigKeys {
    static let input = ["key", "click", "at", "scroll", "direction", "pointerAfter", "pointsPerDetent"]
}

extension DocumentReader {
    /// `input: { key: "alt+Home" }`, `{ click: "right", at: [x, y], pointerAfter: "aside" }` or
    /// `{ scroll: "vertical", direction: "natural", pointsPerDetent: 50 }`: exactly one of
    /// `key`, `click` and `scroll`.
    mutating func inputAction(_ node: Node) -> InputAction? {
        guard let members = object(node) else { return nil }
        if let text = members["text"] {
            // Said plainly: the nearest key would otherwise be suggested, as if it were a typo.
            report("text cannot be sent: a virtual keyboard sends key codes, and the characters they type "
                   + "depend on the compositor's keyboard layout; send keys instead (key: \"ctrl+v\")", at: text.path)
        }
        checkKeys(members.filter { $0.key != "text" }, of: node, known: ConfigKeys.input)
        let chosen = ["key", "click", "scroll"].filter { members[$0] != nil }
        guard chosen.count == 1 else {
            if chosen.isEmpty, members["text"] == nil {
                report("expected one of key, click or scroll", at: node)
            } else if chosen.count > 1 {
                report("takes one of key, click or scroll, found \(listing(chosen))", at: node)
            }
            return nil
        }
        for option in ["at", "pointerAfter"] where chosen[0] == "key" && members[option] != nil {
            report("applies to click and scroll only", at: members[option]!.path)
        }
        for option in ["direction", "pointsPerDetent"] where chosen[0] != "scroll" && members[option] != nil {
            report("applies to scroll only", at: members[option]!.path)
        }
        if chosen[0] == "scroll", let at = members["at"] { report("applies to click only", at: at.path) }
        var pointerAfter = PointerAfter.stay
        if let v = named(members["pointerAfter"], PointerAfter.self) { pointerAfter = v }

        switch chosen[0] {
        case "key":
            guard let keyNode = members["key"], let codes = chord(keyNode) else { return nil }
            return InputAction(.key(codes))
        case "click":
            guard let button = named(members["click"], PointerButton.self) else { return nil }
            var at: Point?
            if let atNode = members["at"] { guard let p = point(atNode) else { return nil }; at = p }
            return InputAction(.click(button, at: at), pointerAfter: pointerAfter)
        default:
            guard let axes = named(members["scroll"], ScrollAxes.self) else { return nil }
            let direction = named(members["direction"], ScrollDirection.self) ?? .natural
            var perDetent = InputAction.defaultPointsPerDetent
            if let node = members["pointsPerDetent"], let v = number(node, minimum: 1, maximum: 10_000) { perDetent = v }
            return InputAction(.scroll(axes, direction), pointerAfter: pointerAfter, pointsPerDetent: perDetent)
        }
    }

    /// `"ctrl+shift+t"`: key names (`KeyName`) joined by `+`, each at most once.
    private mutating func chord(_ node: Node) -> [UInt16]? {
        guard let text = string(node) else { return nil }
        let names = text.split(separator: "+", omittingEmptySubsequences: false).map { String($0.filter { !$0.isWhitespace }) }
        var codes: [UInt16] = []
        for name in names {
            guard !name.isEmpty else { report("a key name is missing in \"\(text)\"", at: node); return nil }
            guard let code = KeyName.code(of: name) else {
                var message = "unknown key \"\(name)\""
                if let near = closestMatch(to: name, among: KeyName.allNames) { message += "; did you mean \"\(near)\"?" }
                report(message + " (key names are linux/input-event-codes.h's KEY_* names)", at: node)
                return nil
            }
            guard !codes.contains(code) else { report("key \"\(name)\" appears twice in \"\(text)\"", at: node); return nil }
            codes.append(code)
        }
        return codes
    }

    /// One of an enumeration's names.
    private mutating func named<T: RawRepresentable & CaseIterable>(_ node: Node?, _ type: T.Type) -> T?
        where T.RawValue == String {
        guard let node, let text = string(node) else { return nil }
        if let value = T(rawValue: text) { return value }
        report(notOneOf(T.allCases.map(\.rawValue), found: text), at: node)
        return nil
    }
}
