/// The line protocol, version 1 (CONTRACT.md §3, docs/PROTOCOL.md): one event per line, in text
/// (`kind positional… key=value…`) or JSON (one object, the same keys plus `"event"`).
///
/// Numbers have fixed decimals so that lines are byte-identical across runs and machines:
/// `time` 6 (microseconds), locations, translations and pan velocities 2, `scale` 3, `rotation`
/// 4, pinch and rotation `velocity` 2, `duration` 3. Negative zero prints as zero.
public enum LineFormat: String, Hashable, Sendable, CaseIterable {
    case text, json
}

public enum LineEncoder {
    public static let protocolVersion = 1

    /// One field's value: how it prints in both encodings.
    enum Value {
        case string(String)
        case int(Int64)
        case fixed(Double, decimals: Int)
        case instant(Instant)
    }

    /// The greeting, first line to every client.
    public static func hello(format: LineFormat) -> String {
        string { hello(format: format, into: &$0) }
    }

    public static func hello(format: LineFormat, into out: inout [UInt8]) {
        let line = LineWriter(kind: "hello", format: format, into: &out)
        line.field("version", .int(Int64(protocolVersion)), into: &out)
        line.field("daemon", .string("gestured"), into: &out)
        line.end(into: &out)
    }

    public static func gesture(_ e: GestureEvent, seq: UInt64, format: LineFormat) -> String {
        string { gesture(e, seq: seq, format: format, into: &$0) }
    }

    /// Appends the gesture line to `out`. The daemon and replay encode this way, into a buffer
    /// they reuse, so that a line costs no allocation.
    public static func gesture(_ e: GestureEvent, seq: UInt64, format: LineFormat, into out: inout [UInt8]) {
        let line = LineWriter(kind: "gesture", format: format, into: &out)
        line.positional("type", .string(e.type), into: &out)
        line.positional("state", .string(e.state.rawValue), into: &out)
        line.positional("name", .string(e.name), into: &out)
        line.field("view", .string(e.view), into: &out)
        line.field("device", .string(e.sample.device), into: &out)
        line.field("time", .instant(e.time), into: &out)
        line.field("seq", .int(Int64(seq)), into: &out)
        line.field("touches", .int(Int64(e.sample.touches)), into: &out)
        line.field("x", .fixed(e.sample.location.x, decimals: 2), into: &out)
        line.field("y", .fixed(e.sample.location.y, decimals: 2), into: &out)
        line.field("viewX", .fixed(e.viewLocation.x, decimals: 2), into: &out)
        line.field("viewY", .fixed(e.viewLocation.y, decimals: 2), into: &out)
        switch e.sample.values {
        case .none:
            break
        case .tap(let taps):
            line.field("taps", .int(Int64(taps)), into: &out)
        case .swipe(let direction):
            line.field("direction", .string(direction.rawValue), into: &out)
        case .pan(let translation, let velocity):
            pan(translation, velocity, line, into: &out)
        case .screenEdgePan(let translation, let velocity, let edge):
            pan(translation, velocity, line, into: &out)
            line.field("edge", .string(edge.rawValue), into: &out)
        case .pinch(let scale, let velocity):
            line.field("scale", .fixed(scale, decimals: 3), into: &out)
            line.field("velocity", .fixed(velocity, decimals: 2), into: &out)
        case .rotation(let rotation, let velocity):
            line.field("rotation", .fixed(rotation, decimals: 4), into: &out)
            line.field("velocity", .fixed(velocity, decimals: 2), into: &out)
        case .longPress(let duration):
            line.field("duration", .fixed(duration.seconds, decimals: 3), into: &out)
        }
        line.end(into: &out)
    }

    public static func touch(_ t: TouchEvent, seq: UInt64, format: LineFormat) -> String {
        string { touch(t, seq: seq, format: format, into: &$0) }
    }

    /// Appends the touch line to `out` (see `gesture(_:seq:format:into:)`).
    public static func touch(_ t: TouchEvent, seq: UInt64, format: LineFormat, into out: inout [UInt8]) {
        let line = LineWriter(kind: "touch", format: format, into: &out)
        line.positional("phase", .string(t.update.phase.rawValue), into: &out)
        line.positional("id", .int(Int64(t.update.id.value)), into: &out)
        line.field("view", .string(t.view ?? ""), into: &out)
        line.field("device", .string(t.update.device), into: &out)
        line.field("slot", .int(Int64(t.update.slot)), into: &out)
        line.field("x", .fixed(t.update.location.x, decimals: 2), into: &out)
        line.field("y", .fixed(t.update.location.y, decimals: 2), into: &out)
        line.field("time", .instant(t.time), into: &out)
        line.field("seq", .int(Int64(seq)), into: &out)
        line.end(into: &out)
    }

