/// A recognizer's state as reported on the wire (UIKit's `UIGestureRecognizer.State`, without
/// `possible`, which is never reported).
public enum GestureState: String, Hashable, Sendable {
    case began, changed, ended, cancelled, failed
}

/// The type-specific values of a gesture event (CONTRACT.md §3).
public enum GestureValues: Hashable, Sendable {
    /// Failed and cancelled events, which carry no values.
    case none
    case tap(taps: Int)
    case swipe(direction: SwipeDirection)
    case pan(translation: Vector, velocity: Vector)
    case screenEdgePan(translation: Vector, velocity: Vector, edge: ScreenEdge)
    /// `velocity` in scale per second.
    case pinch(scale: Double, velocity: Double)
    /// `rotation` in radians, clockwise on screen positive; `velocity` in radians per second.
    case rotation(rotation: Double, velocity: Double)
    case longPress(duration: Interval)
    /// The best template's name and its score, 0…1.
    case stroke(template: String, score: Double)
}

/// What a recognizer reports with a transition: where, with how many touches, and its values.
public struct GestureSample: Hashable, Sendable {
    public var touches: Int
    /// Screen coordinates (centroid for several touches).
    public var location: Point
    public var device: DeviceName
    public var values: GestureValues

    public init(touches: Int, location: Point, device: DeviceName, values: GestureValues) {
        self.touches = touches; self.location = location; self.device = device; self.values = values
    }

    /// A recognizer's sample. Recognizers do not follow devices: the engine sets `device`, the
    /// one whose frame (or whose last frame, for a deadline) the recognizer saw.
    init(touches: Int, location: Point, values: GestureValues) {
        self.init(touches: touches, location: location, device: "", values: values)
    }
}

/// One gesture line's worth of information, before encoding.
public struct GestureEvent: Hashable, Sendable {
    /// The recognizer type (`tap`, `pan`, ...).
    public var type: String
    public var state: GestureState
    /// The gesture's id from the configuration.
    public var name: String
    /// The id of the view the recognizer is attached to.
    public var view: String
    /// Kernel CLOCK_MONOTONIC time of the frame or deadline that produced the event.
    public var time: Instant
    public var sample: GestureSample
    /// `sample.location` in the view's coordinates.
    public var viewLocation: Point
    /// The id of the screen whose view tree made it (set by the pipeline); nil in the single form.
    public var screen: String? = nil

    public init(type: String, state: GestureState, name: String, view: String, time: Instant,
                sample: GestureSample, viewLocation: Point) {
        self.type = type; self.state = state; self.name = name; self.view = view; self.time = time
        self.sample = sample; self.viewLocation = viewLocation
    }
}
