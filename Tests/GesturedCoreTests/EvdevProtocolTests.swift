import Testing
@testable import GesturedCore

/// Decoder transcripts for the other protocols and the faults: protocol A, fake MT, slots
/// without tracking ids, tool types, the touch limit, values out of range, time going backwards.
struct EvdevProtocolTests {
    typealias T = EvdevFrameDecoderTests
    static let ABS = EventCode.EV_ABS, SYN = EventCode.EV_SYN, KEY = EventCode.EV_KEY
    static let SLOT = EventCode.ABS_MT_SLOT, TID = EventCode.ABS_MT_TRACKING_ID, TOOL = EventCode.ABS_MT_TOOL_TYPE
    static let MX = EventCode.ABS_MT_POSITION_X, MY = EventCode.ABS_MT_POSITION_Y
    static let REPORT = EventCode.SYN_REPORT, MT = EventCode.SYN_MT_REPORT

    static let protocolA = DeviceDescription(
        sysname: "event2", name: "protocol A", mtX: AxisInfo(minimum: 0, maximum: 1000), mtY: AxisInfo(minimum: 0, maximum: 1000))

    static func contact(_ ms: Int64, _ x: Int32, _ y: Int32) -> [(Int64, UInt16, UInt16, Int32)] {
        [(ms, ABS, MX, x), (ms, ABS, MY, y), (ms, SYN, MT, 0)]
    }
    static func report(_ ms: Int64) -> [(Int64, UInt16, UInt16, Int32)] { [(ms, SYN, REPORT, 0)] }