    /// `device added|removed SYSNAME name="…"`.
    public static func device(added: Bool, sysname: String, name: String, seq: UInt64, format: LineFormat) -> String {
        string { out in
            let line = LineWriter(kind: "device", format: format, into: &out)
            line.positional("action", .string(added ? "added" : "removed"), into: &out)
            line.positional("sysname", .string(sysname), into: &out)
            line.field("name", .string(name), into: &out)
            line.field("seq", .int(Int64(seq)), into: &out)
            line.end(into: &out)
        }
    }

    public static func output(_ o: GesturePipeline.Output, seq: UInt64, format: LineFormat) -> String {
        string { output(o, seq: seq, format: format, into: &$0) }
    }

    public static func output(_ o: GesturePipeline.Output, seq: UInt64, format: LineFormat, into out: inout [UInt8]) {
        switch o {
        case .gesture(let e): gesture(e, seq: seq, format: format, into: &out)
        case .touch(let t): touch(t, seq: seq, format: format, into: &out)
        }
    }

    private static func pan(_ translation: Vector, _ velocity: Vector, _ line: LineWriter, into out: inout [UInt8]) {
        line.field("translationX", .fixed(translation.dx, decimals: 2), into: &out)
        line.field("translationY", .fixed(translation.dy, decimals: 2), into: &out)
        line.field("velocityX", .fixed(velocity.dx, decimals: 2), into: &out)
        line.field("velocityY", .fixed(velocity.dy, decimals: 2), into: &out)
    }

