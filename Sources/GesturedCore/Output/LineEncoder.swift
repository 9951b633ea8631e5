/// The line protocol, version 1 (CONTRACT.md §3, docs/PROTOCOL.md): one event per line, in text
/// (`kind positional… key=value…`) or JSON (one object, the same keys plus `"event"`).
///
/// Numbers have fixed decimals so that lines are byte-identical across runs and machines:
/// `time` 6 (microseconds), locations, translations and pan velocities 2, `scale` 3, `rotation`
/// 4, pinch and rotation `velocity` 2, `duration` and `score` 3. Negative zero prints as zero.
public enum LineFormat: String, Hashable, Sendable, CaseIterable {
    case text, json
}

public enum LineEncoder {
    public static let protocolVersion = 1

    /// The greeting, first line to every client.
    public static func hello(format: LineFormat) -> String {
        string { hello(format: format, into: &$0) }
    }

    public static func hello(format: LineFormat, into out: inout [UInt8]) {
        line("hello", format: format, strings: 0, into: &out) { line in
            line.field("version", int: Int64(protocolVersion))
            line.field("daemon", token: "gestured")
        }
    }

    public static func gesture(_ e: GestureEvent, seq: UInt64, format: LineFormat) -> String {
        string { gesture(e, seq: seq, format: format, into: &$0) }
    }

    /// Appends the gesture line to `out`. The daemon and replay encode this way, into a buffer
    /// they reuse, so that a line costs no allocation.
    public static func gesture(_ e: GestureEvent, seq: UInt64, format: LineFormat, into out: inout [UInt8]) {
        let head = e.label.prefix(format).head(e.state)
        var strings = e.sample.device.count + (e.screen?.utf8.count ?? 0)
        let template = e.template ?? ""
        strings += template.utf8.count
        let room = LineWriter.fixedRoom + head.count + LineWriter.maximumEscapedLength(strings)
        write(format: format, room: room, into: &out) { line in
            line.encoded(head)                 // gesture TYPE STATE NAME view=VIEW device=
            line.value(name: e.sample.device)
            if let screen = e.screen { line.field("screen", string: screen) }
            line.field("time", instant: e.time)
            line.field("seq", unsigned: seq)
            line.field("touches", int: Int64(e.sample.touches))
            line.field("x", fixed: e.sample.location.x, decimals: 2)
            line.field("y", fixed: e.sample.location.y, decimals: 2)
            line.field("viewX", fixed: e.viewLocation.x, decimals: 2)
            line.field("viewY", fixed: e.viewLocation.y, decimals: 2)
            switch e.sample.values {
            case .none:
                break
            case .tap(let taps):
                line.field("taps", int: Int64(taps))
            case .swipe(let direction):
                line.field("direction", token: direction.token)
            case .pan(let translation, let velocity):
                pan(translation, velocity, &line)
            case .screenEdgePan(let translation, let velocity, let edge):
                pan(translation, velocity, &line)
                line.field("edge", token: edge.token)
            case .pinch(let scale, let velocity):
                line.field("scale", fixed: scale, decimals: 3)
                line.field("velocity", fixed: velocity, decimals: 2)
            case .rotation(let rotation, let velocity):
                line.field("rotation", fixed: rotation, decimals: 4)
                line.field("velocity", fixed: velocity, decimals: 2)
            case .longPress(let duration):
                line.field("duration", fixed: duration.seconds, decimals: 3)
            case .stroke(_, let score):
                line.field("stroke", string: template)
                line.field("score", fixed: score, decimals: 3)
            }
            line.end()
        }
    }

    public static func touch(_ t: TouchEvent, seq: UInt64, format: LineFormat) -> String {
        string { touch(t, seq: seq, format: format, into: &$0) }
    }

    /// Appends the touch line to `out` (see `gesture(_:seq:format:into:)`).
    public static func touch(_ t: TouchEvent, seq: UInt64, format: LineFormat, into out: inout [UInt8]) {
        let view = t.view ?? ""
        let strings = view.utf8.count + t.update.device.count + (t.screen?.utf8.count ?? 0)
        line("touch", format: format, strings: strings, into: &out) { line in
            line.positional("phase", token: t.update.phase.token)
            line.positional("id", unsigned: t.update.id.value)
            line.field("view", string: view)
            line.field("device", name: t.update.device)
            if let screen = t.screen { line.field("screen", string: screen) }
            line.field("slot", int: Int64(t.update.slot))
            line.field("x", fixed: t.update.location.x, decimals: 2)
            line.field("y", fixed: t.update.location.y, decimals: 2)
            line.field("time", instant: t.time)
            line.field("seq", unsigned: seq)
        }
    }

