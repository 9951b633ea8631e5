import GesturedIO

/// Buffered stdout for line output: one write per 64 KiB rather than per line.
struct OutputBuffer {
    private var bytes: [UInt8] = []
    init() { bytes.reserveCapacity(1 << 16) }

    mutating func append(_ line: String) {
        bytes.append(contentsOf: line.utf8)
        if bytes.count >= 1 << 16 { flush() }
    }

    /// Takes the encoded lines in `lines`, leaving it empty (capacity kept).
    mutating func take(_ lines: inout [UInt8]) {
        bytes.append(contentsOf: lines)
        lines.removeAll(keepingCapacity: true)
        if bytes.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        try? FileDescriptor.standardOutput.writeAll(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
