import GesturedCore

/// The keys of each object of the configuration (CONTRACT.md §2, docs/CONFIG.md).
enum ConfigKeys {
    static let root = ["screen", "devices", "views", "layouts", "control", "permissions", "socket", "screens", "idle",
                       "power", "lock", "mqtt"]
    static let screenEntry = ["id", "width", "height", "devices", "views", "layouts", "idle", "power", "lock"]
    static let screenDevice = ["match"]
    static let screen = ["width", "height"]
    static let device = ["match", "rotation", "calibration", "grab", "ignore", "add", "maximumTouches", "passThrough",
                         "cancelStyle"]
    static let match = ["name", "sysname", "vendor", "product", "type", "properties"]
    static let view = ["id", "frame", "isUserInteractionEnabled", "isHidden", "alpha", "hitTestInsets",
                       "hitShape", "gestures", "subviews", "forwardsTouches"]
    static let frame = ["x", "y", "width", "height"]
    static let insets = ["top", "left", "bottom", "right"]
    static let hitShape = ["circle", "polygon"]
    static let circle = ["x", "y", "radius"]
    static let point = ["x", "y"]
}

extension DocumentReader {
    /// Reads the whole document. Problems are collected in `diagnostics`; the result is only
    /// meaningful when there are none.
    mutating func configuration(_ root: Node, references: inout ReferenceTable) -> Configuration {
        var configuration = Configuration()
        guard let members = object(root) else { return configuration }
        checkKeys(members, of: root, known: ConfigKeys.root)
        if let node = members["screen"], node.value != .null { configuration.screen = screen(node) }
        if let node = members["devices"], let elements = array(node) {
            for element in elements { if let rule = deviceRule(element) { configuration.devices.append(rule) } }
        }
        if let node = members["views"], let elements = array(node) {
            for element in elements { if let view = view(element, references: &references) { configuration.views.append(view) } }
        }
        if let node = members["layouts"], node.value != .null {
            configuration.layouts = layouts(node, viewIDs: Set(Self.viewIDs(configuration.views)))
        }
        if let node = members["screens"], node.value != .null {
            configuration.screens = screens(node, root: members, references: &references)
        }
        if let node = members["control"], node.value != .null, let policy = controlPolicy(node) {
            configuration.control = policy
        }
        if let node = members["permissions"], node.value != .null { configuration.permissions = permissions(node) }
        if let node = members["socket"], node.value != .null, let settings = socketSettings(node) {
            configuration.socket = settings
        }
        if let node = members["idle"], node.value != .null { configuration.idle = idleThresholds(node) }
        if let node = members["power"], node.value != .null, let policy = powerPolicy(node) { configuration.power = policy }
        if let node = members["lock"], node.value != .null, let policy = lockPolicy(node) { configuration.lock = policy }
        if let node = members["mqtt"], node.value != .null { configuration.mqtt = mqttSettings(node) }
        return configuration
    }

