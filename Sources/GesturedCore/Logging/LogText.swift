/// The text of one log line, made safe for journald and a terminal.
///
/// A log message carries text that others choose: a client's bad request line, a USB device's
/// name, a configuration path. journald splits stderr at newlines and reads a `<N>` at the start
/// of each piece as its priority, so a newline in such text forges a record of its own (an
/// emergency entry from a device's name), a NUL cuts the record short, and escape sequences
/// rewrite a terminal. Every control character (C0, DEL and C1, Unicode's general category
/// `Cc`) and the backslash are written as C escapes (`\n`, `\t`, `\0`, `\x1b`, `\u{85}`, `\\`), so
/// one message is always one line and reads back unambiguously; everything else, non-ASCII
/// letters included, is kept as it is. systemd escapes what it logs the same way (`cescape`).
///
/// It is also the one escaping of every text output that shows what others chose on a terminal
/// (root's, often): `doctor`'s checks (device names, a clone reader's `/proc/PID/comm`, a
/// compositor's error text), `devices`' listing, `calibrate`'s lines and report. A device or a
/// process then cannot end a line, forge one (`problem …`) or retitle and redraw the terminal
/// (`ESC ]`, `ESC [`, C1's CSI U+009B). JSON outputs escape as JSON instead (C0 and DEL as `\u00XX`).
public enum LogText {
    /// `message` with its control characters and backslashes escaped; the same string when it
    /// has none (the usual case costs one scan and no copy).
    public static func escaped(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: needsEscape) else { return message }
        var out = ""
        out.reserveCapacity(message.utf8.count + 8)
        for scalar in message.unicodeScalars {
            guard needsEscape(scalar) else { out.unicodeScalars.append(scalar); continue }
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default:
                out += scalar.value < 0x80 ? "\\x" + hex(scalar.value, digits: 2) : "\\u{" + hex(scalar.value, digits: 2) + "}"
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\\" || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
