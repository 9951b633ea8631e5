/// How a line reaches its buffer: room reserved in the caller's array, then written through a
/// `LineWriter`.
extension LineEncoder {
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
    /// from `zeros` (a memcpy even in a debug build): appended from `repeatElement`, an
    /// unspecialized debug build copies them one generic step per byte, slow enough that the
    /// daemon the tests run (a debug build) would fall behind a client flooding it.
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
}
