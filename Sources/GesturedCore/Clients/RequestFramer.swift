/// Splits a client's byte stream into request lines, with a bound on their length.
///
/// Bytes arrive in arbitrary pieces; `append` takes them and `next()` hands out complete lines
/// (without the newline). A line longer than `ClientRequest.maximumLength` is reported once as
/// `.tooLong` and its bytes are dropped up to the next newline, so a client that never sends a
/// newline cannot make the daemon buffer without bound.
public struct RequestFramer: Sendable {
    public enum Item: Hashable, Sendable {
        case line(String)
        case tooLong
    }

    private var pending: [UInt8] = []
    /// Discarding the rest of an overlong line.
    private var skipping = false
    private var items: [Item] = []
    private var nextItem = 0

    public init() {}

    public mutating func append(_ bytes: [UInt8]) {
        if nextItem == items.count { items.removeAll(keepingCapacity: true); nextItem = 0 }
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !skipping { items.append(.line(String(decoding: pending, as: UTF8.self))) }
                pending.removeAll(keepingCapacity: true)
                skipping = false
            } else if !skipping {
                pending.append(byte)
                if pending.count > ClientRequest.maximumLength {
                    items.append(.tooLong)
                    pending.removeAll(keepingCapacity: true)
                    skipping = true
                }
            }
        }
    }

    /// Whether a complete line (or overflow report) waits for `next()`.
    public var hasNext: Bool { nextItem < items.count }

    /// The line `next()` would return, left in place.
    public func peek() -> Item? { nextItem < items.count ? items[nextItem] : nil }

    /// Passes over the line `peek()` returned, once it is taken from there.
    public mutating func skip() {
        if nextItem < items.count { nextItem += 1 }
    }

    /// The next complete line (or overflow report), in order.
    public mutating func next() -> Item? {
        guard nextItem < items.count else { return nil }
        defer { nextItem += 1 }
        return items[nextItem]
    }
}
