import GesturedCore
import GesturedSynthetic
import GesturedTestSupport
import Testing

/// The one frame builder of the tests (`PanelScript`) writes the sequences a kernel does: protocol
/// B slots for the decoder, and with `Style.kernel` the pointer emulation a uinput touchscreen's
/// driver adds.
struct PanelScriptTests {
    typealias E = (UInt16, UInt16, Int32)
    static let abs = EventCode.EV_ABS, key = EventCode.EV_KEY
    static let slot = EventCode.ABS_MT_SLOT, id = EventCode.ABS_MT_TRACKING_ID
    static let x = EventCode.ABS_MT_POSITION_X, y = EventCode.ABS_MT_POSITION_Y

    static func plain(_ events: [RawEvent]) -> [String] { events.map { "\($0.type) \($0.code) \($0.value)" } }
    static func plain(_ events: [PanelScript.Event]) -> [String] { events.map { "\($0.type) \($0.code) \($0.value)" } }
    static func plain(_ events: [E]) -> [String] { events.map { "\($0.0) \($0.1) \($0.2)" } }

    /// Downs take the script's next tracking id unless given their own; a move without a slot
    /// selects none; every frame ends in SYN_REPORT at its time.
    @Test func framesInProtocolB() {
        var script = PanelScript(firstTrackingID: 100)
        let t = Instant(microseconds: 5000)
        let down = script.frame(at: t, [.down(slot: 0, x: 10, y: 20), .down(slot: 1, id: 7, x: 30, y: 40)])
        #expect(Self.plain(down) == Self.plain([(Self.abs, Self.slot, 0), (Self.abs, Self.id, 100), (Self.abs, Self.x, 10),
                                                (Self.abs, Self.y, 20), (Self.abs, Self.slot, 1), (Self.abs, Self.id, 7),
                                                (Self.abs, Self.x, 30), (Self.abs, Self.y, 40),
                                                (EventCode.EV_SYN, EventCode.SYN_REPORT, 0)] as [E]))
        #expect(down.allSatisfy { $0.time == t })
        #expect(Self.plain(script.frame(at: t, [.move(slot: nil, x: 11, y: 21), .up(slot: 1)]))
                == Self.plain([(Self.abs, Self.x, 11), (Self.abs, Self.y, 21), (Self.abs, Self.slot, 1), (Self.abs, Self.id, -1),
                               (EventCode.EV_SYN, EventCode.SYN_REPORT, 0)] as [E]))
        #expect(Self.plain(script.frame(at: t, [.of(slot: 2, x: 1, y: 2, isNew: true)]))[1] == "\(Self.abs) \(Self.id) 101")
    }

    /// The kernel style: ABS_X/ABS_Y after each position, BTN_TOUCH where the caller says; no
    /// SYN_REPORT (the uinput device writes it).
    @Test func theKernelsPointerEmulation() {
        let down = PanelScript.events(.down(slot: 0, id: 3, x: 20, y: 2000), style: .kernel(touchButton: 1))
        #expect(Self.plain(down) == Self.plain([(Self.abs, Self.slot, 0), (Self.abs, Self.id, 3), (Self.abs, Self.x, 20),
                                                (Self.abs, Self.y, 2000), (Self.key, EventCode.BTN_TOUCH, 1),
                                                (Self.abs, EventCode.ABS_X, 20), (Self.abs, EventCode.ABS_Y, 2000)] as [E]))
        #expect(Self.plain(PanelScript.events(.move(slot: 1, x: 5, y: 6), style: .kernel(touchButton: nil)))
                == Self.plain([(Self.abs, Self.slot, 1), (Self.abs, Self.x, 5), (Self.abs, Self.y, 6),
                               (Self.abs, EventCode.ABS_X, 5), (Self.abs, EventCode.ABS_Y, 6)] as [E]))
        #expect(Self.plain(PanelScript.events(.up(slot: 1), style: .kernel(touchButton: 0)))
                == Self.plain([(Self.abs, Self.slot, 1), (Self.abs, Self.id, -1), (Self.key, EventCode.BTN_TOUCH, 0)] as [E]))
        #expect(Self.plain(PanelScript.events(.up(slot: 1), style: .kernel(touchButton: nil)))
                == Self.plain([(Self.abs, Self.slot, 1), (Self.abs, Self.id, -1)] as [E]))
    }
}
