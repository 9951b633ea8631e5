import GesturedCore

// The line encoder as it was before it wrote through a raw cursor (commit 6eb0959), kept
// verbatim as the reference that `LineEncoderDifferentialTests` compares the fast one with.
// Not used by the product.

/// The line protocol, version 1 (CONTRACT.md §3, docs/PROTOCOL.md): one event per line, in text
/// (`kind positional… key=value…`) or JSON (one object, the same keys plus `"event"`).
///
/// Numbers have fixed decimals so that lines are byte-identical across runs and machines:
/// `time` 6 (microseconds), locations, translations and pan velocities 2, `scale` 3, `rotation`
/// 4, pinch and rotation `velocity` 2, `duration` 3. Negative zero prints as zero.

enum ReferenceLineEncoder {
    static let protocolVersion = 1

    /// One field's value: how it prints in both encodings.
    enum Value {
        case string(String)
        case int(Int64)
        case fixed(Double, decimals: Int)
        case instant(Instant)
    }

    /// The greeting, first line to every client.
    static func hello(format: LineFormat) -> String {
        string { hello(format: format, into: &$0) }
    }

    static func hello(format: LineFormat, into out: inout [UInt8]) {
        let line = LineWriter(kind: "hello", format: format, into: &out)
        line.field("version", .int(Int64(protocolVersion)), into: &out)
        line.field("daemon", .string("gestured"), into: &out)
        line.end(into: &out)
    }

    static func gesture(_ e: GestureEvent, seq: UInt64, format: LineFormat) -> String {
        string { gesture(e, seq: seq, format: format, into: &$0) }
    }

