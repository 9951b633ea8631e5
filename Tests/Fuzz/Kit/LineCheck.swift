import GesturedCore

/// Encodes what the pipeline produced in both formats and checks the lines: each parses by the
/// protocol's grammar and its kind's fields (`ProtocolLine`), the two encodings agree, and the
/// lines say what the values are (names, states, numbers within their rounding).
public enum LineCheck {
    /// Checks an output's lines, numbered `seq`; returns the text line as parsed.
    @discardableResult
    public static func check(_ output: GesturePipeline.Output, seq: UInt64) throws(Violation) -> ProtocolLine {
        var text: [UInt8] = [], json: [UInt8] = []
        return try check(output, seq: seq, text: &text, json: &json)
    }

    /// Checks an output's lines as `check(_:seq:)` does, leaving them in `text` and `json`.
    public static func check(_ output: GesturePipeline.Output, seq: UInt64, text: inout [UInt8],
                             json: inout [UInt8]) throws(Violation) -> ProtocolLine {
        text.removeAll(keepingCapacity: true); json.removeAll(keepingCapacity: true)
        LineEncoder.output(output, seq: seq, format: .text, into: &text)
        LineEncoder.output(output, seq: seq, format: .json, into: &json)
        let line = try ProtocolLine.parse(text: text, json: json)
        try require(line.seq == seq, "line numbered \(line["seq"] ?? "nothing") for seq \(seq): \(show(text))")
        switch output {
        case .gesture(let g):
            try expect(line, ["type": g.type, "state": g.state.rawValue, "name": g.name, "view": g.view,
                              "device": g.sample.device.description, "time": g.time.description,
                              "touches": String(g.sample.touches)], text)
            try require(line["screen"] == g.screen, "screen=\(line["screen"] ?? "none") for \(g.screen ?? "none"): \(show(text))")
            try close(line, "x", g.sample.location.x, 2, text); try close(line, "y", g.sample.location.y, 2, text)
            try close(line, "viewX", g.viewLocation.x, 2, text); try close(line, "viewY", g.viewLocation.y, 2, text)
            if g.state != .cancelled && g.state != .failed {
                switch g.sample.values {
                case .pan(let t, let v), .screenEdgePan(let t, let v, _):
                    try close(line, "translationX", t.dx, 2, text); try close(line, "translationY", t.dy, 2, text)
                    try close(line, "velocityX", v.dx, 2, text); try close(line, "velocityY", v.dy, 2, text)
                case .pinch(let scale, let velocity):
                    try close(line, "scale", scale, 3, text); try close(line, "velocity", velocity, 2, text)
                case .rotation(let rotation, let velocity):
                    try close(line, "rotation", rotation, 4, text); try close(line, "velocity", velocity, 2, text)
                case .longPress(let duration): try close(line, "duration", duration.seconds, 3, text)
                case .stroke(_, let score):
                    try close(line, "score", score, 3, text)
                    try require(line["stroke"] == g.template, "stroke=\(line["stroke"] ?? "none") for \(g.template ?? "none"): \(show(text))")
                case .tap(let taps): try expect(line, ["taps": String(taps)], text)
                case .swipe(let direction): try expect(line, ["direction": direction.rawValue], text)
                case .none: break
                }
            }
        case .touch(let t):
            try expect(line, ["phase": t.update.phase.rawValue, "id": String(t.update.id.value), "view": t.view ?? "",
                              "device": t.update.device.description, "slot": String(t.update.slot),
                              "time": t.time.description], text)
            try require(line["screen"] == t.screen, "screen=\(line["screen"] ?? "none") for \(t.screen ?? "none"): \(show(text))")
            try close(line, "x", t.update.location.x, 2, text); try close(line, "y", t.update.location.y, 2, text)
        case .kiosk(let k):
            try expect(line, ["time": k.time.description], text)
            try require(line["screen"] == k.screen, "screen=\(line["screen"] ?? "none") for \(k.screen ?? "none"): \(show(text))")
        }
        return line
    }

