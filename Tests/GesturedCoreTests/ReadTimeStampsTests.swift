import Testing
@testable import GesturedCore

/// A device whose timestamps are not CLOCK_MONOTONIC (umockdev) gets its read times instead; a
/// frame split across two reads keeps one instant (`make demo` used to warn "events of a new
/// instant before SYN_REPORT" for every tap).
struct ReadTimeStampsTests {
    static func abs(_ code: UInt16, _ value: Int32) -> RawEvent { RawEvent(time: .zero, type: EventCode.EV_ABS, code: code, value: value) }
    static let syn = RawEvent(time: .zero, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)
    static func at(_ ms: Int64) -> Instant { Instant(microseconds: ms * 1000) }

    @Test func aFrameSplitAcrossReadsKeepsTheInstantItBeganAt() {
        var stamps = ReadTimeStamps()
        var first = [Self.abs(EventCode.ABS_MT_SLOT, 0), Self.abs(EventCode.ABS_MT_TRACKING_ID, 1)]
        stamps.stamp(&first, readAt: Self.at(10))
        var second = [Self.abs(EventCode.ABS_MT_POSITION_X, 5), Self.syn, Self.abs(EventCode.ABS_MT_POSITION_X, 6), Self.syn]
        stamps.stamp(&second, readAt: Self.at(12))
        var third = [Self.abs(EventCode.ABS_MT_POSITION_X, 7), Self.syn]
        stamps.stamp(&third, readAt: Self.at(20))
        #expect(first.map(\.time) == [Self.at(10), Self.at(10)])
        #expect(second.map(\.time) == [Self.at(10), Self.at(10), Self.at(12), Self.at(12)])
        #expect(third.map(\.time) == [Self.at(20), Self.at(20)])
    }

    /// Fed to the decoder, the split frame is one frame, with no fault.
    @Test func theDecoderSeesNoFaultInASplitFrame() throws {
        let device = DeviceDescription(sysname: "event7", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 99),
                                       mtY: AxisInfo(minimum: 0, maximum: 99), slotCount: 2, hasTrackingID: true)
        var decoder = try EvdevFrameDecoder(device: device)
        var stamps = ReadTimeStamps()
        var reads = [[Self.abs(EventCode.ABS_MT_SLOT, 0), Self.abs(EventCode.ABS_MT_TRACKING_ID, 1)],
                     [Self.abs(EventCode.ABS_MT_POSITION_X, 5), Self.abs(EventCode.ABS_MT_POSITION_Y, 5), Self.syn]]
        var frames = 0
        for (k, ms) in [10, 15].enumerated() {
            stamps.stamp(&reads[k], readAt: Self.at(Int64(ms)))
            for event in reads[k] where decoder.feed(event) { frames += 1 }
        }
        #expect(frames == 1)
        #expect(decoder.takeAnomalies().isEmpty)
    }
}
