/// A position on a device, in its axis units (before `DeviceGeometry` maps it to points).
public struct DevicePosition: Hashable, Sendable {
    public var x: Int32
    public var y: Int32
    @inlinable public init(x: Int32, y: Int32) { self.x = x; self.y = y }
}

/// What happened to one contact in one frame.
public enum ContactPhase: Hashable, Sendable {
    case began, moved, ended
    /// The contact's fate is unknown (events were dropped, the device went away): whatever it was
    /// doing must be abandoned, not completed.
    case cancelled
}

/// One contact's change in a frame: the device's slot (0 for single-touch devices), the phase, and
/// the position in device units.
public struct ContactChange: Hashable, Sendable {
    public var slot: Int
    public var phase: ContactPhase
    public var position: DevicePosition
    @inlinable public init(slot: Int, phase: ContactPhase, position: DevicePosition) {
        self.slot = slot; self.phase = phase; self.position = position
    }
}

/// Everything that changed on one device at one instant (one `SYN_REPORT`).
public struct ContactFrame: Hashable, Sendable {
    public var time: Instant
    public var changes: [ContactChange]
    /// The kernel dropped events (`SYN_DROPPED`) just before this frame: gestures in progress
    /// must be cancelled. Such a frame has no changes; the resynchronized state follows.
    public var resynchronized: Bool
    public init(time: Instant, changes: [ContactChange] = [], resynchronized: Bool = false) {
        self.time = time; self.changes = changes; self.resynchronized = resynchronized
    }
}
