/// The configuration text as UTF-8 bytes, with byte offsets turned into line:column on demand.
///
/// The locator and the validators speak in byte offsets (cheap to record); only diagnostics need
/// line and column, so the conversion happens once per diagnostic.
struct SourceText {
    let bytes: [UInt8]
    /// Byte offset of the first byte of each line; `lineStarts[0] == 0`.
    private let lineStarts: [Int]

    init(_ text: String) {
        bytes = Array(text.utf8)
        var starts = [0]
        var i = 0
        while i < bytes.count {
            // "\r\n" is one line break; a lone "\r" is one too, as in JSON5.
            if bytes[i] == 0x0A {
                starts.append(i + 1)
            } else if bytes[i] == 0x0D {
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
        lineStarts = starts
    }

    /// The 1-based line and column of `offset` (which may be `bytes.count`, the end of the text).
    func position(of offset: Int) -> (line: Int, column: Int) {
        let offset = min(max(offset, 0), bytes.count)
        // The last line start that is <= offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        var column = 1
        var i = lineStarts[low]
        while i < offset {
            // Count scalars: every byte that is not a UTF-8 continuation byte starts one.
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (low + 1, column)
    }

    /// "L:C" of `offset`, for messages that refer to another place ("first defined at 3:9").
    func positionText(of offset: Int) -> String {
        let p = position(of: offset)
        return "\(p.line):\(p.column)"
    }
}
