/// The bytes a step sends to the clients (`Batch.delivery`): per distinct subscription, the lines
/// encoded once, and which clients get them. The shell only queues each part's lines for its
/// members (with their `LineMerge`, so a slow client's queue coalesces as before); it encodes
/// and numbers nothing. Made by `Subscribers.deliver(into:)` at the end of every step.
///
/// Its buffers keep their capacity from step to step (the batch is reused), so a steady step
/// allocates nothing.
public struct Delivery: Sendable {
    /// One line of a part: where its bytes are, and how it merges in a slow client's queue.
    public struct Line: Sendable {
        public var range: Range<Int>
        public var merge: LineMerge
    }

    /// The lines for the clients of one subscription, in order: trace lines first (they go
    /// before a control request's reply to its sender), then the step's touch, gesture, kiosk
    /// and device lines.
    public struct Part: Sendable {
        /// The clients that get these lines (their keys, as the shell registered them).
        public internal(set) var members: [ClientKey] = []
        public internal(set) var bytes: [UInt8] = []
        public internal(set) var lines: [Line] = []
        /// How many of `lines` are trace lines.
        public internal(set) var traceLines = 0

        /// The trace lines, then the others.
        public var traced: ArraySlice<Line> { lines[..<traceLines] }
        public var published: ArraySlice<Line> { lines[traceLines...] }

        mutating func append(_ line: [UInt8], merge: LineMerge) { append(line[...], merge: merge) }

        mutating func append(_ line: ArraySlice<UInt8>, merge: LineMerge) {
            let start = bytes.count
            bytes.append(contentsOf: line)
            lines.append(Line(range: start..<bytes.count, merge: merge))
        }

        mutating func removeAll() {
            if !bytes.isEmpty { bytes.removeAll(keepingCapacity: true) }
            if !lines.isEmpty { lines.removeAll(keepingCapacity: true) }
            traceLines = 0
        }
    }

    /// The parts in use are `parts[..<count]`; those after keep their buffers for later steps.
    var storage: [Part] = []
    var count = 0

    public init() {}

    /// One part per distinct subscription of the connected clients.
    public var parts: ArraySlice<Part> { storage[..<count] }

    /// Whether no client gets anything.
    public var isEmpty: Bool { !parts.contains { !$0.lines.isEmpty } }

    mutating func removeAll() {
        for p in 0..<count { storage[p].removeAll() }
        count = 0
    }
}

/// A client as the core knows it: an opaque key the shell registers (`Subscribers`) and finds
/// its connection by.
public struct ClientKey: Hashable, Comparable, Sendable {
    public var value: UInt64
    public init(_ value: UInt64) { self.value = value }
    public static func < (a: ClientKey, b: ClientKey) -> Bool { a.value < b.value }
}

/// One variable of an action's environment (`ActionRequest.variables`).
public struct ActionVariable: Hashable, Sendable {
    public var name: String
    public var value: String
}