    /// A line as a `String`, for callers that want one (tests, rare lines).
    static func string(_ write: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Assembly

    /// Writes one line field by field, straight into the caller's bytes: text
    /// `kind positional… key=value…\n`, or JSON `{"event":kind,"key":value,…}\n`.
    struct LineWriter {
        let format: LineFormat

        init(kind: String, format: LineFormat, into out: inout [UInt8]) {
            self.format = format
            switch format {
            case .text: out.append(contentsOf: kind.utf8)
            case .json: out.append(contentsOf: #"{"event":"#.utf8); LineEncoder.writeJSONString(kind, into: &out)
            }
        }

        /// A value without its key in text (`gesture tap ended …`), keyed in JSON.
        func positional(_ key: String, _ value: Value, into out: inout [UInt8]) {
            switch format {
            case .text: out.append(UInt8(ascii: " ")); write(value, into: &out)
            case .json: field(key, value, into: &out)
            }
        }

        func field(_ key: String, _ value: Value, into out: inout [UInt8]) {
            switch format {
            case .text:
                out.append(UInt8(ascii: " ")); out.append(contentsOf: key.utf8); out.append(UInt8(ascii: "="))
            case .json:
                out.append(UInt8(ascii: ",")); LineEncoder.writeJSONString(key, into: &out); out.append(UInt8(ascii: ":"))
            }
            write(value, into: &out)
        }

        func end(into out: inout [UInt8]) {
            if format == .json { out.append(UInt8(ascii: "}")) }
            out.append(UInt8(ascii: "\n"))
        }

        private func write(_ value: Value, into out: inout [UInt8]) {
            switch value {
            case .string(let s):
                switch format {
                case .text: LineEncoder.writeTextString(s, into: &out)
                case .json: LineEncoder.writeJSONString(s, into: &out)
                }
            case .int(let i): LineEncoder.writeInteger(i, into: &out)
            case .fixed(let d, let decimals): LineEncoder.writeFixed(d, decimals: decimals, into: &out)
            case .instant(let t): LineEncoder.writeInstant(t, into: &out)
            }
        }
    }

    /// `value` with exactly `decimals` decimals, rounded half away from zero; non-finite values
    /// (which the recognizers never produce) print as 0 so that JSON stays valid.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        string { writeFixed(value, decimals: decimals, into: &$0) }
    }

    static func writeFixed(_ value: Double, decimals: Int, into out: inout [UInt8]) {
        guard value.isFinite else { return writeFixed(0, decimals: decimals, into: &out) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { return out.append(contentsOf: (value < 0 ? "-9e18" : "9e18").utf8) }
        let units = Int64(scaled)
        if value < 0 && units != 0 { out.append(UInt8(ascii: "-")) }
        let divisor = Int64(scale)
        writeInteger(units / divisor, into: &out)
        if decimals > 0 {
            out.append(UInt8(ascii: "."))
            writeDigits(UInt64(units % divisor), width: decimals, into: &out)
        }
    }

    /// `seconds.micros` with exactly six decimals, as `Instant.description`.
    static func writeInstant(_ t: Instant, into out: inout [UInt8]) {
        let negative = t.microseconds < 0
        let magnitude = UInt64(negative ? 0 &- t.microseconds : t.microseconds)
        if negative { out.append(UInt8(ascii: "-")) }
        writeDigits(magnitude / 1_000_000, width: 1, into: &out)
        out.append(UInt8(ascii: "."))
        writeDigits(magnitude % 1_000_000, width: 6, into: &out)
    }

    static func writeInteger(_ i: Int64, into out: inout [UInt8]) {
        if i < 0 { out.append(UInt8(ascii: "-")) }
        writeDigits(i.magnitude, width: 1, into: &out)
    }

    /// The decimal digits of `n`, zero-padded on the left to at least `width`.
    private static func writeDigits(_ n: UInt64, width: Int, into out: inout [UInt8]) {
        var digits = 1, power: UInt64 = 10
        while digits < 20, n >= power { digits += 1; power = power &* 10 }
        for _ in digits..<max(digits, width) { out.append(UInt8(ascii: "0")) }
        let start = out.count
        for _ in 0..<digits { out.append(0) }
        var rest = n, i = start + digits
        repeat {
            i -= 1
            out[i] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
    }

    /// Bare when it is a plain token; otherwise double-quoted with `\"` and `\\` escaped, and
    /// control characters as `\n`, `\t` or `\u{XX}`.
    static func textString(_ s: String) -> String { string { writeTextString(s, into: &$0) } }

    static func writeTextString(_ s: String, into out: inout [UInt8]) {
        let plain = !s.isEmpty && s.utf8.allSatisfy { b in
            b > 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") && b != UInt8(ascii: "=") && b != 0x7f
        }
        if plain { return out.append(contentsOf: s.utf8) }
        out.append(UInt8(ascii: "\""))
        writeEscaped(s, json: false, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    static func jsonString(_ s: String) -> String { string { writeJSONString(s, into: &$0) } }

    static func writeJSONString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        writeEscaped(s, json: true, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    private static func writeEscaped(_ s: String, json: Bool, into out: inout [UInt8]) {
        // Fast path: nothing to escape (every id and sysname in practice).
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7f && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            return out.append(contentsOf: s.utf8)
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: #"\""#.utf8)
            case "\\": out.append(contentsOf: #"\\"#.utf8)
            case "\n": out.append(contentsOf: #"\n"#.utf8)
            case "\t": out.append(contentsOf: #"\t"#.utf8)
            case "\r": out.append(contentsOf: #"\r"#.utf8)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    let hex = String(scalar.value, radix: 16)
                    if json {
                        out.append(contentsOf: #"\u"#.utf8)
                        for _ in hex.count..<4 { out.append(UInt8(ascii: "0")) }
                        out.append(contentsOf: hex.utf8)
                    } else {
                        out.append(contentsOf: #"\u{"#.utf8); out.append(contentsOf: hex.utf8); out.append(UInt8(ascii: "}"))
                    }
                } else {
                    UTF8.encode(scalar) { out.append($0) }
                }
            }
        }
    }
}

extension LineEncoder {
    /// The answer to a request that was applied.
    public static func ok(command: String, format: LineFormat) -> String {
        string { out in
            let line = LineWriter(kind: "ok", format: format, into: &out)
            line.field("command", .string(command), into: &out)
            line.end(into: &out)
        }
    }

    /// The answer to a request that was refused; the client's state is unchanged.
    public static func error(command: String, message: String, format: LineFormat) -> String {
        string { out in
            let line = LineWriter(kind: "error", format: format, into: &out)
            line.field("command", .string(command), into: &out)
            line.field("message", .string(message), into: &out)
            line.end(into: &out)
        }
    }
}
