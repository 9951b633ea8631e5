/// One evdev event as the kernel delivers it (`struct input_event`), with its timestamp.
///
/// The I/O shell turns libevdev's events into these; replay turns evemu `E:` lines into these.
/// Everything after this point is pure.
public struct RawEvent: Hashable, Sendable {
    public var time: Instant
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    @inlinable public init(time: Instant, type: UInt16, code: UInt16, value: Int32) {
        self.time = time; self.type = type; self.code = code; self.value = value
    }
}

/// The evdev constants the core needs (from `linux/input-event-codes.h`), kept here so that the
/// core does not import the kernel headers.
public enum EventCode {
    public static let EV_SYN: UInt16 = 0x00
    public static let EV_KEY: UInt16 = 0x01
    public static let EV_REL: UInt16 = 0x02
    public static let EV_ABS: UInt16 = 0x03

    public static let SYN_REPORT: UInt16 = 0
    public static let SYN_MT_REPORT: UInt16 = 2
    public static let SYN_DROPPED: UInt16 = 3

    public static let BTN_TOUCH: UInt16 = 0x14a
    public static let BTN_TOOL_FINGER: UInt16 = 0x145
    public static let BTN_TOOL_PEN: UInt16 = 0x140
    public static let BTN_TOOL_RUBBER: UInt16 = 0x141

    public static let REL_HWHEEL: UInt16 = 0x06
    public static let REL_WHEEL: UInt16 = 0x08
    public static let REL_WHEEL_HI_RES: UInt16 = 0x0b
    public static let REL_HWHEEL_HI_RES: UInt16 = 0x0c

    public static let ABS_X: UInt16 = 0x00
    public static let ABS_Y: UInt16 = 0x01
    /// `ABS_MT_SLOT - 1`: a device that has it is "fake MT" (libevdev): its axes at and above
    /// it are not multitouch.
    public static let ABS_RESERVED: UInt16 = 0x2e
    public static let ABS_MT_SLOT: UInt16 = 0x2f
    public static let ABS_MT_TOUCH_MAJOR: UInt16 = 0x30
    public static let ABS_MT_POSITION_X: UInt16 = 0x35
    public static let ABS_MT_POSITION_Y: UInt16 = 0x36
    public static let ABS_MT_TOOL_TYPE: UInt16 = 0x37
    public static let ABS_MT_TRACKING_ID: UInt16 = 0x39

    public static let INPUT_PROP_POINTER: UInt16 = 0x00
    public static let INPUT_PROP_DIRECT: UInt16 = 0x01
}

/// One absolute axis of a device (`struct input_absinfo`), in device units.
public struct AxisInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre; 0 when the device does not say.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum; self.maximum = maximum; self.fuzz = fuzz; self.flat = flat
        self.resolution = resolution
    }
}

/// What the core needs to know about a device: identity, axes, and which protocol it speaks.
/// Filled by the I/O shell from libevdev, or by replay from an evemu description.
public struct DeviceDescription: Hashable, Sendable {
    /// The kernel name of the event node, e.g. `event5`: the `device` field of lines.
    public var sysname: String
    public var name: String
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    /// ABS_X/ABS_Y, or nil when absent.
    public var x: AxisInfo?
    public var y: AxisInfo?
    /// ABS_MT_POSITION_X/Y, or nil when the device is not multitouch.
    public var mtX: AxisInfo?
    public var mtY: AxisInfo?
    /// Number of MT slots (ABS_MT_SLOT max + 1); 0 when the device has no slots.
    public var slotCount: Int
    public var hasTrackingID: Bool
    public var isDirect: Bool
    /// The device has `ABS_MT_SLOT - 1` (`ABS_RESERVED`): its "MT" axes are not multitouch
    /// (libevdev's fake MT); it is read through `ABS_X`/`ABS_Y`.
    public var isFakeMultitouch: Bool

    public init(sysname: String, name: String, bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0,
                x: AxisInfo? = nil, y: AxisInfo? = nil, mtX: AxisInfo? = nil, mtY: AxisInfo? = nil,
                slotCount: Int = 0, hasTrackingID: Bool = false, isDirect: Bool = true,
                isFakeMultitouch: Bool = false) {
        self.sysname = sysname; self.name = name; self.bustype = bustype; self.vendor = vendor
        self.product = product; self.x = x; self.y = y; self.mtX = mtX; self.mtY = mtY
        self.slotCount = slotCount; self.hasTrackingID = hasTrackingID; self.isDirect = isDirect
        self.isFakeMultitouch = isFakeMultitouch
    }
}
