import GesturedCore
import GesturedSynthetic

/// What the pipeline target makes of an input: devices, a configuration (as the JSON5 text a
/// user could write, so only configurations the loader accepts are tried), and one recording
/// per device whose every finger is lifted at its end.
///
/// Input layout (docs/RELIABILITY.md, "Fuzzing"): a header of `headerSize` bytes of choices,
/// then events of 4 bytes each, `[k, dt, v, v]`:
/// - `k & 0x0f`: the event (`EventKind`); `(k >> 4) & 3`: the device; `k & 0x40`: 4 more bytes
///   follow with a raw 32-bit value; `k & 0x80`: `dt` counts 50 ms steps instead of 250 µs;
/// - `v` (16 bits, little-endian): positions scaled onto the axis range, tracking id `0xffff`
///   meaning -1, other values as they are.
/// `Tests/Fuzz/seeds.py` writes the fixture recordings in this form.
public struct PipelineScenario {
    public static let headerSize = 64
    public static let maximumDevices = 3
    /// At most this many events are read (longer inputs are cut): enough for minutes of touches.
    public static let maximumEvents = 20_000

    public var devices: [DeviceDescription]
    public var configurationText: String
    public var recordings: [[RawEvent]]
    public var trace: Bool

    public init(_ bytes: [UInt8]) {
        var header = FuzzInput(Array(bytes.prefix(Self.headerSize)))
        let flags = header.byte()
        let count = 1 + Int(flags) % Self.maximumDevices
        let base = flags & 0x08 != 0 ? Instant(seconds: 1_330_495_944, microseconds: 0) : Instant(seconds: 1, microseconds: 0)
        trace = flags & 0x10 != 0
        let form = header.byte()
        var devices: [DeviceDescription] = []
        for k in 0..<Self.maximumDevices {
            let kind = header.byte(), perturbation = header.byte()
            if k < count { devices.append(DeviceTable.device(kind, perturbation, sysname: "event\(k)")) }
        }
        self.devices = devices
        configurationText = ConfigurationWriter(header: &header, form: form, devices: count).text
        recordings = Self.events(Array(bytes.dropFirst(Self.headerSize)), devices: devices, base: base)
    }

    /// Devices and their events in the input form (a harness's own stream), without a
    /// configuration: the caller has one.
    public init(devices: [DeviceDescription], events: [UInt8], trace: Bool) {
        self.devices = devices
        configurationText = ""
        recordings = Self.events(events, devices: devices, base: Instant(seconds: 1, microseconds: 0))
        self.trace = trace
    }

    /// Recordings given as they are, each lifted at its end (the evemu target's).
    public init(devices: [DeviceDescription], recordings: [[RawEvent]]) {
        self.devices = devices
        configurationText = ""
        let end = recordings.compactMap { $0.last?.time }.max() ?? .zero
        self.recordings = zip(devices, recordings).map { $1 + Self.lift(slots: $0.slotCount, at: end + Interval(microseconds: 1_000_000)) }
        trace = false
    }

    /// The kinds of event an input can say, by `k & 0x0f`.
    enum EventKind: Int {
        case synReport, synMTReport, synDropped, slot, trackingID, mtX, mtY, toolType, x, y
        case btnTouch, btnToolPen, btnToolRubber, pressure, mscTimestamp, raw
    }

    static func events(_ bytes: [UInt8], devices: [DeviceDescription], base: Instant) -> [[RawEvent]] {
        var input = FuzzInput(bytes)
        var recordings = [[RawEvent]](repeating: [], count: devices.count)
        var now = base
        var read = 0
        while !input.isAtEnd && read < maximumEvents {
            read += 1
            let k = input.byte(), dt = Int64(input.byte())
            var v = Int32(input.uint16())
            let raw: Int32? = k & 0x40 != 0 ? input.int32() : nil
            now = now + Interval(microseconds: dt * (k & 0x80 != 0 ? 50_000 : 250))
            let d = Int(k >> 4 & 3) % devices.count
            let device = devices[d]
            func scaled(_ axis: AxisInfo?) -> Int32 {
                guard let axis else { return v }
                return Int32(truncatingIfNeeded: Int64(axis.minimum) + Int64(v) * (Int64(axis.maximum) - Int64(axis.minimum)) / 65535)
            }
            let type: UInt16, code: UInt16
            switch EventKind(rawValue: Int(k & 0x0f))! {
            case .synReport: (type, code) = (EventCode.EV_SYN, EventCode.SYN_REPORT)
            case .synMTReport: (type, code) = (EventCode.EV_SYN, EventCode.SYN_MT_REPORT)
            case .synDropped: (type, code) = (EventCode.EV_SYN, EventCode.SYN_DROPPED)
            case .slot: (type, code) = (EventCode.EV_ABS, EventCode.ABS_MT_SLOT)
            case .trackingID: (type, code) = (EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID); if v == 0xffff { v = -1 }
            case .mtX: (type, code) = (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_X); v = scaled(device.mtX ?? device.x)
            case .mtY: (type, code) = (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_Y); v = scaled(device.mtY ?? device.y)
            case .toolType: (type, code) = (EventCode.EV_ABS, EventCode.ABS_MT_TOOL_TYPE); v %= 3
            case .x: (type, code) = (EventCode.EV_ABS, EventCode.ABS_X); v = scaled(device.x ?? device.mtX)
            case .y: (type, code) = (EventCode.EV_ABS, EventCode.ABS_Y); v = scaled(device.y ?? device.mtY)
            case .btnTouch: (type, code) = (EventCode.EV_KEY, EventCode.BTN_TOUCH); v &= 1
            case .btnToolPen: (type, code) = (EventCode.EV_KEY, EventCode.BTN_TOOL_PEN); v &= 1
            case .btnToolRubber: (type, code) = (EventCode.EV_KEY, EventCode.BTN_TOOL_RUBBER); v &= 1
            case .pressure: (type, code) = (EventCode.EV_ABS, 0x3a)
            case .mscTimestamp: (type, code) = (0x04, 0x05)
            case .raw: (type, code) = (UInt16(v & 0x1f), UInt16(v >> 5))
            }
            recordings[d].append(RawEvent(time: now, type: type, code: code, value: raw ?? v))
        }
        // Every finger lifts a second after the last event.
        for d in devices.indices { recordings[d] += lift(slots: devices[d].slotCount, at: now + Interval(microseconds: 1_000_000)) }
        return recordings
    }

