/// Stamps a device's events with the time they were read, for a device whose own timestamps are
/// not on CLOCK_MONOTONIC (`EVIOCSCLOCKID` failed, as under umockdev), so that event times and
/// deadlines are on one clock.
///
/// A frame can be split across two reads (the reader took what was there when part of the frame
/// had arrived): its events after the split keep the stamp of its first part, so the decoder
/// never sees a frame change instants before its `SYN_REPORT` (which it would report as a
/// fault, `EvdevFrameDecoder.Anomaly.missingSynReport`, and merge).
public struct ReadTimeStamps: Sendable {
    /// The stamp of the frame a read left open (its `SYN_REPORT` not read yet).
    private var open: Instant?

    public init() {}

    /// Stamps `events`, read at `time`.
    public mutating func stamp(_ events: inout [RawEvent], readAt time: Instant) {
        var stamp = open ?? time
        for i in events.indices {
            events[i].time = stamp
            if events[i].isFrameEnd { stamp = time }
        }
        open = events.last.map { $0.isFrameEnd ? nil : stamp } ?? open
    }
}