    /// Appends the gesture line to `out`. The daemon and replay encode this way, into a buffer
    /// they reuse, so that a line costs no allocation.
    static func gesture(_ e: GestureEvent, seq: UInt64, format: LineFormat, into out: inout [UInt8]) {
        let line = LineWriter(kind: "gesture", format: format, into: &out)
        line.positional("type", .string(e.type), into: &out)
        line.positional("state", .string(e.state.rawValue), into: &out)
        line.positional("name", .string(e.name), into: &out)
        line.field("view", .string(e.view), into: &out)
        line.field("device", .string(e.sample.device.description), into: &out)
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
        case .stroke(let template, let score):
            line.field("stroke", .string(e.label.templates[template]), into: &out)
            line.field("score", .fixed(score, decimals: 3), into: &out)
        }
        line.end(into: &out)
    }

    static func touch(_ t: TouchEvent, seq: UInt64, format: LineFormat) -> String {
        string { touch(t, seq: seq, format: format, into: &$0) }
    }

    /// Appends the touch line to `out` (see `gesture(_:seq:format:into:)`).
    static func touch(_ t: TouchEvent, seq: UInt64, format: LineFormat, into out: inout [UInt8]) {
        let line = LineWriter(kind: "touch", format: format, into: &out)
        line.positional("phase", .string(t.update.phase.rawValue), into: &out)
        line.positional("id", .int(Int64(t.update.id.value)), into: &out)
        line.field("view", .string(t.view ?? ""), into: &out)
        line.field("device", .string(t.update.device.description), into: &out)
        line.field("slot", .int(Int64(t.update.slot)), into: &out)
        line.field("x", .fixed(t.update.location.x, decimals: 2), into: &out)
        line.field("y", .fixed(t.update.location.y, decimals: 2), into: &out)
        line.field("time", .instant(t.time), into: &out)
        line.field("seq", .int(Int64(seq)), into: &out)
        line.end(into: &out)
    }

    /// `device added|removed SYSNAME name="…"`.
    static func device(added: Bool, sysname: String, name: String, seq: UInt64, format: LineFormat) -> String {
        string { out in
            let line = LineWriter(kind: "device", format: format, into: &out)
            line.positional("action", .string(added ? "added" : "removed"), into: &out)
            line.positional("sysname", .string(sysname), into: &out)
            line.field("name", .string(name), into: &out)
            line.field("seq", .int(Int64(seq)), into: &out)
            line.end(into: &out)
        }
    }

    static func output(_ o: GesturePipeline.Output, seq: UInt64, format: LineFormat) -> String {
        string { output(o, seq: seq, format: format, into: &$0) }
    }

    static func output(_ o: GesturePipeline.Output, seq: UInt64, format: LineFormat, into out: inout [UInt8]) {
        switch o {
        case .gesture(let e): gesture(e, seq: seq, format: format, into: &out)
        case .touch(let t): touch(t, seq: seq, format: format, into: &out)
        case .kiosk(let k): kiosk(k, seq: seq, format: format, into: &out)
        }
    }

    /// A kiosk line, field by field.
    static func kiosk(_ k: KioskEvent, seq: UInt64, format: LineFormat, into out: inout [UInt8]) {
        let kind: StaticString = switch k.kind {
        case .wake: "wake"
        case .lock: "lock"
        case .unlock: "unlock"
        case .idle: "idle"
        case .active: "active"
        }
        let line = LineWriter(kind: kind, format: format, into: &out)
        switch k.kind {
        case .wake(let device, let location):
            line.field("device", .string(device.description), into: &out)
            if let s = k.screen { line.field("screen", .string(s), into: &out) }
            line.field("x", .fixed(location.x, decimals: 2), into: &out)
            line.field("y", .fixed(location.y, decimals: 2), into: &out)
        case .lock(let seconds), .idle(let seconds):
            line.field("seconds", .int(Int64(seconds)), into: &out)
            if let s = k.screen { line.field("screen", .string(s), into: &out) }
        case .unlock, .active:
            if let s = k.screen { line.field("screen", .string(s), into: &out) }
        }
        line.field("time", .instant(k.time), into: &out)
        line.field("seq", .int(Int64(seq)), into: &out)
        line.end(into: &out)
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

        init(kind: StaticString, format: LineFormat, into out: inout [UInt8]) {
            self.format = format
            switch format {
            case .text: ReferenceLineEncoder.append(kind, to: &out)
            case .json:
                ReferenceLineEncoder.append(#"{"event":""#, to: &out)
                ReferenceLineEncoder.append(kind, to: &out)
                out.append(UInt8(ascii: "\""))
            }
        }

        /// A value without its key in text (`gesture tap ended …`), keyed in JSON.
        func positional(_ key: StaticString, _ value: Value, into out: inout [UInt8]) {
            switch format {
            case .text: out.append(UInt8(ascii: " ")); write(value, into: &out)
            case .json: field(key, value, into: &out)
            }
        }

        /// Keys are plain ASCII literals: they never need quoting or escaping.
        func field(_ key: StaticString, _ value: Value, into out: inout [UInt8]) {
            switch format {
            case .text:
                out.append(UInt8(ascii: " ")); ReferenceLineEncoder.append(key, to: &out); out.append(UInt8(ascii: "="))
            case .json:
                out.append(UInt8(ascii: ",")); out.append(UInt8(ascii: "\""))
                ReferenceLineEncoder.append(key, to: &out)
                out.append(UInt8(ascii: "\"")); out.append(UInt8(ascii: ":"))
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
                case .text: ReferenceLineEncoder.writeTextString(s, into: &out)
                case .json: ReferenceLineEncoder.writeJSONString(s, into: &out)
                }
            case .int(let i): ReferenceLineEncoder.writeInteger(i, into: &out)
            case .fixed(let d, let decimals): ReferenceLineEncoder.writeFixed(d, decimals: decimals, into: &out)
            case .instant(let t): ReferenceLineEncoder.writeInstant(t, into: &out)
            }
        }
    }

    /// `value` with exactly `decimals` decimals, rounded half away from zero; non-finite values
    /// (which the recognizers never produce) print as 0 so that JSON stays valid.
    static func fixed(_ value: Double, decimals: Int) -> String {
        string { writeFixed(value, decimals: decimals, into: &$0) }
    }

    static func writeFixed(_ value: Double, decimals: Int, into out: inout [UInt8]) {
        guard value.isFinite else { return writeFixed(0, decimals: decimals, into: &out) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { return append(value < 0 ? "-9e18" : "9e18", to: &out) }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        var text = NumberText()
        // Built from the right: the decimals, the point, the integer part, the sign.
        if decimals > 0 {
            text.prepend(units % divisor, width: decimals)
            text.prepend(UInt8(ascii: "."))
        }
        text.prepend(units / divisor, width: 1)
        if value < 0 && units != 0 { text.prepend(UInt8(ascii: "-")) }
        text.append(to: &out)
    }

    /// `seconds.micros` with exactly six decimals, as `Instant.description`.
    static func writeInstant(_ t: Instant, into out: inout [UInt8]) {
        let negative = t.microseconds < 0
        let magnitude = UInt64(negative ? 0 &- t.microseconds : t.microseconds)
        var text = NumberText()
        text.prepend(magnitude % 1_000_000, width: 6)
        text.prepend(UInt8(ascii: "."))
        text.prepend(magnitude / 1_000_000, width: 1)
        if negative { text.prepend(UInt8(ascii: "-")) }
        text.append(to: &out)
    }

    static func writeInteger(_ i: Int64, into out: inout [UInt8]) {
        var text = NumberText()
        text.prepend(i.magnitude, width: 1)
        if i < 0 { text.prepend(UInt8(ascii: "-")) }
        text.append(to: &out)
    }

    /// A number's text, written right to left into a fixed buffer on the stack and appended to
    /// the line in one copy (appending digit by digit cost a capacity and uniqueness check each).
    struct NumberText {
        private var bytes = [UInt8](repeating: 0, count: 48)
        private var start = 48

        mutating func prepend(_ byte: UInt8) {
            start -= 1
            bytes[start] = byte
        }

        /// The decimal digits of `n`, zero-padded on the left to `width`.
        mutating func prepend(_ n: UInt64, width: Int) {
            var rest = n, written = 0
            repeat {
                prepend(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
                rest /= 10
                written += 1
            } while rest > 0
            while written < width { prepend(UInt8(ascii: "0")); written += 1 }
        }

        func append(to out: inout [UInt8]) {
            out.append(contentsOf: bytes[start...])
        }
    }

    /// A literal's bytes, in one copy.
    static func append(_ literal: StaticString, to out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// A string's UTF-8 bytes, in one copy (also for small strings, which have no contiguous
    /// storage of their own and otherwise go byte by byte).
    static func withUTF8<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var s = s
        return s.withUTF8(body)
    }

    /// Bare when it is a plain token; otherwise double-quoted with `\"` and `\\` escaped, and
    /// control characters as `\n`, `\t` or `\u{XX}`.
    static func textString(_ s: String) -> String { string { writeTextString(s, into: &$0) } }

    static func writeTextString(_ s: String, into out: inout [UInt8]) {
        let plain = withUTF8(s) { bytes in
            !bytes.isEmpty && bytes.allSatisfy { b in
                b > 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") && b != UInt8(ascii: "=") && b != 0x7f
            }
        }
        if plain { return withUTF8(s) { out.append(contentsOf: $0) } }
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
        let clean = withUTF8(s) { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 != 0x7f && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
        if clean { return withUTF8(s) { out.append(contentsOf: $0) } }
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

extension ReferenceLineEncoder {
    /// The answer to a request that was applied.
    static func ok(command: String, format: LineFormat) -> String {
        string { out in
            let line = LineWriter(kind: "ok", format: format, into: &out)
            line.field("command", .string(command), into: &out)
            line.end(into: &out)
        }
    }

    /// The answer to `stats`: how many reads the daemon has timed, and the latency from
    /// reading a device to having written the lines to every client, in whole microseconds
    /// (`p50Us`, `p90Us`, `p99Us`, `p999Us`, `maxUs`).
    static func stats(_ latency: LatencyHistogram, format: LineFormat) -> String {
        string { out in
            let line = LineWriter(kind: "stats", format: format, into: &out)
            line.field("reads", .int(Int64(latency.count)), into: &out)
            line.field("p50Us", .int(latency.percentile(0.5).microseconds), into: &out)
            line.field("p90Us", .int(latency.percentile(0.9).microseconds), into: &out)
            line.field("p99Us", .int(latency.percentile(0.99).microseconds), into: &out)
            line.field("p999Us", .int(latency.percentile(0.999).microseconds), into: &out)
            line.field("maxUs", .int(latency.maximum.microseconds), into: &out)
            line.end(into: &out)
        }
    }

    /// The answer to a request that was refused; the client's state is unchanged.
    static func error(command: String, message: String, format: LineFormat) -> String {
        string { out in
            let line = LineWriter(kind: "error", format: format, into: &out)
            line.field("command", .string(command), into: &out)
            line.field("message", .string(message), into: &out)
            line.end(into: &out)
        }
    }
}