    /// `forward PHASE ID device=… slot=… [trackingID=…] [x=… y=…] time=… seq=…`: what the
    /// application behind a pass-through device received (`replay --forwarded`, docs/PROTOCOL.md);
    /// positions in device units, `slot` the clone's.
    public static func forwarded(_ f: ForwardedTouch, device: DeviceName, seq: UInt64, format: LineFormat,
                                 into out: inout [UInt8]) {
        line("forward", format: format, strings: device.count, into: &out) { line in
            line.positional("phase", token: f.kind.token)
            line.positional("id", unsigned: f.touch.value)
            line.field("device", name: device)
            line.field("slot", int: Int64(f.slot))
            switch f.kind {
            case .down(let trackingID, let p):
                line.field("trackingID", int: Int64(trackingID))
                line.field("x", int: Int64(p.x)); line.field("y", int: Int64(p.y))
            case .move(let p):
                line.field("x", int: Int64(p.x)); line.field("y", int: Int64(p.y))
            case .cancel, .up: break
            }
            line.field("time", instant: f.time)
            line.field("seq", unsigned: seq)
        }
    }

    /// `device added|removed SYSNAME name="…"`.
    public static func device(added: Bool, sysname: String, name: String, seq: UInt64, format: LineFormat) -> String {
        string { out in
            line("device", format: format, strings: sysname.utf8.count + name.utf8.count, into: &out) { line in
                line.positional("action", token: added ? "added" : "removed")
                line.positional("sysname", string: sysname)
                line.field("name", string: name)
                line.field("seq", unsigned: seq)
            }
        }
    }

    /// A `trace` line: one recognizer transition with its reason, as `--trace` logs it
    /// (`TIME name: old → new (why)`), for clients that subscribe to the trace. Diagnostics, not
    /// events: no `seq`.
    public static func trace(_ text: String, format: LineFormat, into out: inout [UInt8]) {
        line("trace", format: format, strings: text.utf8.count, into: &out) { line in
            line.field("text", string: text)
        }
    }

    public static func output(_ o: GesturePipeline.Output, seq: UInt64, format: LineFormat) -> String {
        string { output(o, seq: seq, format: format, into: &$0) }
    }

    public static func output(_ o: GesturePipeline.Output, seq: UInt64, format: LineFormat, into out: inout [UInt8]) {
        switch o {
        case .gesture(let e): gesture(e, seq: seq, format: format, into: &out)
        case .touch(let t): touch(t, seq: seq, format: format, into: &out)
        case .kiosk(let k): kiosk(k, seq: seq, format: format, into: &out)
        }
    }

    private static func pan(_ translation: Vector, _ velocity: Vector, _ line: inout LineWriter) {
        line.field("translationX", fixed: translation.dx, decimals: 2)
        line.field("translationY", fixed: translation.dy, decimals: 2)
        line.field("velocityX", fixed: velocity.dx, decimals: 2)
        line.field("velocityY", fixed: velocity.dy, decimals: 2)
    }

    /// A line as a `String`, for callers that want one (tests, rare lines).
    static func string(_ write: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` with exactly `decimals` decimals, rounded half away from zero; non-finite values
    /// (which the recognizers never produce) print as 0 so that JSON stays valid.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        string { write(format: .text, room: LineWriter.fixedRoom, into: &$0) { $0.fixed(value, decimals: decimals) } }
    }

    /// How a string prints as a text value: bare when it is a plain token, else quoted.
    public static func textString(_ s: String) -> String { value(s, format: .text) }

    /// How a string prints as a JSON value: quoted, `"` and `\\` escaped, control characters as
    /// `\n`, `\t`, `\r` or `\u00XX` (also for `gestured devices --json` and the benchmark's JSON).
    public static func jsonString(_ s: String) -> String { value(s, format: .json) }

    private static func value(_ s: String, format: LineFormat) -> String {
        string { write(format: format, room: LineWriter.maximumEscapedLength(s.utf8.count), into: &$0) { $0.value(s) } }
    }
}
