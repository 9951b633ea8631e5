/// What a queued line may be merged with when its client reads slowly.
public enum LineMerge: Hashable, Sendable {
    /// Never dropped: replies, `hello`, device lines, discrete gestures.
    case never
    /// A `changed` line or a touch move: while the queue is past its soft bound, an older queued
    /// line with the same key is dropped for it (the newest carries the current values).
    case newest(MergeKey)
    /// A transition of the key's gesture or touch (`began`, `ended`, `cancelled`, `failed`,
    /// touch began/ended/cancelled): never dropped, and lines of the key before it are never
    /// merged with lines after it, so the last `changed` before an `ended` stays.
    case barrier(MergeKey)

    /// How the line for one pipeline output merges.
    public init(_ output: GesturePipeline.Output) {
        switch output {
        case .gesture(let g):
            let key = MergeKey.gesture(name: g.name, view: g.view)
            self = g.state == .changed ? .newest(key) : .barrier(key)
        case .touch(let t):
            self = t.update.phase == .moved ? .newest(.touch(t.update.id)) : .barrier(.touch(t.update.id))
        case .kiosk:
            self = .never
        }
    }
}

/// What one write of a client's pending bytes did, as the shell's writer tells the queue: the
/// system's error numbers stay in the shell, which retries an interrupted call itself.
public enum WriteResult: Hashable, Sendable {
    /// The socket took this many bytes (it may take fewer than offered).
    case wrote(Int)
    /// The socket is full: nothing was taken; wait for it to become writable.
    case wouldBlock
    /// The write failed; the writer keeps why (the client is to be dropped).
    case failed
}

/// What merges: one recognizer's gesture (its name on its view), or one touch.
public enum MergeKey: Hashable, Sendable {
    case gesture(name: String, view: String)
    case touch(TouchID)
}

/// One client's output: the lines of the current wakeup and whatever the socket has not taken,
/// as bytes (written with one call) and line boundaries (for coalescing). The slow-client policy
/// of the protocol (docs/PROTOCOL.md, "Slow clients"), so it lives in the core: no system calls,
/// the caller passes the writer.
///
/// Backpressure keeps meaning: once more than `softLimit` bytes are pending, mergeable lines
/// (`LineMerge.newest`) are coalesced to the newest of each key, as compositors coalesce pointer
/// motion; every other line is kept, in order. A line partly written is never touched. Only when
/// what remains after coalescing exceeds `hardLimit` does `enqueue` report an overflow (the
/// client must be disconnected). Coalescing runs again only after the queue has grown by half the
/// soft bound, so a client stuck above it costs amortized constant work per line.
public struct ClientOutputQueue {
    public let softLimit: Int
    public let hardLimit: Int

    private struct Line {
        /// Offsets in `bytes`; `start` is below `sent` for a line partly written.
        var start: Int, end: Int
        var merge: LineMerge
    }
    private var bytes: [UInt8] = []
    private var lines: [Line] = []
    /// Bytes before this are written; lines before `head` are entirely written.
    private var sent = 0, head = 0
    private var nextCompaction: Int
    /// Lines dropped by coalescing since the queue was made.
    public private(set) var coalescedLines = 0
    /// Whether the last write left bytes behind: the socket is full, so wait for `.writable`
    /// instead of trying again.
    public private(set) var isBlocked = false

    public init(softLimit: Int, hardLimit: Int) {
        self.softLimit = min(softLimit, hardLimit)
        self.hardLimit = hardLimit
        nextCompaction = self.softLimit
    }

    /// Bytes not yet written.
    public var pending: Int { bytes.count - sent }

    /// The lines not yet entirely written, as text (for tests).
    public var queuedLines: [String] {
        lines[head...].map { String(decoding: bytes[max($0.start, sent)..<$0.end], as: UTF8.self) }
    }

    /// Appends one line (its bytes, ending with `\n`); returns false when the client's
    /// unmergeable lines overflow the hard bound.
    public mutating func enqueue(_ line: [UInt8], merge: LineMerge) -> Bool {
        let start = bytes.count
        bytes.append(contentsOf: line)
        lines.append(Line(start: start, end: bytes.count, merge: merge))
        if pending > min(nextCompaction, hardLimit) { coalesce() }
        return pending <= hardLimit
    }

    /// `enqueue(_:merge:)` for each of a step's `lines` within `bytes` (a `Delivery.Part`'s,
    /// where they follow each other): what they span is appended at once, as the lines one by
    /// one would append it.
    public mutating func enqueue(_ lines: ArraySlice<Delivery.Line>, of source: [UInt8]) -> Bool {
        guard let first = lines.first, let last = lines.last else { return pending <= hardLimit }
        let shift = bytes.count - first.range.lowerBound
        var end = bytes.count
        bytes.append(contentsOf: source[first.range.lowerBound..<last.range.upperBound])
        for line in lines {
            assert(line.range.lowerBound + shift == end, "lines that do not follow each other")
            end = line.range.upperBound + shift
            self.lines.append(Line(start: line.range.lowerBound + shift, end: end, merge: line.merge))
        }
        if pending > min(nextCompaction, hardLimit) { coalesce() }
        return pending <= hardLimit
    }

    /// Writes what is pending with one call of `write`.
    /// - Returns: false when the write failed (the queue is left as it was).
    public mutating func flush(_ write: (UnsafeRawBufferPointer) -> WriteResult) -> Bool {
        guard pending > 0 else { isBlocked = false; return true }
        let count: Int
        switch bytes.withUnsafeBytes({ write(UnsafeRawBufferPointer(rebasing: $0[sent...])) }) {
        case .wrote(let written): count = min(max(written, 0), pending)
        case .wouldBlock: count = 0
        case .failed: return false
        }
        sent += count
        while head < lines.count && lines[head].end <= sent { head += 1 }
        isBlocked = sent < bytes.count
        if !isBlocked {
            bytes.removeAll(keepingCapacity: true)
            lines.removeAll(keepingCapacity: true)
            (sent, head, nextCompaction) = (0, 0, softLimit)
        } else if sent > bytes.count / 2 {
            bytes.removeFirst(sent)
            lines.removeFirst(head)
            for i in lines.indices { lines[i].start -= sent; lines[i].end -= sent }
            (sent, head) = (0, 0)
        }
        return true
    }

    /// Drops every mergeable line that a newer line of the same key follows with no transition
    /// of that key in between; keeps everything else in order.
    private mutating func coalesce() {
        var newer = Set<MergeKey>()
        var dropped = [Bool](repeating: false, count: lines.count - head)
        for i in (head..<lines.count).reversed() {
            switch lines[i].merge {
            case .never: break
            case .barrier(let key): newer.remove(key)
            case .newest(let key):
                if !newer.insert(key).inserted && lines[i].start >= sent { dropped[i - head] = true }
            }
        }
        var keptBytes: [UInt8] = [], keptLines: [Line] = []
        keptBytes.reserveCapacity(pending)
        for i in head..<lines.count where !dropped[i - head] {
            let from = max(lines[i].start, sent)
            let start = keptBytes.count - (from - lines[i].start)
            keptBytes.append(contentsOf: bytes[from..<lines[i].end])
            keptLines.append(Line(start: start, end: keptBytes.count, merge: lines[i].merge))
        }
        coalescedLines += (lines.count - head) - keptLines.count
        (bytes, lines, sent, head) = (keptBytes, keptLines, 0, 0)
        nextCompaction = max(softLimit, pending + softLimit / 2)
    }
}
