/// A recognizer's type and parameters (UIKit's names; durations in seconds in the config).
public enum GestureKind: Hashable, Sendable {
    case tap(TapParameters)
    case swipe(SwipeParameters)
    case pan(PanParameters)
    case pinch(PinchParameters)
    case rotation(RotationParameters)
    case longPress(LongPressParameters)
    case screenEdgePan(ScreenEdgePanParameters)
    case stroke(StrokeParameters)

    /// The `type` string of the configuration and of gesture lines.
    public var typeName: String {
        switch self {
        case .tap: "tap"
        case .swipe: "swipe"
        case .pan: "pan"
        case .pinch: "pinch"
        case .rotation: "rotation"
        case .longPress: "longPress"
        case .screenEdgePan: "screenEdgePan"
        case .stroke: "stroke"
        }
    }
}

public struct TapParameters: Hashable, Sendable {
    public var numberOfTapsRequired = 1
    public var numberOfTouchesRequired = 1
    public var maximumTapInterval = GestureDefaults.maximumTapInterval
    public var maximumTapDistance = GestureDefaults.maximumTapDistance
    public var movementSlop = GestureDefaults.tapMovementSlop
    public init() {}
}

/// A swipe direction; also the `direction` field of swipe lines.
public enum SwipeDirection: String, Hashable, Sendable, CaseIterable {
    case right, left, up, down
}

public struct SwipeParameters: Hashable, Sendable {
    public var direction: Set<SwipeDirection> = [.right]
    public var numberOfTouchesRequired = 1
    public var minimumDistance = GestureDefaults.minimumSwipeDistance
    public var minimumVelocity = GestureDefaults.minimumSwipeVelocity
    public var maximumDuration = GestureDefaults.maximumSwipeDuration
    public var angleTolerance = GestureDefaults.swipeAngleTolerance
    public init() {}
}

public struct PanParameters: Hashable, Sendable {
    public var minimumNumberOfTouches = 1
    /// `nil`: unbounded (UIKit's `Int.max`).
    public var maximumNumberOfTouches: Int? = nil
    public var slop = GestureDefaults.panSlop
    public init() {}
}

public struct PinchParameters: Hashable, Sendable {
    /// Change of the span between the two touches that makes the pinch begin.
    public var slop = GestureDefaults.pinchSlop
    public init() {}
}

public struct RotationParameters: Hashable, Sendable {
    /// Turn of the two touches that makes the rotation begin.
    public var slop = GestureDefaults.rotationSlop
    public init() {}
}

public struct LongPressParameters: Hashable, Sendable {
    public var minimumPressDuration = GestureDefaults.minimumPressDuration
    public var allowableMovement = GestureDefaults.allowableMovement
    public var numberOfTouchesRequired = 1
    public var numberOfTapsRequired = 0
    public var maximumTapInterval = GestureDefaults.maximumTapInterval
    public init() {}
}

/// A screen edge; also the `edge` field of screen-edge pan lines.
public enum ScreenEdge: String, Hashable, Sendable, CaseIterable {
    case top, left, bottom, right
}

public struct ScreenEdgePanParameters: Hashable, Sendable {
    public var edges: Set<ScreenEdge> = []
    public var edgeZoneWidth = GestureDefaults.edgeZoneWidth
    public var slop = GestureDefaults.panSlop
    public init() {}
}

/// A stroke recognizer's parameters (docs/RECOGNIZERS.md, "stroke").
public struct StrokeParameters: Hashable, Sendable {
    /// The shapes it recognizes; several of one name are several examples of that shape.
    public var templates: [StrokeTemplate] = []
    /// The lowest score (0…1) a best match must reach to be recognized.
    public var minimumScore = GestureDefaults.minimumStrokeScore
    public var numberOfTouchesRequired = 1
    /// True: a drawing may be turned by at most `rotationTolerance` from its template.
    /// False: any turn matches (a shape and its turned copy are one shape).
    public var orientationSensitive = true
    /// Used while `orientationSensitive`.
    public var rotationTolerance = GestureDefaults.strokeRotationTolerance
    public init() {}
}

/// One example of a shape: its name and the path that draws it, in any unit and at any place
/// and size (matching is invariant to all three).
public struct StrokeTemplate: Hashable, Sendable {
    /// Fewest points a template may have: two make a line, the least that has a direction.
    public static let minimumPoints = 2

    public var name: String
    public var points: [Point]

    public init(name: String, points: [Point]) { self.name = name; self.points = points }
}
