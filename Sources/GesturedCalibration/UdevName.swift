/// A device's name as the pattern of a udev rule's `ATTRS{name}=="…"`, built from its bytes.
///
/// The name is the device's to choose (a USB descriptor), and the rule it goes into is installed
/// by root and applied by udev to every input device. A line break would end the match and start
/// a rule line of the name's making (`ENV{ID_SEAT}="…"` with no match applies to every device);
/// a `"` would end the string, a `\` escape the next byte. These are refused by byte (UTF-8), not
/// by `Character`: `"\r\n"` is one `Character`, and `"` followed by a combining mark (U+0301) is
/// one that is not equal to `"` while its first byte still is the quote. Everything outside
/// printable ASCII is refused too, so the printed rule is plain ASCII a person can read whole
/// before installing it. udev's pattern characters (`*`, `?`, `[`, `]`, `|`) become `?`, which
/// matches them (among others), so the pattern matches the name itself.
public enum UdevName {
    /// Why a name cannot go into a rule: the first byte that cannot.
    public enum Unsafe: Error, Hashable, Sendable, CustomStringConvertible {
        /// A C0 control byte (below 0x20: line breaks, escape) or DEL (0x7f).
        case control(UInt8)
        /// `"` or `\`, which end or escape a udev string.
        case quoting(UInt8)
        /// A byte of a UTF-8 sequence (0x80 and above): not printable ASCII.
        case nonASCII(UInt8)

        public var description: String {
            switch self {
            case .control(let byte): "a control character (byte 0x\(Self.hex(byte)))"
            case .quoting(let byte): "a quote or backslash (byte 0x\(Self.hex(byte)))"
            case .nonASCII(let byte): "a byte outside printable ASCII (0x\(Self.hex(byte)))"
            }
        }

        static func hex(_ byte: UInt8) -> String { (byte < 0x10 ? "0" : "") + String(byte, radix: 16) }
    }

    /// The pattern that matches `name` and nothing a rule could be rewritten by, or the first
    /// byte that keeps it from being one.
    public static func pattern(_ name: String) -> Result<String, Unsafe> {
        var pattern: [UInt8] = []
        pattern.reserveCapacity(name.utf8.count)
        for byte in name.utf8 {
            switch byte {
            case 0..<0x20, 0x7f: return .failure(.control(byte))
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): return .failure(.quoting(byte))
            case 0x80...: return .failure(.nonASCII(byte))
            case UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "|"):
                pattern.append(UInt8(ascii: "?"))
            default: pattern.append(byte)
            }
        }
        return .success(String(decoding: pattern, as: UTF8.self))
    }
}
