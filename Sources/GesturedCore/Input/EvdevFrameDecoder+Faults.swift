/// What the decoder refuses (a device it cannot decode) and what it survives (the anomalies it
/// counts).
extension EvdevFrameDecoder {
    /// Why a device cannot be decoded.
    public enum Unsupported: Error, Hashable, Sendable, CustomStringConvertible {
        case noPositionAxes
        case slotsWithoutTrackingID
        /// An axis whose range is empty or inverted (`min >= max`): positions cannot be scaled.
        case unusableAxis(name: String, minimum: Int32, maximum: Int32)
        /// A sysname longer than `DeviceName.capacity` bytes (kernel input nodes are `eventN`).
        case sysnameTooLong(String)
        public var description: String {
            switch self {
            case .noPositionAxes: "no ABS_MT_POSITION_X/Y or ABS_X/Y axes"
            case .slotsWithoutTrackingID: "MT slots without ABS_MT_TRACKING_ID, and no ABS_X/ABS_Y to fall back on"
            case .unusableAxis(let name, let minimum, let maximum):
                "axis \(name) has an unusable range \(minimum)..\(maximum) (minimum must be below maximum)"
            case .sysnameTooLong(let sysname):
                "sysname \"\(sysname)\" is longer than \(DeviceName.capacity) bytes"
            }
        }
    }

    /// A fault the decoder survived. Counted, never logged here.
    public enum Anomaly: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// A position outside the axis range; clamped to it.
        case valueOutOfRange
        /// `ABS_MT_SLOT` outside the device's slots; that slot's events are ignored.
        case slotOutOfRange
        /// A slot got a new tracking id without a -1 in between; the old contact ended.
        case trackingIDReused
        /// Events with a new timestamp before the previous frame's `SYN_REPORT`; they join the
        /// frame the next `SYN_REPORT` closes.
        case missingSynReport
        /// A frame earlier than the previous one; it keeps the previous frame's time.
        case timeWentBackwards
        /// More contacts than slots (protocol A) or than `maximumTouches`; the extra ones ignored.
        case tooManyContacts

        public var description: String {
            switch self {
            case .valueOutOfRange: "position outside the advertised axis range, clamped"
            case .slotOutOfRange: "ABS_MT_SLOT outside the device's slots, its events ignored"
            case .trackingIDReused: "slot reused by a new tracking id without a lift, the old touch ended"
            case .missingSynReport: "events of a new instant before SYN_REPORT, merged into the next frame"
            case .timeWentBackwards: "event time went backwards, frame kept at the previous time"
            case .tooManyContacts: "more contacts than the touch limit, the extra ones ignored"
            }
        }
    }
}
