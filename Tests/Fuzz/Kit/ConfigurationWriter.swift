import GesturedCore

/// Writes the configuration of a pipeline input as JSON5 text, from header bytes: the single
/// form or two screens, a screen size, a device rule per device (rotation, calibration,
/// pass-through, touch limit), a root view with up to three subviews (hidden, disabled, not
/// forwarding, enlarged or round hit areas, nested), and up to eight gestures of every type with
/// their parameters, `cancelsTouchesInView`, `delaysTouchesBegan`, `delaysTouchesEnded`,
/// `requireToFail` (on earlier gestures only: never a cycle) and `recognizeSimultaneouslyWith`.
/// Every value is one the loader accepts; the target counts a rejected text as a violation.
struct ConfigurationWriter {
    static let gestureSlots = 8
    static let subviewSlots = 3
    static let screenSizes: [(Double, Double)?] = [nil, (1280, 800), (1000, 1000), (100, 50), (1, 1), (3840, 2160),
                                                   (0.5, 0.5), (1e6, 1e6)]
    static let calibrations: [[Double]?] = [nil, [1, 0, 0, 0, 1, 0], [0, 1, 0, 1, 0, 0], [-1, 0, 1, 0, -1, 1],
                                            [0.5, 0, 0.25, 0, 0.5, 0.25], [2, 0, -0.5, 0, 2, -0.5], [1, 0.3, 0, 0.2, 1, 0],
                                            [1000, 0, 0, 0, 1000, 0]]

    private(set) var text = ""

    init(header: inout FuzzInput, form: UInt8, devices: Int) {
        let screens = form & 1 != 0
        let size = Self.screenSizes[Int(form >> 1) % Self.screenSizes.count]
        let nominal = size ?? (1280, 800)
        var rules: [String] = []
        for k in 0..<PipelineScenario.maximumDevices {
            let r = header.byte()
            guard k < devices else { continue }
            var rule = "{ match: { sysname: \"event\(k)\" }, rotation: \([0, 90, 180, 270][Int(r & 3)])"
            if let calibration = Self.calibrations[Int(r >> 2 & 7)] {
                rule += ", calibration: [\(calibration.map { Self.number($0) }.joined(separator: ", "))]"
            }
            if r & 0x20 != 0 { rule += ", passThrough: true" }
            if let limit = [nil, 1, 2, 5][Int(r >> 6)] { rule += ", maximumTouches: \(limit)" }
            rules.append(rule + " }")
        }
        let viewFlags = header.byte()
        var views: [(flags: UInt8, a: UInt8, b: UInt8)] = []
        for _ in 0...Self.subviewSlots { views.append((header.byte(), header.byte(), header.byte())) }
        var gestures: [[UInt8]] = []
        for _ in 0..<Self.gestureSlots { gestures.append(Array(header.take(5)) + [0, 0, 0, 0, 0]) }
        let subviews = Int(viewFlags) % (Self.subviewSlots + 1)

        var out = "// written by the pipeline fuzz target (Tests/Fuzz/Kit/ConfigurationWriter.swift)\n{\n"
        out += "  devices: [\n" + rules.map { "    \($0),\n" }.joined() + "  ],\n"
        let tree = { (suffix: String) -> String in
            Self.viewTree(views: views, subviews: subviews, gestures: gestures, screen: nominal, suffix: suffix)
        }
        if screens {
            let sizeText = size.map { "width: \(Self.number($0.0)), height: \(Self.number($0.1)), " } ?? ""
            out += "  screens: [\n"
            out += "    { id: \"a\", \(sizeText)devices: [{ match: { sysname: \"event0\" } }],\n      views: [\(tree(""))] },\n"
            out += "    { id: \"b\", devices: \"rest\",\n      views: [\(tree("B"))] },\n"
            out += "  ],\n"
        } else {
            if let size { out += "  screen: { width: \(Self.number(size.0)), height: \(Self.number(size.1)) },\n" }
            out += "  views: [\(tree(""))],\n"
        }
        text = out + "}\n"
    }

    /// A number as JSON5 writes it.
    static func number(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
    }

    static func viewTree(views: [(flags: UInt8, a: UInt8, b: UInt8)], subviews: Int, gestures: [[UInt8]],
                         screen: (Double, Double), suffix: String) -> String {
        var bodies: [String] = []
        for v in 0...subviews {
            let (flags, a, b) = views[v]
            var body = "{ id: \"\(v == 0 ? "root" : "v\(v)")\(suffix)\""
            if v > 0 {
                let (w, h) = (screen.0 / 16, screen.1 / 16)
                let frame = [Double(a & 0x0f) * w, Double(a >> 4) * h, Double((b & 0x0f) + 1) * w, Double((b >> 4) + 1) * h]
                body += ", frame: [\(frame.map(number).joined(separator: ", "))]"
                if flags & 3 == 3 { body += ", isHidden: true" }
                if flags & 0x0c == 0x0c { body += ", isUserInteractionEnabled: false" }
                if flags & 0x20 != 0 { body += ", hitTestInsets: { top: -20, left: -20, bottom: -20, right: -20 }" }
                if flags & 0x40 != 0 { body += ", hitShape: { circle: { x: \(number(frame[2] / 2)), y: \(number(frame[3] / 2)), radius: \(number(min(frame[2], frame[3]) / 2)) } }" }
            }
            if flags & 0x10 != 0 { body += ", forwardsTouches: false" }
            var mine: [String] = []
            for (g, bytes) in gestures.enumerated() where bytes[0] & 0x80 != 0 && Int(bytes[0] >> 3 & 3) % (subviews + 1) == v {
                mine.append(gesture(g, bytes, all: gestures, suffix: suffix))
            }
            if !mine.isEmpty { body += ",\n        gestures: [\n" + mine.map { "          \($0),\n" }.joined() + "        ]" }
            bodies.append(body)
        }
        // Subview k nests in subview k-1 when its flag says so, else in the root.
        var text = bodies[0]
        var children: [String] = []
        var v = 1
        while v <= subviews {
            var chunk = bodies[v]
            var depth = 0
            while v + 1 <= subviews, views[v + 1].flags & 0x80 != 0 {
                v += 1; depth += 1
                chunk += ",\n        subviews: [" + bodies[v]
            }
            chunk += String(repeating: " }]", count: depth) + " }"
            children.append(chunk)
            v += 1
        }
        if !children.isEmpty { text += ",\n      subviews: [" + children.joined(separator: ", ") + "]" }
        return text + " }"
    }