    /// Every finger lifted at `time`: the frame in progress is closed, then every slot's
    /// tracking id goes to -1 and BTN_TOUCH to 0 (protocol B, single touch), and an empty frame
    /// says no contact is left (protocol A). Slots beyond the decoder's are ignored by it.
    static func lift(slots: Int, at time: Instant) -> [RawEvent] {
        var lift = [RawEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)]
        for slot in 0..<min(max(slots, 0), 256) {
            lift += PanelScript.events(.up(slot: Int32(slot))).map { RawEvent(time: time, type: $0.type, code: $0.code, value: $0.value) }
        }
        lift.append(RawEvent(time: time, type: EventCode.EV_KEY, code: EventCode.BTN_TOUCH, value: 0))
        lift.append(RawEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
        return lift
    }
}

/// The devices an input can choose: the fixtures' panels and the protocols the decoder knows,
/// with their axes and slots perturbed.
enum DeviceTable {
    static func axis(_ minimum: Int32, _ maximum: Int32, resolution: Int32 = 0) -> AxisInfo {
        AxisInfo(minimum: minimum, maximum: maximum, fuzz: 0, flat: 0, resolution: resolution)
    }

    static func device(_ kind: UInt8, _ perturbation: UInt8, sysname: String) -> DeviceDescription {
        var d: DeviceDescription
        switch kind % 8 {
        case 0: // Tests/Fixtures/recordings/synthetic-touchscreen.desc
            d = DeviceDescription(sysname: sysname, name: "gestured synthetic touchscreen", x: axis(0, 4095, resolution: 16),
                                  y: axis(0, 4095, resolution: 16), mtX: axis(0, 4095, resolution: 16),
                                  mtY: axis(0, 4095, resolution: 16), slotCount: 10, hasTrackingID: true)
        case 1: // Wacom ISDv4 E6 Finger
            d = DeviceDescription(sysname: sysname, name: "Wacom ISDv4 E6 Finger", x: axis(0, 2776), y: axis(0, 1569),
                                  mtX: axis(0, 2776), mtY: axis(0, 1569), slotCount: 2, hasTrackingID: true)
        case 2: // Wacom Bamboo 16FG 4x5 Finger: a touchpad
            d = DeviceDescription(sysname: sysname, name: "Wacom Bamboo 16FG 4x5 Finger", x: axis(0, 4096), y: axis(0, 4096),
                                  mtX: axis(0, 4096), mtY: axis(0, 4096), slotCount: 16, hasTrackingID: true, isDirect: false)
        case 3: // eGalax PCAP
            d = DeviceDescription(sysname: sysname, name: "eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller",
                                  x: axis(0, 32767), y: axis(0, 32767), mtX: axis(0, 32767), mtY: axis(0, 32767),
                                  slotCount: 10, hasTrackingID: true, isDirect: false)
        case 4: // protocol A
            d = DeviceDescription(sysname: sysname, name: "protocol A panel", x: axis(0, 4095), y: axis(0, 4095),
                                  mtX: axis(0, 4095), mtY: axis(0, 4095))
        case 5: // single touch
            d = DeviceDescription(sysname: sysname, name: "single-touch panel", x: axis(0, 1023), y: axis(0, 767))
        case 6: // fake MT: read through ABS_X/ABS_Y
            d = DeviceDescription(sysname: sysname, name: "fake MT panel", x: axis(0, 1023), y: axis(0, 1023),
                                  mtX: axis(0, 1023), mtY: axis(0, 1023), slotCount: 4, isFakeMultitouch: true)
        default: // slots without tracking ids: read through ABS_X/ABS_Y
            d = DeviceDescription(sysname: sysname, name: "slots without tracking ids", x: axis(0, 4095), y: axis(0, 4095),
                                  mtX: axis(0, 4095), mtY: axis(0, 4095), slotCount: 5)
        }
        switch perturbation & 0x07 {
        case 1 where d.slotCount > 0: d.slotCount = 1
        case 2 where d.slotCount > 0: d.slotCount = 60
        case 3: // a tiny range
            for key in [\DeviceDescription.x, \.y, \.mtX, \.mtY] where d[keyPath: key] != nil { d[keyPath: key] = axis(-1, 1) }
        case 4: // the widest range
            for key in [\DeviceDescription.x, \.y, \.mtX, \.mtY] where d[keyPath: key] != nil {
                d[keyPath: key] = axis(Int32.min, Int32.max, resolution: 1)
            }
        case 5: // x and y of very different spans, with a resolution
            for key in [\DeviceDescription.x, \.mtX] where d[keyPath: key] != nil { d[keyPath: key] = axis(0, 65535, resolution: 100) }
            for key in [\DeviceDescription.y, \.mtY] where d[keyPath: key] != nil { d[keyPath: key] = axis(-50, 50, resolution: 1) }
        default: break
        }
        if perturbation & 0x08 != 0 { d.isDirect.toggle() }
        return d
    }
}