    /// Checks a forwarded touch's `forward` lines.
    public static func check(_ f: ForwardedTouch, device: DeviceName, seq: UInt64) throws(Violation) {
        var text: [UInt8] = [], json: [UInt8] = []
        LineEncoder.forwarded(f, device: device, seq: seq, format: .text, into: &text)
        LineEncoder.forwarded(f, device: device, seq: seq, format: .json, into: &json)
        let line = try ProtocolLine.parse(text: text, json: json)
        var expected = ["id": String(f.touch.value), "device": device.description, "slot": String(f.slot),
                        "time": f.time.description, "seq": String(seq)]
        switch f.kind {
        case .down(let trackingID, let p):
            expected["phase"] = "down"; expected["trackingID"] = String(trackingID)
            expected["x"] = String(p.x); expected["y"] = String(p.y)
        case .move(let p): expected["phase"] = "move"; expected["x"] = String(p.x); expected["y"] = String(p.y)
        case .cancel: expected["phase"] = "cancel"
        case .up: expected["phase"] = "up"
        }
        try expect(line, expected, text)
    }

    /// Checks a trace line (a subscribed client's, or `--trace`'s text).
    public static func check(trace: String) throws(Violation) {
        var text: [UInt8] = [], json: [UInt8] = []
        LineEncoder.trace(trace, format: .text, into: &text)
        LineEncoder.trace(trace, format: .json, into: &json)
        let line = try ProtocolLine.parse(text: text, json: json)
        try expect(line, ["text": trace], text)
    }

    static func expect(_ line: ProtocolLine, _ values: [String: String], _ bytes: [UInt8]) throws(Violation) {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try require(line[key] == value, "\(key)=\(line[key] ?? "missing") where \(value) was meant: \(show(bytes))")
        }
    }

    /// The field is `value` rounded to `decimals` (half away from zero), within the rounding
    /// of a `Double` of that size.
    static func close(_ line: ProtocolLine, _ key: String, _ value: Double, _ decimals: Int, _ bytes: [UInt8]) throws(Violation) {
        guard let text = line[key], let printed = Double(text) else {
            throw Violation("\(key) missing or not a number: \(show(bytes))")
        }
        var unit = 1.0
        for _ in 0..<decimals { unit /= 10 }
        let slack = unit / 2 + abs(value) * 1e-12 + 1e-9
        try require(abs(printed - value) <= slack, "\(key)=\(text) for the value \(value): \(show(bytes))")
    }
}

/// Which outputs of a run get their lines checked in full: parsing both encodings of every
/// touch move of a long stream costs more than the pipeline itself, so each kind of line
/// (kind, type, state) is checked the first `perShape` times it occurs, and every line with a
/// number near a formatting edge (non-finite, huge, or a small negative that rounds to zero).
struct LineSampler {
    static let perShape = 4
    private var seen: [String: Int] = [:]

    mutating func shouldCheck(_ output: GesturePipeline.Output) -> Bool {
        let shape: String
        var numbers: [Double]
        switch output {
        case .gesture(let g):
            shape = "gesture \(g.type) \(g.state.rawValue)"
            numbers = [g.sample.location.x, g.sample.location.y, g.viewLocation.x, g.viewLocation.y]
            switch g.sample.values {
            case .pan(let t, let v), .screenEdgePan(let t, let v, _): numbers += [t.dx, t.dy, v.dx, v.dy]
            case .pinch(let a, let b), .rotation(let a, let b): numbers += [a, b]
            case .stroke(_, let score): numbers.append(score)
            case .longPress(let d): numbers.append(d.seconds)
            case .none, .tap, .swipe: break
            }
        case .touch(let t):
            shape = "touch \(t.update.phase.rawValue)"
            numbers = [t.update.location.x, t.update.location.y]
        case .kiosk(let k):
            shape = k.name
            numbers = []
        }
        let count = seen[shape, default: 0]
        seen[shape] = count + 1
        return count < Self.perShape || numbers.contains { !$0.isFinite || abs($0) >= 1e9 || ($0 < 0 && $0 > -0.01) }
    }
}
