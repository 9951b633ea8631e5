/// A touch's identity, stable for its lifetime and never reused while the daemon runs.
public struct TouchID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var value: UInt64
    @inlinable public init(_ value: UInt64) { self.value = value }
    @inlinable public static func < (a: TouchID, b: TouchID) -> Bool { a.value < b.value }
    public var description: String { String(value) }
}

/// A touch's phase in one frame (UIKit's `UITouch.Phase`; stationary touches are not reported).
public enum TouchPhase: String, Hashable, Sendable {
    case began, moved, ended, cancelled
}

/// One touch's change in one frame, in screen points.
public struct TouchUpdate: Hashable, Sendable {
    public var id: TouchID
    public var phase: TouchPhase
    /// Screen coordinates, in points.
    public var location: Point
    /// The device's sysname, e.g. `event5`.
    public var device: DeviceName
    public var slot: Int

    @inlinable public init(id: TouchID, phase: TouchPhase, location: Point, device: DeviceName, slot: Int) {
        self.id = id; self.phase = phase; self.location = location; self.device = device; self.slot = slot
    }
}
