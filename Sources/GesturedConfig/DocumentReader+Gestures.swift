import GesturedCore

/// The keys of a gesture object: the common ones, and per type the field names of that type's
/// parameters struct (a test checks these lists against the structs by reflection).
enum GestureKeys {
    static let common = ["id", "type", "requireToFail", "recognizeSimultaneouslyWith", "action",
                         "cancelsTouchesInView", "delaysTouchesBegan", "delaysTouchesEnded"]

    /// In the order of `GestureKind`'s cases, which is also the order error messages list them.
    static let parameters: [(type: String, keys: [String])] = [
        ("tap", ["numberOfTapsRequired", "numberOfTouchesRequired", "maximumTapInterval", "maximumTapDistance",
                 "movementSlop"]),
        ("swipe", ["direction", "numberOfTouchesRequired", "minimumDistance", "minimumVelocity", "maximumDuration",
                   "angleTolerance"]),
        ("pan", ["minimumNumberOfTouches", "maximumNumberOfTouches", "slop"]),
        ("pinch", ["slop"]),
        ("rotation", ["slop"]),
        ("longPress", ["minimumPressDuration", "allowableMovement", "numberOfTouchesRequired", "numberOfTapsRequired",
                       "maximumTapInterval"]),
        ("screenEdgePan", ["edges", "edgeZoneWidth", "slop"]),
        ("stroke", ["templates", "minimumScore", "numberOfTouchesRequired", "orientationSensitive", "rotationTolerance"]),
    ]

    static var typeNames: [String] { parameters.map(\.type) }

    static func parameterKeys(of type: String) -> [String]? {
        parameters.first { $0.type == type }?.keys
    }
}

extension DocumentReader {
    /// Reads one gesture and records its id and references for the cross-checks.
    mutating func gesture(_ node: Node, references: inout ReferenceTable) -> GestureSpec? {
        guard let members = object(node) else { return nil }
        var typeName: String?
        if let typeNode = members["type"], let type = string(typeNode) {
            if GestureKeys.parameterKeys(of: type) != nil {
                typeName = type
            } else if let suggestion = closestMatch(to: type, among: GestureKeys.typeNames) {
                report("unknown gesture type \"\(type)\"; did you mean \"\(suggestion)\"?", at: typeNode.path)
            } else {
                report("unknown gesture type \"\(type)\"; expected one of \(GestureKeys.typeNames.joined(separator: ", "))",
                       at: typeNode.path)
            }
        }
        if let typeName {
            checkKeys(members, of: node, known: GestureKeys.common + GestureKeys.parameterKeys(of: typeName)!,
                      required: ["id", "type"]) { key in
                let owners = GestureKeys.parameters.filter { $0.keys.contains(key) }.map(\.type)
                return owners.isEmpty ? nil : " for type \"\(typeName)\" (only \(listing(owners)) \(owners.count == 1 ? "takes" : "take") it)"
            }
        } else {
            // Without a valid type the parameters cannot be judged; still catch keys no type has.
            checkKeys(members, of: node, known: GestureKeys.common + GestureKeys.parameters.flatMap(\.keys),
                      required: ["id", "type"])
        }

        let idNode = members["id"]
        let id = identifier(idNode)
        let requireToFail = idList(members["requireToFail"])
        let simultaneous = idList(members["recognizeSimultaneouslyWith"])
        if let id, let idNode {
            references.addGesture(.init(id: id, path: idNode.path, offset: valueOffset(of: idNode.path)),
                                  requireToFail: requireToFail, simultaneous: simultaneous)
        }
        let action = members["action"].flatMap { $0.value == .null ? nil : gestureAction($0) }
        var delivery = TouchDelivery()
        if let flag = bool(members["cancelsTouchesInView"]) { delivery.cancelsTouchesInView = flag }
        if let flag = bool(members["delaysTouchesBegan"]) { delivery.delaysTouchesBegan = flag }
        if let flag = bool(members["delaysTouchesEnded"]) { delivery.delaysTouchesEnded = flag }
        guard let typeName, let kind = kind(typeName, members, of: node) else { return nil }
        if let input = action?.input, case .scroll = input.kind, !kind.hasTranslation {
            report("scroll needs a gesture with a translation (pan or screenEdgePan), not \(typeName)",
                   at: node.member("action") + ".input.scroll")
        }
        return GestureSpec(id: id ?? "", kind: kind, requireToFail: requireToFail.map(\.id),
                           recognizeSimultaneouslyWith: simultaneous.map(\.id), action: action, delivery: delivery)
    }

    /// An array of gesture ids, each with its key path for the cross-checks.
    private mutating func idList(_ node: Node?) -> [ReferenceTable.Reference] {
        guard let node, let elements = array(node) else { return [] }
        var references: [ReferenceTable.Reference] = []
        for element in elements {
            if let id = identifier(element) { references.append(.init(id: id, path: element.path)) }
        }
        return references
    }

