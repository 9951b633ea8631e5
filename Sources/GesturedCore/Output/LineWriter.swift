/// The line protocol's writer: one line, field by field, at a raw cursor into room reserved
/// for it (`LineEncoder.write`); strings (LineWriter+Strings.swift) and numbers
/// (LineWriter+Numbers.swift) are written by the extensions beside this file.
extension LineEncoder {
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

        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int
        var count: Int
        let format: LineFormat

        /// `buffer` is the room `LineEncoder.write` reserved: never empty (`fixedRoom`, or a
        /// string's quotes at least), so it has an address.
        init(_ buffer: UnsafeMutableBufferPointer<UInt8>, start: Int, format: LineFormat) {
            guard let address = buffer.baseAddress else { preconditionFailure("a line is written into reserved room") }
            base = address; capacity = buffer.count; count = start; self.format = format
        }

        /// Makes sure `n` more bytes fit in the room the line was given.
        @inline(__always) func reserve(_ n: Int) {
            precondition(n <= capacity &- count, "line longer than the room reserved for it")
        }

        @inline(__always) mutating func byte(_ b: UInt8) {
            reserve(1)
            base[count] = b; count &+= 1
        }

        /// Bytes known to fit (after `reserve`). Keys and ids are short: 4 to 16 bytes go as two
        /// overlapping word copies (first and last word), not a loop or a `memcpy` call.
        @inline(__always) mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
            let n = bytes.count
            guard n > 0, let start = bytes.baseAddress else { return }
            let from = UnsafeRawPointer(start)
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

        @inline(__always) mutating func literal(_ s: StaticString) {
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
        @inline(__always) mutating func key(_ key: StaticString) {
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
        @inline(__always) private mutating func positional(_ key: StaticString) {
            switch format {
            case .text: byte(UInt8(ascii: " "))
            case .json: self.key(key)
            }
        }

        @inline(__always) mutating func field(_ key: StaticString, string: String) { self.key(key); self.string(string) }
        @inline(__always) mutating func field(_ key: StaticString, name: DeviceName) { self.key(key); value(name: name) }
        /// A device's name as a value, without its key (after a `GesturePrefix` head).
        mutating func value(name: DeviceName) { name.withUTF8 { bytes(quoting: $0) } }
        @inline(__always) mutating func field(_ key: StaticString, token: StaticString) { self.key(key); self.token(token) }
        @inline(__always) mutating func field(_ key: StaticString, int: Int64) { self.key(key); integer(int) }
        @inline(__always) mutating func field(_ key: StaticString, unsigned: UInt64) { self.key(key); digits(unsigned, width: 1) }
        @inline(__always) mutating func field(_ key: StaticString, fixed: Double, decimals: Int) {
            self.key(key); self.fixed(fixed, decimals: decimals)
        }
        @inline(__always) mutating func field(_ key: StaticString, instant: Instant) { self.key(key); self.instant(instant) }

        @inline(__always) mutating func positional(_ key: StaticString, string: String) { positional(key); self.string(string) }
        @inline(__always) mutating func positional(_ key: StaticString, token: StaticString) { positional(key); self.token(token) }
        @inline(__always) mutating func positional(_ key: StaticString, unsigned: UInt64) { positional(key); digits(unsigned, width: 1) }

        /// An enum's name: a plain token, bare in text, quoted in JSON.
        @inline(__always) private mutating func token(_ s: StaticString) {
            switch format {
            case .text: literal(s)
            case .json: byte(UInt8(ascii: "\"")); literal(s); byte(UInt8(ascii: "\""))
            }
        }
    }
}