    static let builtIns = StrokeLibrary.names

    static func gesture(_ index: Int, _ b: [UInt8], all: [[UInt8]], suffix: String) -> String {
        let type = ["tap", "swipe", "pan", "pinch", "rotation", "longPress", "screenEdgePan", "stroke"][Int(b[0] & 7)]
        var g = "{ id: \"g\(index)\(suffix)\", type: \"\(type)\""
        func choose<T>(_ choices: [T?], _ byte: UInt8, _ key: String, _ show: (T) -> String) {
            if let c = choices[Int(byte) % choices.count] { g += ", \(key): \(show(c))" }
        }
        let p = b[1], q = b[2], r = b[4]
        switch type {
        case "tap":
            g += ", numberOfTapsRequired: \(1 + p % 3), numberOfTouchesRequired: \(1 + (p >> 2) % 3)"
            choose([nil, 0, 0.05, 1.0], q, "maximumTapInterval", number)
            choose([nil, 0, 500.0], q >> 2, "maximumTapDistance", number)
            choose([nil, 0, 50.0], q >> 4, "movementSlop", number)
        case "swipe":
            let directions = ["left", "right", "up", "down"].enumerated().filter { p >> $0.offset & 1 == 1 }.map { "\"\($0.element)\"" }
            g += ", direction: [\(directions.isEmpty ? "\"right\"" : directions.joined(separator: ", "))]"
            g += ", numberOfTouchesRequired: \(1 + (p >> 4) % 3)"
            choose([nil, 0, 1000.0], q, "minimumDistance", number)
            choose([nil, 0.0], q >> 2, "minimumVelocity", number)
            choose([nil, 0, 5.0], q >> 3, "maximumDuration", number)
            choose([nil, 0, Double.pi / 4], q >> 5, "angleTolerance", { "\($0)" })
        case "pan":
            let minimum = 1 + Int(p % 3)
            g += ", minimumNumberOfTouches: \(minimum)"
            choose([nil, minimum, minimum + 1, minimum + 3], p >> 2, "maximumNumberOfTouches", { String($0) })
            choose([nil, 0, 100.0], q, "slop", number)
        case "pinch":
            choose([nil, 0, 0.5, 100.0], q, "slop", number)
        case "rotation":
            choose([nil, 0, 3.14], q, "slop", number)
        case "longPress":
            choose([nil, 0, 0.01, 2.0], p, "minimumPressDuration", number)
            choose([nil, 0, 1000.0], p >> 2, "allowableMovement", number)
            g += ", numberOfTouchesRequired: \(1 + (p >> 4) % 3), numberOfTapsRequired: \(q % 3)"
            choose([nil, 0, 1.0], q >> 2, "maximumTapInterval", number)
        case "screenEdgePan":
            let edges = ["top", "left", "bottom", "right"].enumerated().filter { p >> $0.offset & 1 == 1 }.map { "\"\($0.element)\"" }
            g += ", edges: [\(edges.isEmpty ? "\"left\"" : edges.joined(separator: ", "))]"
            choose([nil, 0, 1000.0], p >> 4, "edgeZoneWidth", number)
            choose([nil, 0, 100.0], q, "slop", number)
        default: // stroke
            var templates = [p, q].map { "\"\(builtIns[Int($0) % builtIns.count])\"" }
            if r & 1 != 0 { templates.append("{ name: \"line\", points: [[0, 0], [\(1 + (r >> 1)), \(r >> 4)]] }") }
            g += ", templates: [\(templates.joined(separator: ", "))]"
            choose([nil, 0, 0.5, 1.0], r >> 1, "minimumScore", number)
            g += ", numberOfTouchesRequired: \(1 + (q >> 6) % 2)"
            if r & 0x08 != 0 { g += ", orientationSensitive: false" }
            choose([nil, 0, Double.pi], r >> 4, "rotationTolerance", { "\($0)" })
        }
        let d = b[3]
        if d & 1 != 0 { g += ", cancelsTouchesInView: false" }
        if d & 2 != 0 { g += ", delaysTouchesBegan: true" }
        if d & 4 != 0 { g += ", delaysTouchesEnded: false" }
        let present = all.indices.filter { all[$0][0] & 0x80 != 0 }
        let target = Int(d >> 5)
        let earlier = present.filter { $0 < index }
        if d & 8 != 0, !earlier.isEmpty {
            g += ", requireToFail: [\"g\(earlier[target % earlier.count])\(suffix)\"]"
        }
        if d & 0x10 != 0, let other = present.first(where: { $0 != index && $0 % 8 == target }) ?? present.first(where: { $0 != index }) {
            g += ", recognizeSimultaneouslyWith: [\"g\(other)\(suffix)\"]"
        }
        return g + " }"
    }
}
