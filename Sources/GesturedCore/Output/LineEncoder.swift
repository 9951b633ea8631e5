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
        line(kind: "hello", positional: [], fields: [("version", .int(Int64(protocolVersion))),
                                                     ("daemon", .string("gestured"))], format: format)
    }

    public static func gesture(_ e: GestureEvent, seq: UInt64, format: LineFormat) -> String {
        var fields: [(String, Value)] = [
            ("view", .string(e.view)), ("device", .string(e.sample.device)), ("time", .instant(e.time)),
            ("seq", .int(Int64(seq))), ("touches", .int(Int64(e.sample.touches))),
            ("x", .fixed(e.sample.location.x, decimals: 2)), ("y", .fixed(e.sample.location.y, decimals: 2)),
            ("viewX", .fixed(e.viewLocation.x, decimals: 2)), ("viewY", .fixed(e.viewLocation.y, decimals: 2)),
        ]
        switch e.sample.values {
        case .none:
            break
        case .tap(let taps):
            fields.append(("taps", .int(Int64(taps))))
        case .swipe(let direction):
            fields.append(("direction", .string(direction.rawValue)))
        case .pan(let translation, let velocity):
            appendPan(translation, velocity, to: &fields)
        case .screenEdgePan(let translation, let velocity, let edge):
            appendPan(translation, velocity, to: &fields)
            fields.append(("edge", .string(edge.rawValue)))
        case .pinch(let scale, let velocity):
            fields.append(("scale", .fixed(scale, decimals: 3)))
            fields.append(("velocity", .fixed(velocity, decimals: 2)))
        case .rotation(let rotation, let velocity):
            fields.append(("rotation", .fixed(rotation, decimals: 4)))
            fields.append(("velocity", .fixed(velocity, decimals: 2)))
        case .longPress(let duration):
            fields.append(("duration", .fixed(duration.seconds, decimals: 3)))
        }
        return line(kind: "gesture", positional: [("type", .string(e.type)), ("state", .string(e.state.rawValue)),
                                                  ("name", .string(e.name))],
                    fields: fields, format: format)
    }

    public static func touch(_ t: TouchEvent, seq: UInt64, format: LineFormat) -> String {
        line(kind: "touch", positional: [("phase", .string(t.update.phase.rawValue)), ("id", .int(Int64(t.update.id.value)))],
             fields: [("view", .string(t.view ?? "")), ("device", .string(t.update.device)),
                      ("slot", .int(Int64(t.update.slot))),
                      ("x", .fixed(t.update.location.x, decimals: 2)), ("y", .fixed(t.update.location.y, decimals: 2)),
                      ("time", .instant(t.time)), ("seq", .int(Int64(seq)))],
             format: format)
    }

    /// `device added|removed SYSNAME name="…"`.
    public static func device(added: Bool, sysname: String, name: String, seq: UInt64, format: LineFormat) -> String {
        line(kind: "device", positional: [("action", .string(added ? "added" : "removed")), ("sysname", .string(sysname))],
             fields: [("name", .string(name)), ("seq", .int(Int64(seq)))], format: format)
    }

    public static func output(_ o: GesturePipeline.Output, seq: UInt64, format: LineFormat) -> String {
        switch o {
        case .gesture(let e): gesture(e, seq: seq, format: format)
        case .touch(let t): touch(t, seq: seq, format: format)
        }
    }

    private static func appendPan(_ translation: Vector, _ velocity: Vector, to fields: inout [(String, Value)]) {
        fields.append(("translationX", .fixed(translation.dx, decimals: 2)))
        fields.append(("translationY", .fixed(translation.dy, decimals: 2)))
        fields.append(("velocityX", .fixed(velocity.dx, decimals: 2)))
        fields.append(("velocityY", .fixed(velocity.dy, decimals: 2)))
    }

    // MARK: Assembly

    static func line(kind: String, positional: [(String, Value)], fields: [(String, Value)],
                     format: LineFormat) -> String {
        var out = ""
        switch format {
        case .text:
            out += kind
            for (_, value) in positional {
                out += " "
                switch value {
                case .string(let s): out += textString(s)
                case .int, .fixed, .instant: out += number(value)
                }
            }
            for (key, value) in fields {
                out += " "; out += key; out += "="
                switch value {
                case .string(let s): out += textString(s)
                case .int, .fixed, .instant: out += number(value)
                }
            }
        case .json:
            out += "{\"event\":"; out += jsonString(kind)
            for (key, value) in positional + fields {
                out += ","; out += jsonString(key); out += ":"
                switch value {
                case .string(let s): out += jsonString(s)
                case .int, .fixed, .instant: out += number(value)
                }
            }
            out += "}"
        }
        out += "\n"
        return out
    }

    private static func number(_ value: Value) -> String {
        switch value {
        case .int(let i): String(i)
        case .fixed(let d, let decimals): fixed(d, decimals: decimals)
        case .instant(let t): t.description
        case .string(let s): s
        }
    }

    /// `value` with exactly `decimals` decimals, rounded half away from zero; non-finite values
    /// (which the recognizers never produce) print as 0 so that JSON stays valid.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return fixed(0, decimals: decimals) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { return value < 0 ? "-9e18" : "9e18" }
        let units = Int64(scaled)
        let negative = value < 0 && units != 0
        let divisor = Int64(scale)
        var text = negative ? "-" : ""
        text += String(units / divisor)
        if decimals > 0 {
            let fraction = String(units % divisor)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return text
    }

    /// Bare when it is a plain token; otherwise double-quoted with `\"` and `\\` escaped, and
    /// control characters as `\n`, `\t` or `\u{XX}`.
    static func textString(_ s: String) -> String {
        let plain = !s.isEmpty && s.utf8.allSatisfy { b in
            b > 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") && b != UInt8(ascii: "=") && b != 0x7f
        }
        if plain { return s }
        return "\"" + escaped(s, json: false) + "\""
    }

    static func jsonString(_ s: String) -> String { "\"" + escaped(s, json: true) + "\"" }

    private static func escaped(_ s: String, json: Bool) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    let hex = String(scalar.value, radix: 16)
                    out += json ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                                : "\\u{" + hex + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

extension LineEncoder {
    /// The answer to a request that was applied.
    public static func ok(command: String, format: LineFormat) -> String {
        line(kind: "ok", positional: [], fields: [("command", .string(command))], format: format)
    }

    /// The answer to a request that was refused; the client's state is unchanged.
    public static func error(command: String, message: String, format: LineFormat) -> String {
        line(kind: "error", positional: [], fields: [("command", .string(command)), ("message", .string(message))],
             format: format)
    }
}
