import Testing
@testable import GesturedCore

/// Decoder transcripts: raw events in, one line per frame out ("t slot:phase@x,y ...").
struct EvdevFrameDecoderTests {
    static let touchscreen = DeviceDescription(
        sysname: "event0", name: "test", mtX: AxisInfo(minimum: 0, maximum: 4095),
        mtY: AxisInfo(minimum: 0, maximum: 4095), slotCount: 4, hasTrackingID: true)
    static let singleTouch = DeviceDescription(
        sysname: "event1", name: "single", x: AxisInfo(minimum: 0, maximum: 1023), y: AxisInfo(minimum: 0, maximum: 767))

    /// `(ms, type, code, value)` tuples.
    /// A `SYN_DROPPED` frame reads "t dropped"; anomalies the decoder counted are appended as
    /// "! name×count" lines at the end.
    static func run(_ device: DeviceDescription, _ events: [(Int64, UInt16, UInt16, Int32)],
                    options: EvdevFrameDecoder.Options = .init()) throws -> [String] {
        var decoder = try EvdevFrameDecoder(device: device, options: options)
        var out: [String] = []
        for (ms, type, code, value) in events {
            guard decoder.feed(RawEvent(time: Instant(microseconds: ms * 1000), type: type, code: code, value: value)) else { continue }
            let f = decoder.frame
            out.append("\(f.time.microseconds / 1000) " + (f.resynchronized ? "dropped" : f.changes.map { c in
                "\(c.slot):\(c.phase)@\(c.position.x),\(c.position.y)"
            }.joined(separator: " ")))
        }
        for (anomaly, count) in decoder.takeAnomalies() { out.append("! \(anomaly)×\(count)") }
        return out
    }

    static let ABS = EventCode.EV_ABS, SYN = EventCode.EV_SYN, KEY = EventCode.EV_KEY
    static let SLOT = EventCode.ABS_MT_SLOT, TID = EventCode.ABS_MT_TRACKING_ID
    static let MX = EventCode.ABS_MT_POSITION_X, MY = EventCode.ABS_MT_POSITION_Y
    static let REPORT = EventCode.SYN_REPORT

