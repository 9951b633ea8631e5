/// Strings in a line: bare or quoted in text, quoted in JSON, escaped as the protocol says.
extension LineEncoder.LineWriter {
    /// Text: bare when it is a plain token; otherwise double-quoted with `\"` and `\\`
    /// escaped, and control characters as `\n`, `\t`, `\r` or `\u{X}`. JSON: always quoted,
    /// control characters as `\n`, `\t`, `\r` or `\u00XX`.
    /// A string as a value, without a key (`textString`, `jsonString`).
    mutating func value(_ s: String) { string(s) }

    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { bytes(quoting: $0) }
    }

    /// UTF-8 bytes as a string value, quoted and escaped as `string(_:)` says.
    mutating func bytes(quoting bytes: UnsafeBufferPointer<UInt8>) {
        reserve(Self.maximumEscapedLength(bytes.count))
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
}