    /// Two fingers whose report order swaps between frames keep their slots (nearest match);
    /// one lifts (absent from the frame), then the empty frame lifts the other.
    @Test func protocolAMatchesContactsAcrossFrames() throws {
        var events = Self.contact(0, 100, 100) + Self.contact(0, 800, 800) + Self.report(0)
        events += Self.contact(10, 810, 790) + Self.contact(10, 110, 105) + Self.report(10)
        events += Self.contact(20, 120, 110) + Self.report(20)
        events += [(30, Self.SYN, Self.MT, 0)] + Self.report(30)
        #expect(try T.run(Self.protocolA, events) == [
            "0 0:began@100,100 1:began@800,800",
            "10 0:moved@110,105 1:moved@810,790",
            "20 0:moved@120,110 1:ended@810,790",
            "30 0:ended@120,110",
        ])
    }

    /// A contact that appears far from every previous one is a new touch, not a jump.
    @Test func protocolAFarJumpIsALiftAndANewTouch() throws {
        let events = Self.contact(0, 0, 0) + Self.report(0) + Self.contact(10, 900, 900) + Self.report(10)
        #expect(try T.run(Self.protocolA, events) == ["0 0:began@0,0", "10 0:ended@0,0 1:began@900,900"])
    }

    /// Found by the pipeline fuzz target: on a protocol A device whose axes span every Int32 (a
    /// broken or hostile one), a contact at one end and the previous frame's at the other differ
    /// by more than Int32 holds, and the distance trapped. It is the widest jump: a new touch.
    @Test func protocolAJumpAcrossTheWidestAxisIsALiftAndANewTouch() throws {
        let widest = DeviceDescription(sysname: "event2", name: "protocol A", mtX: AxisInfo(minimum: .min, maximum: .max),
                                       mtY: AxisInfo(minimum: .min, maximum: .max))
        let events = Self.contact(0, .min, 0) + Self.report(0) + Self.contact(10, .max, 0) + Self.report(10)
        #expect(try T.run(widest, events) == ["0 0:began@-2147483648,0", "10 0:ended@-2147483648,0 1:began@2147483647,0"])
    }

    /// Protocol A devices that send ABS_MT_TRACKING_ID are matched by it, whatever the distance.
    @Test func protocolAWithTrackingIDs() throws {
        typealias Event = (Int64, UInt16, UInt16, Int32)
        func id(_ time: Int64, _ value: Int32) -> [Event] { [(time, Self.ABS, Self.TID, value)] }
        // Appended one part at a time: as one expression, Swift 6.0 cannot type-check it in time.
        var events: [Event] = id(0, 7)
        events += Self.contact(0, 100, 100)
        events += id(0, 8)
        events += Self.contact(0, 120, 120)
        events += Self.report(0)
        events += id(10, 8)
        events += Self.contact(10, 101, 101)
        events += id(10, 7)
        events += Self.contact(10, 121, 121)
        events += Self.report(10)
        #expect(try T.run(Self.protocolA, events) == ["0 0:began@100,100 1:began@120,120", "10 0:moved@121,121 1:moved@101,101"])
    }

    /// More contacts than virtual slots: the extra ones are ignored and counted.
    @Test func protocolATooManyContacts() throws {
        var events: [(Int64, UInt16, UInt16, Int32)] = []
        for i in 0..<(EvdevFrameDecoder.protocolASlots + 1) { events += Self.contact(0, Int32(i * 50), 0) }
        events += Self.report(0)
        let lines = try T.run(Self.protocolA, events)
        #expect(lines.count == 2)
        #expect(lines.first?.split(separator: " ").count == EvdevFrameDecoder.protocolASlots + 1)
        #expect(lines.last == "! \(EvdevFrameDecoder.Anomaly.tooManyContacts)×1")
    }

    /// Slots without ABS_MT_TRACKING_ID: the device is read through its single-touch axes.
    @Test func slotsWithoutTrackingIDFallBackToSingleTouch() throws {
        let device = DeviceDescription(sysname: "e", name: "no ids", x: AxisInfo(minimum: 0, maximum: 99),
                                       y: AxisInfo(minimum: 0, maximum: 99), mtX: AxisInfo(minimum: 0, maximum: 999),
                                       mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 5)
        #expect(try EvdevFrameDecoder(device: device).mode == .singleTouch)
        #expect(try T.run(device, [
            (0, Self.ABS, Self.SLOT, 0), (0, Self.ABS, Self.MX, 500), (0, Self.ABS, EventCode.ABS_X, 50), (0, Self.ABS, EventCode.ABS_Y, 40),
            (0, Self.KEY, EventCode.BTN_TOUCH, 1), (0, Self.SYN, Self.REPORT, 0),
            (5, Self.KEY, EventCode.BTN_TOUCH, 0), (5, Self.SYN, Self.REPORT, 0),
        ]) == ["0 0:began@50,40", "5 0:ended@50,40"])
    }

    /// Fake MT (ABS_MT_SLOT - 1 present): the "MT" axes are not multitouch; ABS_X/Y are used.
    @Test func fakeMultitouchIsSingleTouch() throws {
        let device = DeviceDescription(sysname: "e", name: "fake", x: AxisInfo(minimum: 0, maximum: 99),
                                       y: AxisInfo(minimum: 0, maximum: 99), mtX: AxisInfo(minimum: 0, maximum: 9),
                                       mtY: AxisInfo(minimum: 0, maximum: 9), isFakeMultitouch: true)
        #expect(try EvdevFrameDecoder(device: device).mode == .singleTouch)
        #expect(device.positionAxes?.0 == AxisInfo(minimum: 0, maximum: 99))
    }

    /// A finger that turns into a palm is cancelled and stays ignored until it lifts, even if it
    /// turns back; a palm from the start never begins.
    @Test func palmCancelsItsTouch() throws {
        #expect(try T.run(T.touchscreen, [
            (0, Self.ABS, Self.TID, 1), (0, Self.ABS, Self.MX, 10), (0, Self.ABS, Self.MY, 10), (0, Self.SYN, Self.REPORT, 0),
            (10, Self.ABS, Self.TOOL, 2), (10, Self.ABS, Self.MX, 12), (10, Self.SYN, Self.REPORT, 0),
            (20, Self.ABS, Self.TOOL, 0), (20, Self.ABS, Self.MX, 14), (20, Self.SYN, Self.REPORT, 0),
            (30, Self.ABS, Self.TID, -1), (30, Self.SYN, Self.REPORT, 0),
            (40, Self.ABS, Self.SLOT, 1), (40, Self.ABS, Self.TOOL, 2), (40, Self.ABS, Self.TID, 2), (40, Self.ABS, Self.MX, 5),
            (40, Self.SYN, Self.REPORT, 0),
            (50, Self.ABS, Self.TID, -1), (50, Self.SYN, Self.REPORT, 0),
        ]) == ["0 0:began@10,10", "10 0:cancelled@10,10"])
    }

    /// Pen contacts are ignored: MT_TOOL_PEN in a slot, BTN_TOOL_PEN on a single-touch device.
    @Test func penContactsAreIgnored() throws {
        #expect(try T.run(T.touchscreen, [
            (0, Self.ABS, Self.TOOL, 1), (0, Self.ABS, Self.TID, 1), (0, Self.ABS, Self.MX, 10), (0, Self.SYN, Self.REPORT, 0),
            (10, Self.ABS, Self.MX, 20), (10, Self.SYN, Self.REPORT, 0),
            (20, Self.ABS, Self.TID, -1), (20, Self.SYN, Self.REPORT, 0),
            (30, Self.ABS, Self.TOOL, 0), (30, Self.ABS, Self.TID, 2), (30, Self.SYN, Self.REPORT, 0),
        ]) == ["30 0:began@20,0"])
        #expect(try T.run(T.singleTouch, [
            (0, Self.KEY, EventCode.BTN_TOOL_PEN, 1), (0, Self.KEY, EventCode.BTN_TOUCH, 1), (0, Self.SYN, Self.REPORT, 0),
            (10, Self.KEY, EventCode.BTN_TOUCH, 0), (10, Self.KEY, EventCode.BTN_TOOL_PEN, 0), (10, Self.SYN, Self.REPORT, 0),
        ]) == [])
    }

    /// With `maximumTouches: 1` the second finger is ignored for its whole life, even after the
    /// first lifts.
    @Test func touchLimitIgnoresExtraTouchesConsistently() throws {
        #expect(try T.run(T.touchscreen, [
            (0, Self.ABS, Self.TID, 1), (0, Self.ABS, Self.MX, 10), (0, Self.SYN, Self.REPORT, 0),
            (10, Self.ABS, Self.SLOT, 1), (10, Self.ABS, Self.TID, 2), (10, Self.ABS, Self.MX, 50), (10, Self.SYN, Self.REPORT, 0),
            (20, Self.ABS, Self.SLOT, 0), (20, Self.ABS, Self.TID, -1), (20, Self.SYN, Self.REPORT, 0),
            (30, Self.ABS, Self.SLOT, 1), (30, Self.ABS, Self.MX, 60), (30, Self.SYN, Self.REPORT, 0),
            (40, Self.ABS, Self.TID, -1), (40, Self.SYN, Self.REPORT, 0),
        ], options: .init(maximumTouches: 1)) == [
            "0 0:began@10,0", "20 0:ended@10,0", "! \(EvdevFrameDecoder.Anomaly.tooManyContacts)×1",
        ])
    }

    /// Positions beyond the advertised range are clamped to it and counted.
    @Test func valuesOutsideTheRangeAreClamped() throws {
        #expect(try T.run(T.touchscreen, [
            (0, Self.ABS, Self.TID, 1), (0, Self.ABS, Self.MX, 5000), (0, Self.ABS, Self.MY, -7), (0, Self.SYN, Self.REPORT, 0),
        ]) == ["0 0:began@4095,0", "! \(EvdevFrameDecoder.Anomaly.valueOutOfRange)×2"])
    }

    /// A new tracking id in a slot without a -1: the old touch ends, the new one begins; counted.
    @Test func trackingIDReuseIsCounted() throws {
        #expect(try T.run(T.touchscreen, [
            (0, Self.ABS, Self.TID, 1), (0, Self.ABS, Self.MX, 10), (0, Self.SYN, Self.REPORT, 0),
            (8, Self.ABS, Self.TID, 2), (8, Self.ABS, Self.MX, 30), (8, Self.SYN, Self.REPORT, 0),
        ]) == ["0 0:began@10,0", "8 0:ended@10,0 0:began@30,0", "! \(EvdevFrameDecoder.Anomaly.trackingIDReused)×1"])
    }

    /// A frame stamped earlier than the previous keeps the previous time; events of two instants
    /// without a SYN_REPORT between them join one frame.
    @Test func timeGoingBackwardsAndMissingSynReport() throws {
        #expect(try T.run(T.touchscreen, [
            (100, Self.ABS, Self.TID, 1), (100, Self.ABS, Self.MX, 10), (100, Self.SYN, Self.REPORT, 0),
            (90, Self.ABS, Self.MX, 20), (90, Self.SYN, Self.REPORT, 0),
            (110, Self.ABS, Self.MX, 30), (120, Self.ABS, Self.MY, 40), (120, Self.SYN, Self.REPORT, 0),
        ]) == ["100 0:began@10,0", "100 0:moved@20,0", "120 0:moved@30,40",
               "! \(EvdevFrameDecoder.Anomaly.missingSynReport)×1", "! \(EvdevFrameDecoder.Anomaly.timeWentBackwards)×1"])
    }
}