    /// Found with the evemu fuzz target's harness (a description written by hand, replayed through
    /// it): a slot axis up to 2147483646 made the decoder allocate a slot per value, which cannot
    /// succeed; `gestured replay` of such a recording died out of memory.
    @Test func aDescriptionWithTwoBillionSlotsIsDecodedWithTheMaximum() throws {
        var device = Self.touchscreen
        device.slotCount = 2_147_483_647
        let decoder = try EvdevFrameDecoder(device: device)
        #expect(decoder.slotCount == EvdevFrameDecoder.maximumSlots)
        #expect(try Self.run(device, [
            (0, Self.ABS, EventCode.ABS_MT_SLOT, 255), (0, Self.ABS, EventCode.ABS_MT_TRACKING_ID, 1),
            (0, Self.ABS, EventCode.ABS_MT_POSITION_X, 10), (0, Self.ABS, EventCode.ABS_MT_POSITION_Y, 20),
            (0, Self.ABS, EventCode.ABS_MT_SLOT, 256), (0, Self.ABS, EventCode.ABS_MT_TRACKING_ID, 2),
            (0, Self.SYN, EventCode.SYN_REPORT, 0),
        ]) == ["0 255:began@10,20", "! \(EvdevFrameDecoder.Anomaly.slotOutOfRange)×1"])
    }

    @Test func protocolBDownMoveUp() throws {
        let lines = try Self.run(Self.touchscreen, [
            (0, Self.ABS, Self.SLOT, 0), (0, Self.ABS, Self.TID, 7), (0, Self.ABS, Self.MX, 100), (0, Self.ABS, Self.MY, 200),
            (0, Self.KEY, EventCode.BTN_TOUCH, 1), (0, Self.SYN, Self.REPORT, 0),
            (10, Self.ABS, Self.MX, 110), (10, Self.SYN, Self.REPORT, 0),
            (20, Self.ABS, Self.MY, 200), (20, Self.SYN, Self.REPORT, 0),   // same value: no change, no frame
            (30, Self.ABS, Self.TID, -1), (30, Self.KEY, EventCode.BTN_TOUCH, 0), (30, Self.SYN, Self.REPORT, 0),
        ])
        #expect(lines == ["0 0:began@100,200", "10 0:moved@110,200", "30 0:ended@110,200"])
    }

    @Test func twoSlotsInOneFrameAndSeparateLifts() throws {
        let lines = try Self.run(Self.touchscreen, [
            (0, Self.ABS, Self.TID, 1), (0, Self.ABS, Self.MX, 10), (0, Self.ABS, Self.MY, 10),
            (0, Self.ABS, Self.SLOT, 1), (0, Self.ABS, Self.TID, 2), (0, Self.ABS, Self.MX, 50), (0, Self.ABS, Self.MY, 60),
            (0, Self.SYN, Self.REPORT, 0),
            (5, Self.ABS, Self.SLOT, 0), (5, Self.ABS, Self.TID, -1), (5, Self.SYN, Self.REPORT, 0),
            (9, Self.ABS, Self.SLOT, 1), (9, Self.ABS, Self.MX, 55), (9, Self.ABS, Self.TID, -1), (9, Self.SYN, Self.REPORT, 0),
        ])
        #expect(lines == ["0 0:began@10,10 1:began@50,60", "5 0:ended@10,10", "9 1:ended@50,60"])
    }

    @Test func slotReusedWithNewTrackingIDInOneFrame() throws {
        let lines = try Self.run(Self.touchscreen, [
            (0, Self.ABS, Self.TID, 1), (0, Self.ABS, Self.MX, 10), (0, Self.ABS, Self.MY, 10), (0, Self.SYN, Self.REPORT, 0),
            (8, Self.ABS, Self.TID, 2), (8, Self.ABS, Self.MX, 300), (8, Self.ABS, Self.MY, 400), (8, Self.SYN, Self.REPORT, 0),
        ])
        #expect(lines == ["0 0:began@10,10", "8 0:ended@10,10 0:began@300,400",
                          "! \(EvdevFrameDecoder.Anomaly.trackingIDReused)×1"])
    }

    @Test func eventsAfterTheLastSynReportFormNoFrame() throws {
        let lines = try Self.run(Self.touchscreen, [
            (0, Self.ABS, Self.TID, 1), (0, Self.ABS, Self.MX, 10), (0, Self.ABS, Self.MY, 10), (0, Self.SYN, Self.REPORT, 0),
            (8, Self.ABS, Self.TID, -1),   // the tail: never reported
        ])
        #expect(lines == ["0 0:began@10,10"])
    }

    @Test func singleTouchDevice() throws {
        let lines = try Self.run(Self.singleTouch, [
            (0, Self.ABS, EventCode.ABS_X, 500), (0, Self.ABS, EventCode.ABS_Y, 300), (0, Self.KEY, EventCode.BTN_TOUCH, 1),
            (0, Self.SYN, Self.REPORT, 0),
            (7, Self.ABS, EventCode.ABS_X, 510), (7, Self.SYN, Self.REPORT, 0),
            (9, Self.KEY, EventCode.BTN_TOUCH, 0), (9, Self.SYN, Self.REPORT, 0),
            (20, Self.KEY, EventCode.BTN_TOUCH, 1), (20, Self.SYN, Self.REPORT, 0),
        ])
        #expect(lines == ["0 0:began@500,300", "7 0:moved@510,300", "9 0:ended@510,300", "20 0:began@510,300"])
    }

    /// libevdev's resync after `SYN_DROPPED`: slot 0's contact stayed (same id, moved), slot 1's
    /// ended inside the gap, slot 2 got a contact that began inside the gap. No ghost remains.
    @Test func synDroppedEndsBeginsAndMovesFromTheResynchronizedState() throws {
        let lines = try Self.run(Self.touchscreen, [
            (0, Self.ABS, Self.TID, 1), (0, Self.ABS, Self.MX, 10), (0, Self.ABS, Self.MY, 10),
            (0, Self.ABS, Self.SLOT, 1), (0, Self.ABS, Self.TID, 2), (0, Self.ABS, Self.MX, 20), (0, Self.ABS, Self.MY, 20),
            (0, Self.SYN, Self.REPORT, 0),
            (50, Self.SYN, EventCode.SYN_DROPPED, 0),
            (50, Self.ABS, Self.SLOT, 0), (50, Self.ABS, Self.MX, 90),
            (50, Self.ABS, Self.SLOT, 1), (50, Self.ABS, Self.TID, -1),
            (50, Self.ABS, Self.SLOT, 2), (50, Self.ABS, Self.TID, 3), (50, Self.ABS, Self.MX, 70), (50, Self.ABS, Self.MY, 70),
            (50, Self.SYN, Self.REPORT, 0),
            (60, Self.ABS, Self.SLOT, 0), (60, Self.ABS, Self.TID, -1), (60, Self.ABS, Self.SLOT, 2), (60, Self.ABS, Self.TID, -1),
            (60, Self.SYN, Self.REPORT, 0),
        ])
        #expect(lines == ["0 0:began@10,10 1:began@20,20", "50 dropped",
                          "50 0:moved@90,10 1:ended@20,20 2:began@70,70", "60 0:ended@90,10 2:ended@70,70"])
    }

    /// A slot whose contact was replaced inside the gap (libevdev sends -1, then the new id).
    @Test func synDroppedWithASlotReusedInsideTheGap() throws {
        let lines = try Self.run(Self.touchscreen, [
            (0, Self.ABS, Self.TID, 1), (0, Self.ABS, Self.MX, 10), (0, Self.ABS, Self.MY, 10), (0, Self.SYN, Self.REPORT, 0),
            (50, Self.SYN, EventCode.SYN_DROPPED, 0),
            (50, Self.ABS, Self.SLOT, 0), (50, Self.ABS, Self.TID, -1), (50, Self.ABS, Self.TID, 5), (50, Self.ABS, Self.MX, 40),
            (50, Self.SYN, Self.REPORT, 0),
        ])
        #expect(lines == ["0 0:began@10,10", "50 dropped", "50 0:ended@10,10 0:began@40,10"])
    }

    @Test func slotIndexOutOfRangeIsIgnoredAndCounted() throws {
        let lines = try Self.run(Self.touchscreen, [
            (0, Self.ABS, Self.SLOT, 9), (0, Self.ABS, Self.TID, 1), (0, Self.ABS, Self.MX, 10), (0, Self.SYN, Self.REPORT, 0),
            (1, Self.ABS, Self.SLOT, -3), (1, Self.ABS, Self.TID, 1), (1, Self.ABS, Self.MY, 10), (1, Self.SYN, Self.REPORT, 0),
        ])
        #expect(lines == ["! \(EvdevFrameDecoder.Anomaly.slotOutOfRange)×2"])
    }

    @Test func devicesWithoutUsableAxesAreRefused() {
        #expect(throws: EvdevFrameDecoder.Unsupported.noPositionAxes) {
            try EvdevFrameDecoder(device: DeviceDescription(sysname: "e", name: "keyboard"))
        }
        #expect(throws: EvdevFrameDecoder.Unsupported.unusableAxis(name: "ABS_MT_POSITION_X", minimum: 5, maximum: 5)) {
            try EvdevFrameDecoder(device: DeviceDescription(sysname: "e", name: "a", mtX: AxisInfo(minimum: 5, maximum: 5),
                                                            mtY: AxisInfo(minimum: 0, maximum: 9), slotCount: 2, hasTrackingID: true))
        }
        #expect(throws: EvdevFrameDecoder.Unsupported.unusableAxis(name: "ABS_Y", minimum: 10, maximum: 0)) {
            try EvdevFrameDecoder(device: DeviceDescription(sysname: "e", name: "a", x: AxisInfo(minimum: 0, maximum: 9),
                                                            y: AxisInfo(minimum: 10, maximum: 0)))
        }
        #expect(throws: EvdevFrameDecoder.Unsupported.slotsWithoutTrackingID) {
            try EvdevFrameDecoder(device: DeviceDescription(sysname: "e", name: "a", mtX: AxisInfo(minimum: 0, maximum: 9),
                                                            mtY: AxisInfo(minimum: 0, maximum: 9), slotCount: 2))
        }
    }
}
