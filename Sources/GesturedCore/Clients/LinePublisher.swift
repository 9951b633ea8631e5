/// Numbering and encoding of the lines every client receives: the decision part of the daemon's
/// client hub, kept here so that it can be tested without sockets.
///
/// `seq` counts lines sent to anyone, so a line nobody receives is neither encoded nor numbered.
/// An item is encoded at most once per format; the line buffers are reused for every line (the
/// caller's `send` copies what it queues), so publishing allocates nothing per line.
///
/// Generic over the recipient's id: the daemon passes its socket server's client ids, tests any
/// value. `@inlinable`, so that the daemon's module specializes it for its ids: this is the
/// per-line path.
public struct LinePublisher: Sendable {
    /// The number of the last line sent to anyone (0 before the first).
    public var seq: UInt64 { lastSeq }
    @usableFromInline var lastSeq: UInt64 = 0
    @usableFromInline var textLine: [UInt8] = [], jsonLine: [UInt8] = []

    public init() {}

    /// Sends one pipeline output to the recipients whose subscription wants it, each in its
    /// format. Returns the line's seq, or the last one sent when nobody received this line (an
    /// action's `GESTURE_SEQ`).
    ///
    /// - Parameters:
    ///   - recipients: the connected clients, in the order they are to receive the line.
    ///   - subscription: a recipient's subscription; nil skips it (a client dropped mid-batch).
    ///   - send: queues a line for a recipient.
    @discardableResult @inlinable
    public mutating func publish<Recipients: Sequence>(
        _ item: GesturePipeline.Output, to recipients: Recipients,
        subscription: (Recipients.Element) -> ClientSubscription?,
        send: (Recipients.Element, [UInt8]) -> Void
    ) -> UInt64 {
        textLine.removeAll(keepingCapacity: true)
        jsonLine.removeAll(keepingCapacity: true)
        var numbered = false
        for id in recipients {
            guard let wanted = subscription(id), wanted.wants(item) else { continue }
            if !numbered { lastSeq += 1; numbered = true }
            switch wanted.format {
            case .text:
                if textLine.isEmpty { LineEncoder.output(item, seq: lastSeq, format: .text, into: &textLine) }
                send(id, textLine)
            case .json:
                if jsonLine.isEmpty { LineEncoder.output(item, seq: lastSeq, format: .json, into: &jsonLine) }
                send(id, jsonLine)
            }
        }
        return lastSeq
    }

    /// Sends one line to every recipient, each in its format (`device` lines): numbered once,
    /// encoded once per format, not at all when there is nobody.
    public mutating func broadcast<Recipients: Collection>(
        to recipients: Recipients, format: (Recipients.Element) -> LineFormat,
        line: (UInt64, LineFormat) -> String, send: (Recipients.Element, [UInt8]) -> Void
    ) {
        guard !recipients.isEmpty else { return }
        lastSeq += 1
        var encoded: [LineFormat: [UInt8]] = [:]
        for id in recipients {
            let f = format(id)
            let bytes = encoded[f] ?? Array(line(lastSeq, f).utf8)
            encoded[f] = bytes
            send(id, bytes)
        }
    }
}