    /// The parameters of a gesture of a known type; every field keeps its default when absent.
    private mutating func kind(_ type: String, _ m: [String: Node], of node: Node) -> GestureKind? {
        switch type {
        case "tap":
            var p = TapParameters()
            if let v = integer(m["numberOfTapsRequired"], minimum: 1) { p.numberOfTapsRequired = v }
            if let v = integer(m["numberOfTouchesRequired"], minimum: 1) { p.numberOfTouchesRequired = v }
            if let v = duration(m["maximumTapInterval"]) { p.maximumTapInterval = v }
            if let v = distance(m["maximumTapDistance"]) { p.maximumTapDistance = v }
            if let v = distance(m["movementSlop"]) { p.movementSlop = v }
            return .tap(p)
        case "swipe":
            var p = SwipeParameters()
            if let v = choices(m["direction"], of: SwipeDirection.self, noun: "direction") { p.direction = v }
            if let v = integer(m["numberOfTouchesRequired"], minimum: 1) { p.numberOfTouchesRequired = v }
            if let v = distance(m["minimumDistance"]) { p.minimumDistance = v }
            if let v = speed(m["minimumVelocity"]) { p.minimumVelocity = v }
            if let v = duration(m["maximumDuration"]) { p.maximumDuration = v }
            // Beyond π/4 the four directions' sectors would overlap.
            if let v = angle(m["angleTolerance"], maximum: Double.pi / 4, maximumText: "π/4 (0.785398)") {
                p.angleTolerance = v
            }
            return .swipe(p)
        case "pan":
            var p = PanParameters()
            if let v = integer(m["minimumNumberOfTouches"], minimum: 1) { p.minimumNumberOfTouches = v }
            if let maximum = m["maximumNumberOfTouches"], maximum.value != .null, let v = integer(maximum, minimum: 1) {
                if v < p.minimumNumberOfTouches {
                    report("must be at least minimumNumberOfTouches (\(p.minimumNumberOfTouches)), found \(v)",
                           at: maximum.path)
                } else {
                    p.maximumNumberOfTouches = v
                }
            }
            if let v = distance(m["slop"]) { p.slop = v }
            return .pan(p)
        case "pinch":
            var p = PinchParameters()
            if let v = distance(m["slop"]) { p.slop = v }
            return .pinch(p)
        case "rotation":
            var p = RotationParameters()
            // Radians; a turn of π or more could never be told from the opposite turn.
            if let v = angle(m["slop"], maximum: Double.pi) { p.slop = v }
            return .rotation(p)
        case "longPress":
            var p = LongPressParameters()
            if let v = duration(m["minimumPressDuration"]) { p.minimumPressDuration = v }
            if let v = distance(m["allowableMovement"]) { p.allowableMovement = v }
            if let v = integer(m["numberOfTouchesRequired"], minimum: 1) { p.numberOfTouchesRequired = v }
            if let v = integer(m["numberOfTapsRequired"], minimum: 0) { p.numberOfTapsRequired = v }
            if let v = duration(m["maximumTapInterval"]) { p.maximumTapInterval = v }
            return .longPress(p)
        case "screenEdgePan":
            var p = ScreenEdgePanParameters()
            // Required: with no edge the recognizer could never begin, a silent dead gesture.
            if m["edges"] == nil { report("missing required key \"edges\"", at: node.path) }
            if let v = choices(m["edges"], of: ScreenEdge.self, noun: "edge") { p.edges = v }
            if let v = distance(m["edgeZoneWidth"]) { p.edgeZoneWidth = v }
            if let v = distance(m["slop"]) { p.slop = v }
            return .screenEdgePan(p)
        case "stroke":
            var p = StrokeParameters()
            // Required: with no template the recognizer could never recognize.
            if let v = strokeTemplates(m["templates"], of: node) { p.templates = v }
            if let v = number(m["minimumScore"], minimum: 0, maximum: 1) { p.minimumScore = v }
            if let v = integer(m["numberOfTouchesRequired"], minimum: 1) { p.numberOfTouchesRequired = v }
            if let v = bool(m["orientationSensitive"]) { p.orientationSensitive = v }
            // Radians; beyond π every turn is allowed (say orientationSensitive: false instead).
            if let v = angle(m["rotationTolerance"], maximum: Double.pi, maximumText: "π (3.141593)") {
                p.rotationTolerance = v
            }
            return .stroke(p)
        default:
            return nil
        }
    }

    /// A non-empty set of named values: an array of strings, or a single string.
    private mutating func choices<T: RawRepresentable & CaseIterable & Hashable>(
        _ node: Node?, of type: T.Type, noun: String
    ) -> Set<T>? where T.RawValue == String {
        guard let node else { return nil }
        let elements: [Node]
        if case .string = node.value {
            elements = [node]
        } else if case .array = node.value {
            elements = array(node) ?? []
            guard !elements.isEmpty else { report("must not be empty", at: node.path); return nil }
        } else {
            report("expected an array of strings, found \(node.value.kindDescription)", at: node.path)
            return nil
        }
        let names = T.allCases.map(\.rawValue)
        var result = Set<T>()
        var valid = true
        for element in elements {
            guard let name = string(element) else { valid = false; continue }
            if let value = T(rawValue: name) {
                result.insert(value)
            } else {
                valid = false
                let hint = closestMatch(to: name, among: names).map { "did you mean \"\($0)\"?" }
                    ?? "expected one of \(names.joined(separator: ", "))"
                report("unknown \(noun) \"\(name)\"; \(hint)", at: element.path)
            }
        }
        return valid ? result : nil
    }
}

/// "a", "a and b", "a, b and c".
func listing(_ words: [String]) -> String {
    guard words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " and " + words[words.count - 1]
}
