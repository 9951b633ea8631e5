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
        let prefix = e.label.prefix(format)
        var strings = e.sample.device.count + (e.screen?.utf8.count ?? 0)
        let template = e.template ?? ""
        strings += template.utf8.count
        let room = LineWriter.fixedRoom + prefix.head.count + prefix.middle.count + LineWriter.maximumEscapedLength(strings)
        write(format: format, room: room, into: &out) { line in
            line.encoded(prefix.head)          // gesture TYPE
            line.positional("state", token: e.state.token)
            line.encoded(prefix.middle)        // NAME view=VIEW
            line.field("device", name: e.sample.device)
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

    /// The pieces of a gesture line that one recognizer repeats in every event, encoded once
    /// (held by its `GestureLabel`): `head` is the line up to the state (`gesture TYPE`),
    /// `middle` from the name to the view (` NAME view=VIEW`), written by the same `LineWriter`
    /// calls as the rest of the line, so the line is byte for byte what field-by-field
    /// encoding makes.
    struct GesturePrefix: Sendable {
        let head: [UInt8]
        let middle: [UInt8]

        init(type: String, name: String, view: String, format: LineFormat) {
            var head: [UInt8] = [], middle: [UInt8] = []
            write(format: format, room: LineWriter.fixedRoom + LineWriter.maximumEscapedLength(type.utf8.count),
                  into: &head) { line in
                line.begin("gesture")
                line.positional("type", string: type)
            }
            write(format: format, room: LineWriter.fixedRoom + LineWriter.maximumEscapedLength(name.utf8.count)
                  + LineWriter.maximumEscapedLength(view.utf8.count), into: &middle) { line in
                line.positional("name", string: name)
                line.field("view", string: view)
            }
            self.head = head; self.middle = middle
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

    // MARK: Assembly

    /// Appends one line: `body` writes its fields through a `LineWriter` straight into `out`'s
    /// spare capacity, which is made large enough for the line first.
    ///
    /// Why a raw cursor: appending field by field to the array costs a capacity check, a
    /// uniqueness check and a `memcpy` call per piece.
    /// The cursor writes bytes; the one check per piece is that the line stays within the room
    /// it was given, so a wrong bound stops the daemon rather than corrupting memory.
    ///
    /// - Parameter strings: the UTF-8 length of every `String` the line will hold (enum tokens
    ///   and numbers are covered by `LineWriter.fixedRoom`).
    static func line(_ kind: StaticString, format: LineFormat, strings: Int, into out: inout [UInt8],
                     _ body: (inout LineWriter) -> Void) {
        write(format: format, room: LineWriter.fixedRoom + LineWriter.maximumEscapedLength(strings), into: &out) { line in
            line.begin(kind)
            body(&line)
            line.end()
        }
    }

    /// Appends what `body` writes through a `LineWriter`, given `room` bytes of `out`'s spare
    /// capacity (the writer traps rather than write past them).
    ///
    /// Swift 6.2 and later write straight into the spare capacity (an output span). Swift 6.0
    /// (Debian 13's swiftlang) has no public way to, so there the room is appended as zeros and
    /// what the line left unused is removed: the same bytes, and no allocation once `out` has
    /// grown to its working size, at the cost of clearing the room first. The zeros are copied
    /// from `zeros` (a memcpy even in a debug build): appended from `repeatElement`, the
    /// unspecialized debug build copied them one generic step per byte, about 2 ms a line, and
    /// the daemon the tests run (a debug build) fell behind a client flooding it with requests.
    static func write(format: LineFormat, room: Int, into out: inout [UInt8], _ body: (inout LineWriter) -> Void) {
        #if compiler(>=6.2)
        out.append(addingCapacity: room) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                var writer = LineWriter(buffer, start: initialized, format: format)
                body(&writer)
                initialized = writer.count
            }
        }
        #else
        let start = out.count
        var missing = room
        while missing > 0 {
            let count = min(missing, zeros.count)
            out.append(contentsOf: zeros[..<count])
            missing -= count
        }
        let used = out.withUnsafeMutableBufferPointer { all in
            var writer = LineWriter(UnsafeMutableBufferPointer(rebasing: all[start...]), start: 0, format: format)
            body(&writer)
            return writer.count
        }
        out.removeLast(room - used)
        #endif
    }

    #if !compiler(>=6.2)
    /// What `write` clears a line's room with, a piece at a time.
    private static let zeros = [UInt8](repeating: 0, count: 4096)
    #endif

    /// Writes one line field by field at a cursor: text `kind positional… key=value…\n`, or
    /// JSON `{"event":kind,"key":value,…}\n`.
    struct LineWriter {
        /// Room for everything but strings' own bytes: the kind, keys, punctuation, enum
        /// tokens and numbers of the longest line (gesture: 20 fields of at most 14 bytes of key,
        /// 4 of punctuation and 26 of number or token, ≈ 900 bytes).
        static let fixedRoom = 2048

        /// The most a string of `count` UTF-8 bytes can take, quoted and escaped: two quotes,
        /// and six bytes per byte (`\u00XX` in JSON, `\u{XX}` in text).
        static func maximumEscapedLength(_ count: Int) -> Int { 6 * count + 2 }

        private let base: UnsafeMutablePointer<UInt8>
        private let capacity: Int
        private(set) var count: Int
        let format: LineFormat

        init(_ buffer: UnsafeMutableBufferPointer<UInt8>, start: Int, format: LineFormat) {
            base = buffer.baseAddress!; capacity = buffer.count; count = start; self.format = format
        }

        /// Makes sure `n` more bytes fit in the room the line was given.
        private func reserve(_ n: Int) {
            precondition(n <= capacity &- count, "line longer than the room reserved for it")
        }

        private mutating func byte(_ b: UInt8) {
            reserve(1)
            base[count] = b; count &+= 1
        }

        /// Bytes known to fit (after `reserve`). Keys and ids are short: 4 to 16 bytes go as two
        /// overlapping word copies (first and last word), not a loop or a `memcpy` call.
        private mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
            let n = bytes.count
            guard n > 0 else { return }
            let from = UnsafeRawPointer(bytes.baseAddress!)
            let to = UnsafeMutableRawPointer(base + count)
            switch n {
            case 8...16:
                to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                (to + (n &- 8)).storeBytes(of: (from + (n &- 8)).loadUnaligned(as: UInt64.self), as: UInt64.self)
            case 4..<8:
                to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
                (to + (n &- 4)).storeBytes(of: (from + (n &- 4)).loadUnaligned(as: UInt32.self), as: UInt32.self)
            case 1..<4:
                for i in 0..<n { base[count &+ i] = bytes[i] }
            default:
                to.copyMemory(from: from, byteCount: n)
            }
            count &+= n
        }

        private mutating func literal(_ s: StaticString) {
            reserve(s.utf8CodeUnitCount)
            copy(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        }

        /// Bytes already encoded for this format (a `GesturePrefix` piece).
        mutating func encoded(_ bytes: [UInt8]) {
            reserve(bytes.count)
            bytes.withUnsafeBufferPointer { copy($0) }
        }

        mutating func begin(_ kind: StaticString) {
            switch format {
            case .text: literal(kind)
            case .json: literal(#"{"event":""#); literal(kind); byte(UInt8(ascii: "\""))
            }
        }

        mutating func end() {
            if format == .json { byte(UInt8(ascii: "}")) }
            byte(UInt8(ascii: "\n"))
        }

        /// Keys are plain ASCII literals: they never need quoting or escaping.
        private mutating func key(_ key: StaticString) {
            let n = key.utf8CodeUnitCount
            reserve(n &+ 5)   // one check for the key and its punctuation
            switch format {
            case .text:
                base[count] = UInt8(ascii: " "); count &+= 1
                copy(UnsafeBufferPointer(start: key.utf8Start, count: n))
                base[count] = UInt8(ascii: "="); count &+= 1
            case .json:
                base[count] = UInt8(ascii: ","); base[count &+ 1] = UInt8(ascii: "\""); count &+= 2
                copy(UnsafeBufferPointer(start: key.utf8Start, count: n))
                base[count] = UInt8(ascii: "\""); base[count &+ 1] = UInt8(ascii: ":"); count &+= 2
            }
        }

        /// A value without its key in text (`gesture tap ended …`), keyed in JSON.
        private mutating func positional(_ key: StaticString) {
            switch format {
            case .text: byte(UInt8(ascii: " "))
            case .json: self.key(key)
            }
        }

        mutating func field(_ key: StaticString, string: String) { self.key(key); self.string(string) }
        mutating func field(_ key: StaticString, name: DeviceName) { self.key(key); name.withUTF8 { bytes(quoting: $0) } }
        mutating func field(_ key: StaticString, token: StaticString) { self.key(key); self.token(token) }
        mutating func field(_ key: StaticString, int: Int64) { self.key(key); integer(int) }
        mutating func field(_ key: StaticString, unsigned: UInt64) { self.key(key); digits(unsigned, width: 1) }
        mutating func field(_ key: StaticString, fixed: Double, decimals: Int) {
            self.key(key); self.fixed(fixed, decimals: decimals)
        }
        mutating func field(_ key: StaticString, instant: Instant) { self.key(key); self.instant(instant) }

        mutating func positional(_ key: StaticString, string: String) { positional(key); self.string(string) }
        mutating func positional(_ key: StaticString, token: StaticString) { positional(key); self.token(token) }
        mutating func positional(_ key: StaticString, unsigned: UInt64) { positional(key); digits(unsigned, width: 1) }

        // MARK: Values

        /// An enum's name: a plain token, bare in text, quoted in JSON.
        private mutating func token(_ s: StaticString) {
            switch format {
            case .text: literal(s)
            case .json: byte(UInt8(ascii: "\"")); literal(s); byte(UInt8(ascii: "\""))
            }
        }

        /// Text: bare when it is a plain token; otherwise double-quoted with `\"` and `\\`
        /// escaped, and control characters as `\n`, `\t`, `\r` or `\u{X}`. JSON: always quoted,
        /// control characters as `\n`, `\t`, `\r` or `\u00XX`.
        /// A string as a value, without a key (`textString`, `jsonString`).
        mutating func value(_ s: String) { string(s) }

        private mutating func string(_ s: String) {
            var s = s
            s.withUTF8 { bytes(quoting: $0) }
        }

        /// UTF-8 bytes as a string value, quoted and escaped as `string(_:)` says.
        private mutating func bytes(quoting bytes: UnsafeBufferPointer<UInt8>) {
            reserve(LineWriter.maximumEscapedLength(bytes.count))
            switch format {
            case .text:
                if !bytes.isEmpty && bytes.allSatisfy(Self.isBareInText) { return copy(bytes) }
                base[count] = UInt8(ascii: "\""); count &+= 1
                escape(bytes, json: false)
                base[count] = UInt8(ascii: "\""); count &+= 1
            case .json:
                base[count] = UInt8(ascii: "\""); count &+= 1
                if bytes.allSatisfy(Self.isBareInJSON) { copy(bytes) } else { escape(bytes, json: true) }
                base[count] = UInt8(ascii: "\""); count &+= 1
            }
        }

        private static func isBareInText(_ b: UInt8) -> Bool {
            b > 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") && b != UInt8(ascii: "=") && b != 0x7f
        }

        private static func isBareInJSON(_ b: UInt8) -> Bool {
            b >= 0x20 && b != 0x7f && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\")
        }

        /// Byte by byte: every character escaped is ASCII, and the bytes of a multi-byte UTF-8
        /// sequence are never ASCII, so they pass through unchanged. Room was reserved.
        private mutating func escape(_ bytes: UnsafeBufferPointer<UInt8>, json: Bool) {
            let hex: StaticString = "0123456789abcdef"
            for b in bytes {
                let escaped: UInt8? = switch b {
                case UInt8(ascii: "\""): UInt8(ascii: "\"")
                case UInt8(ascii: "\\"): UInt8(ascii: "\\")
                case UInt8(ascii: "\n"): UInt8(ascii: "n")
                case UInt8(ascii: "\t"): UInt8(ascii: "t")
                case UInt8(ascii: "\r"): UInt8(ascii: "r")
                default: nil
                }
                if let escaped {
                    base[count] = UInt8(ascii: "\\"); base[count + 1] = escaped; count &+= 2
                } else if b < 0x20 || b == 0x7f {
                    let (high, low) = (hex.utf8Start[Int(b >> 4)], hex.utf8Start[Int(b & 0xf)])
                    for c in json ? #"\u00"#.utf8 : #"\u{"#.utf8 { base[count] = c; count &+= 1 }
                    if json || b >= 0x10 { base[count] = high; count &+= 1 }
                    base[count] = low; count &+= 1
                    if !json { base[count] = UInt8(ascii: "}"); count &+= 1 }
                } else {
                    base[count] = b; count &+= 1
                }
            }
        }

        private mutating func integer(_ i: Int64) {
            if i < 0 { byte(UInt8(ascii: "-")) }
            digits(i.magnitude, width: 1)
        }

        /// `value` with exactly `decimals` decimals (0…6), rounded half away from zero;
        /// non-finite values (which the recognizers never produce) print as 0 so that JSON stays
        /// valid.
        mutating func fixed(_ value: Double, decimals: Int) {
            guard value.isFinite else { return fixed(0, decimals: decimals) }
            let scaled = abs(value) * Self.powersOfTen[decimals]
            guard scaled < 9e18 else { return literal(value < 0 ? "-9e18" : "9e18") }
            // Rounded half away from zero without libm's `round` call: the fraction
            // `scaled - trunc(scaled)` is exact in binary floating point, so comparing it with
            // 0.5 decides as `round` does. (No double lies in [9e18 - 0.5, 9e18): the guard
            // above sends the same values to "9e18".)
            // Through Int64 (0 ≤ scaled < 9e18 < 2⁶³): one conversion instruction, where
            // `UInt64(Double)` also handles values from 2⁶³ on.
            let whole = Int64(scaled)
            var units = UInt64(truncatingIfNeeded: whole)
            if scaled - Double(whole) >= 0.5 { units &+= 1 }
            if value < 0 && units != 0 { byte(UInt8(ascii: "-")) }
            guard decimals > 0 else { return digits(units, width: 1) }
            // One pass, right to left, two digits at a time: the `decimals` digits of the
            // fraction, the point, then the integer part (at least one digit); where splitting
            // integer and fraction first cost a division and two digit writers.
            var length = decimals &+ 1
            var power = Self.integerPowersOfTen[length]
            while length < 20 && units >= power { length &+= 1; power = power &* 10 }
            reserve(length &+ 1)
            var end = count &+ length &+ 1
            var rest = units
            var fraction = decimals
            while fraction >= 2 {
                end &-= 2
                pair(rest % 100, at: end)
                rest /= 100
                fraction &-= 2
            }
            if fraction == 1 {
                end &-= 1
                base[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            end &-= 1
            base[end] = UInt8(ascii: ".")
            while end &- count >= 2 {
                end &-= 2
                pair(rest % 100, at: end)
                rest /= 100
            }
            if end > count { base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest) }
            count &+= length &+ 1
        }

        /// Two decimal digits of `n` (< 100) at `position` (room reserved).
        private func pair(_ n: UInt64, at position: Int) {
            let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
            let i = Int(n) &* 2
            base[position] = pairs.utf8Start[i]; base[position &+ 1] = pairs.utf8Start[i &+ 1]
        }

        /// 10^0 … 10^6 as the scale of `fixed` (exact in a `Double`).
        private static let powersOfTen: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]
        /// 10^0 … 10^7: the smallest number with one more digit than `fixed` writes at least.
        private static let integerPowersOfTen: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000]

        /// `seconds.micros` with exactly six decimals, as `Instant.description`.
        private mutating func instant(_ t: Instant) {
            let negative = t.microseconds < 0
            let magnitude = t.microseconds.magnitude
            if negative { byte(UInt8(ascii: "-")) }
            digits(magnitude / 1_000_000, width: 1)
            byte(UInt8(ascii: "."))
            digits(magnitude % 1_000_000, width: 6)
        }

        /// The decimal digits of `n`, zero-padded on the left to `width`, written right to left
        /// two at a time.
        private mutating func digits(_ n: UInt64, width: Int) {
            // Most numbers here are one or two digits (a fraction with 2 decimals, a count).
            if n < 10 && width <= 1 {
                reserve(1)
                base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n); count &+= 1
                return
            }
            if n < 100 && (width == 2 || (n >= 10 && width <= 1)) {
                reserve(2)
                pair(n, at: count); count &+= 2
                return
            }
            var length = 1
            var power: UInt64 = 10
            while length < 20 && n >= power { length += 1; power = power &* 10 }
            let total = max(length, width)
            reserve(total)
            var end = count &+ total
            var rest = n
            while rest >= 100 {
                end &-= 2
                pair(rest % 100, at: end)
                rest /= 100
            }
            if rest >= 10 {
                end &-= 2
                pair(rest, at: end)
            } else {
                end &-= 1
                base[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
            }
            while end > count { end &-= 1; base[end] = UInt8(ascii: "0") }
            count &+= total
        }
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

extension LineEncoder {
    /// The answer to a request that was applied.
    public static func ok(command: String, format: LineFormat) -> String {
        string { out in
            line("ok", format: format, strings: command.utf8.count, into: &out) { $0.field("command", string: command) }
        }
    }

    /// The answer to `stats`: how many reads the daemon has timed, and the latency from
    /// reading a device to having written the lines to every client, in whole microseconds
    /// (`p50Us`, `p90Us`, `p99Us`, `p999Us`, `maxUs`).
    public static func stats(_ latency: LatencyHistogram, format: LineFormat) -> String {
        string { out in
            line("stats", format: format, strings: 0, into: &out) { line in
                line.field("reads", int: Int64(latency.count))
                line.field("p50Us", int: latency.percentile(0.5).microseconds)
                line.field("p90Us", int: latency.percentile(0.9).microseconds)
                line.field("p99Us", int: latency.percentile(0.99).microseconds)
                line.field("p999Us", int: latency.percentile(0.999).microseconds)
                line.field("maxUs", int: latency.maximum.microseconds)
            }
        }
    }

    /// The answer to a request that was refused; the client's state is unchanged.
    public static func error(command: String, message: String, format: LineFormat) -> String {
        string { out in
            line("error", format: format, strings: command.utf8.count + message.utf8.count, into: &out) { line in
                line.field("command", string: command)
                line.field("message", string: message)
            }
        }
    }
}

// The names of enum values in lines: literals, so that a line copies them without building a
// `String`. Each must equal the case's `rawValue` (LineEncoderTests checks every case).

extension GestureState {
    var token: StaticString {
        switch self {
        case .began: "began"
        case .changed: "changed"
        case .ended: "ended"
        case .cancelled: "cancelled"
        case .failed: "failed"
        }
    }
}

extension TouchPhase {
    var token: StaticString {
        switch self {
        case .began: "began"
        case .moved: "moved"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }
}

extension SwipeDirection {
    var token: StaticString {
        switch self {
        case .right: "right"
        case .left: "left"
        case .up: "up"
        case .down: "down"
        }
    }
}

extension ScreenEdge {
    var token: StaticString {
        switch self {
        case .top: "top"
        case .left: "left"
        case .bottom: "bottom"
        case .right: "right"
        }
    }
}

extension ForwardedTouch.Kind {
    var token: StaticString {
        switch self {
        case .down: "down"
        case .move: "move"
        case .cancel: "cancel"
        case .up: "up"
        }
    }
}
