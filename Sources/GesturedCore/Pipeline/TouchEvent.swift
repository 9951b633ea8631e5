/// A touch line's worth of information.
public struct TouchEvent: Hashable, Sendable {
    public var update: TouchUpdate
    /// The id of the view the touch was hit-tested to, nil when it hit none.
    public var view: String?
    public var time: Instant
    /// The id of the touch's screen; nil in the single form.
    public var screen: String? = nil
}

extension DeviceDescription {
    /// The axes that carry positions, as `EvdevFrameDecoder` chooses them: MT when present and
    /// usable (not fake MT; slots need tracking ids unless there is no single-touch fallback),
    /// else single-touch.
    public var positionAxes: (AxisInfo, AxisInfo)? {
        let singleTouch = x != nil && y != nil
        if !isFakeMultitouch, let x = mtX, let y = mtY, !(slotCount > 0 && !hasTrackingID && singleTouch) {
            return (x, y)
        }
        if let x = x, let y = y { return (x, y) }
        return nil
    }
}
