/// The configuration text as UTF-8 bytes, with byte offsets turned into line:column on demand.
///
/// The parser and the validators speak in byte offsets (cheap to record); only diagnostics need
/// line and column, so the conversion happens once per diagnostic, in time independent of the
/// line's length: columns count scalars, and `scalarsBefore` holds how many scalars start before
/// every `stride`-th byte, so a column costs a binary search and at most `stride` bytes
/// (counting from the line's start would make many diagnostics on one long line quadratic).
struct SourceText {
    let bytes: [UInt8]
    /// Byte offset of the first byte of each line; `lineStarts[0] == 0`.
    private let lineStarts: [Int]
    /// Scalars that start before byte `k * stride`, for each k.
    private let scalarsBefore: [Int]
    private static let stride = 64

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
        var before: [Int] = []
        before.reserveCapacity(bytes.count / Self.stride + 1)
        var scalars = 0
        for (index, byte) in bytes.enumerated() {
            if index % Self.stride == 0 { before.append(scalars) }
            if byte & 0xC0 != 0x80 { scalars += 1 }
        }
        if bytes.count % Self.stride == 0 { before.append(scalars) }
        scalarsBefore = before
    }

    /// How many scalars start before byte `offset` (every byte that is not a UTF-8 continuation
    /// byte starts one); `steps` counts the bytes looked at.
    private func scalars(before offset: Int, steps: inout Int) -> Int {
        var count = scalarsBefore[offset / Self.stride]
        var i = offset - offset % Self.stride
        while i < offset {
            steps += 1
            if bytes[i] & 0xC0 != 0x80 { count += 1 }
            i += 1
        }
        return count
    }

    /// The 1-based line and column of `offset` (which may be `bytes.count`, the end of the text).
    func position(of offset: Int) -> (line: Int, column: Int) {
        var steps = 0
        return position(of: offset, steps: &steps)
    }

    /// `position(of:)`, counting its steps (bytes scanned and binary-search probes), so a test
    /// can check the cost does not grow with the line's length without timing anything.
    func position(of offset: Int, steps: inout Int) -> (line: Int, column: Int) {
        let offset = min(max(offset, 0), bytes.count)
        // The last line start that is <= offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            steps += 1
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let column = 1 + scalars(before: offset, steps: &steps) - scalars(before: lineStarts[low], steps: &steps)
        return (low + 1, column)
    }

    /// "L:C" of `offset`, for messages that refer to another place ("first defined at 3:9").
    func positionText(of offset: Int) -> String {
        let p = position(of: offset)
        return "\(p.line):\(p.column)"
    }
}