    private mutating func screen(_ node: Node) -> Size? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: ConfigKeys.screen, required: ConfigKeys.screen)
        // A zero-sized screen would make every device mapping degenerate.
        let width = positiveLength(members["width"]), height = positiveLength(members["height"])
        guard let width, let height else { return nil }
        return Size(width: width, height: height)
    }

    mutating func positiveLength(_ node: Node?) -> Double? {
        guard let node, let n = number(node) else { return nil }
        guard n > 0 else { report("must be greater than 0, found \(format(n))", at: node.path); return nil }
        return n
    }

    // MARK: Devices

    private mutating func deviceRule(_ node: Node) -> DeviceRule? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: ConfigKeys.device)
        var rule = DeviceRule()
        if let match = members["match"], let fields = object(match) {
            checkKeys(fields, of: match, known: ConfigKeys.match)
            rule.match = deviceMatch(fields)
        }
        if let node = members["rotation"], let degrees = number(node) {
            if let rotation = Int(exactly: degrees).flatMap(Rotation.init(rawValue:)) {
                rule.rotation = rotation
            } else {
                report("must be 0, 90, 180 or 270 (degrees clockwise), found \(format(degrees))", at: node.path)
            }
        }
        if let node = members["calibration"], node.value != .null, let elements = array(node) {
            if elements.count != 6 {
                report("expected exactly 6 numbers [a, b, c, d, e, f], found \(elements.count)", at: node.path)
            }
            var values: [Double] = []
            for element in elements { if let v = number(element) { values.append(v) } }
            if elements.count == 6, values.count == 6 { rule.calibration = values }
        }
        if let grab = bool(members["grab"]) { rule.grab = grab }
        if let ignore = bool(members["ignore"]) { rule.ignore = ignore }
        if let add = bool(members["add"]) { rule.add = add }
        if let flag = bool(members["passThrough"]) {
            rule.passThrough = flag
            if flag { rule.grab = true }
        }
        if let node = members["cancelStyle"], let text = string(node) {
            if let style = CancelStyle(rawValue: text) {
                rule.cancelStyle = style
            } else {
                report(notOneOf(CancelStyle.allCases.map(\.rawValue), found: text), at: node.path)
            }
        }
        if let node = members["maximumTouches"], node.value != .null, let n = integer(node, minimum: 1) {
            rule.maximumTouches = n
        }
        return rule
    }

    /// `{name, sysname, vendor, product, type, properties}`: globs, 16-bit ids (`0x0eef` is
    /// fine in JSON5), a device kind, and `{PROPERTY: glob}` on udev properties.
    mutating func deviceMatch(_ fields: [String: Node]) -> DeviceMatch {
        var match = DeviceMatch(name: string(fields["name"]), sysname: string(fields["sysname"]))
        for (key, target) in [("vendor", \DeviceMatch.vendor), ("product", \DeviceMatch.product)] {
            guard let node = fields[key], let n = integer(node, minimum: 0) else { continue }
            guard n <= 0xFFFF else { report("must be at most 65535 (0xffff), found \(n)", at: node.path); continue }
            match[keyPath: target] = UInt16(n)
        }
        if let node = fields["type"], let text = string(node) {
            if let kind = DeviceKind(rawValue: text) {
                match.type = kind
            } else {
                report(notOneOf(DeviceKind.allCases.map(\.rawValue), found: text), at: node.path)
            }
        }
        if let node = fields["properties"], let properties = object(node) {
            for key in properties.keys.sorted() {
                if let pattern = string(properties[key]) { match.properties[key] = pattern }
            }
        }
        return match
    }

    // MARK: Views

    mutating func view(_ node: Node, references: inout ReferenceTable) -> ViewSpec? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: ConfigKeys.view, required: ["id"])
        var spec = ViewSpec(id: "")
        if let idNode = members["id"], let id = identifier(idNode) {
            spec.id = id
            references.addView(id, path: idNode.path, offset: valueOffset(of: idNode.path))
        }
        if let node = members["frame"], node.value != .null { spec.frame = frame(node) }
        if let flag = bool(members["isUserInteractionEnabled"]) { spec.isUserInteractionEnabled = flag }
        if let flag = bool(members["isHidden"]) { spec.isHidden = flag }
        if let flag = bool(members["forwardsTouches"]) { spec.forwardsTouches = flag }
        if let alpha = number(members["alpha"], minimum: 0, maximum: 1) { spec.alpha = alpha }
        if let node = members["hitTestInsets"] { spec.hitTestInsets = insets(node) ?? .zero }
        if let node = members["hitShape"], node.value != .null { spec.hitShape = hitShape(node) }
        if let node = members["gestures"], let elements = array(node) {
            for element in elements { if let gesture = gesture(element, references: &references) { spec.gestures.append(gesture) } }
        }
        if let node = members["subviews"], let elements = array(node) {
            for element in elements { if let view = view(element, references: &references) { spec.subviews.append(view) } }
        }
        return spec
    }

    /// `{x, y, width, height}` (x and y default to 0) or `[x, y, width, height]`.
    mutating func frame(_ node: Node) -> Rect? {
        switch node.value {
        case .array(let elements):
            guard elements.count == 4 else {
                report("expected 4 numbers [x, y, width, height], found \(elements.count)", at: node.path)
                return nil
            }
            let parts = array(node) ?? []
            let x = number(parts[0]), y = number(parts[1])
            let width = distance(parts[2]), height = distance(parts[3])
            guard let x, let y, let width, let height else { return nil }
            return Rect(x: x, y: y, width: width.points, height: height.points)
        case .object:
            guard let members = object(node) else { return nil }
            checkKeys(members, of: node, known: ConfigKeys.frame, required: ["width", "height"])
            let x = members["x"] == nil ? 0 : number(members["x"]), y = members["y"] == nil ? 0 : number(members["y"])
            let width = distance(members["width"]), height = distance(members["height"])
            guard let x, let y, let width, let height else { return nil }
            return Rect(x: x, y: y, width: width.points, height: height.points)
        default:
            report("expected an object {x, y, width, height} or an array [x, y, width, height], found \(node.value.kindDescription)",
                   at: node.path)
            return nil
        }
    }

    /// `{top, left, bottom, right}`, each optional (default 0); negative values enlarge the target.
    private mutating func insets(_ node: Node) -> EdgeInsets? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: ConfigKeys.insets)
        var insets = EdgeInsets()
        if let v = number(members["top"]) { insets.top = v }
        if let v = number(members["left"]) { insets.left = v }
        if let v = number(members["bottom"]) { insets.bottom = v }
        if let v = number(members["right"]) { insets.right = v }
        return insets
    }

    /// `{ circle: { x, y, radius } }` or `{ polygon: [[x, y], …] }` (points may also be `{x, y}`).
    private mutating func hitShape(_ node: Node) -> HitShape? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: ConfigKeys.hitShape)
        let shapes = ConfigKeys.hitShape.filter { members[$0] != nil }
        guard shapes.count == 1 else {
            report(shapes.isEmpty ? "needs a \"circle\" or a \"polygon\" key"
                                  : "needs only one of \"circle\" and \"polygon\"", at: node.path)
            return nil
        }
        if let circle = members["circle"] {
            guard let fields = object(circle) else { return nil }
            checkKeys(fields, of: circle, known: ConfigKeys.circle, required: ConfigKeys.circle)
            let x = number(fields["x"]), y = number(fields["y"]), radius = distance(fields["radius"])
            guard let x, let y, let radius else { return nil }
            return .circle(center: Point(x: x, y: y), radius: radius.points)
        }
        guard let polygon = members["polygon"], let vertices = array(polygon) else { return nil }
        guard vertices.count >= 3 else {
            report("a polygon needs at least 3 points, found \(vertices.count)", at: polygon.path)
            return nil
        }
        var points: [Point] = []
        for vertex in vertices { if let p = point(vertex) { points.append(p) } }
        return points.count == vertices.count ? .polygon(points) : nil
    }

    /// `[x, y]` or `{x, y}`.
    mutating func point(_ node: Node) -> Point? {
        if case .array(let elements) = node.value {
            guard elements.count == 2 else {
                report("expected 2 numbers [x, y], found \(elements.count)", at: node.path)
                return nil
            }
            let parts = array(node) ?? []
            guard let x = number(parts[0]), let y = number(parts[1]) else { return nil }
            return Point(x: x, y: y)
        }
        guard case .object = node.value else {
            report("expected a point [x, y] or {x, y}, found \(node.value.kindDescription)", at: node.path)
            return nil
        }
        guard let fields = object(node) else { return nil }
        checkKeys(fields, of: node, known: ConfigKeys.point, required: ConfigKeys.point)
        let x = number(fields["x"]), y = number(fields["y"])
        guard let x, let y else { return nil }
        return Point(x: x, y: y)
    }
}
