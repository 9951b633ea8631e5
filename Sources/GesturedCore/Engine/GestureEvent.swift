/// A recognizer's state as reported on the wire (UIKit's `UIGestureRecognizer.State`, without
/// `possible`, which is never reported).
public enum GestureState: String, Hashable, Sendable {
    case began, changed, ended, cancelled, failed
}

/// The type-specific values of a gesture event (CONTRACT.md §3).
///
/// Plain values, trivially copyable (no `String`): a sample is copied into every proposal and
/// event, and proposals and events are cleared every frame, which for a value holding a
/// reference goes through the runtime's value witnesses and reference counting.
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
    /// The best template and its score, 0…1. `template` is the index of its name in the
    /// recognizer's templates (`GestureLabel.templates`); `GestureEvent.template` reads it.
    case stroke(template: Int, score: Double)
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
        self.init(touches: touches, location: location, device: DeviceName(), values: values)
    }
}

/// One gesture line's worth of information, before encoding.
public struct GestureEvent: Hashable, Sendable {
    /// The recognizer's type, gesture id, view id, screen id and template names, shared by all
    /// its events (one reference to copy per event instead of strings; its line prefix is
    /// encoded once). The rest of the event is plain values.
    public var label: GestureLabel
    public var state: GestureState
    /// Kernel CLOCK_MONOTONIC time of the frame or deadline that produced the event.
    public var time: Instant
    public var sample: GestureSample
    /// `sample.location` in the view's coordinates.
    public var viewLocation: Point

    /// The recognizer type (`tap`, `pan`, ...). Setting one of the label's strings makes a new
    /// label (tests do; the engine never does), keeping the rest of it, its slot included.
    public var type: String {
        get { label.type }
        set { relabel(type: newValue) }
    }
    /// The gesture's id from the configuration.
    public var name: String {
        get { label.name }
        set { relabel(name: newValue) }
    }
    /// The id of the view the recognizer is attached to.
    public var view: String {
        get { label.view }
        set { relabel(view: newValue) }
    }
    /// The id of the screen whose view tree made it; nil in the single form.
    public var screen: String? {
        get { label.screen }
        set { relabel(screen: .some(newValue)) }
    }

    private mutating func relabel(type: String? = nil, name: String? = nil, view: String? = nil, screen: String?? = nil) {
        label = GestureLabel(type: type ?? label.type, name: name ?? label.name, view: view ?? label.view,
                             screen: screen ?? label.screen, templates: label.templates, slot: label.slot,
                             action: label.action)
    }

    /// A stroke's template name (`GestureValues.stroke`), nil for other values (and for an
    /// index the label has no name for, which the engine never makes).
    public var template: String? {
        guard case .stroke(let index, _) = sample.values, label.templates.indices.contains(index) else { return nil }
        return label.templates[index]
    }

    /// An event with a label of its own (tests make events this way; the engine shares one
    /// label per recognizer). `templates` names a stroke's `GestureValues.stroke` indices.
    public init(type: String, state: GestureState, name: String, view: String, time: Instant,
                sample: GestureSample, viewLocation: Point, screen: String? = nil, templates: [String] = []) {
        self.init(label: GestureLabel(type: type, name: name, view: view, screen: screen, templates: templates),
                  state: state, time: time, sample: sample, viewLocation: viewLocation)
    }

    public init(label: GestureLabel, state: GestureState, time: Instant, sample: GestureSample, viewLocation: Point) {
        self.label = label; self.state = state; self.time = time; self.sample = sample; self.viewLocation = viewLocation
    }
}

/// What every event of one recognizer repeats: its type, gesture id and view id, with the
/// gesture line's pieces made of them already encoded in each format (`LineEncoder`), so that
/// a line copies them instead of quoting and escaping three strings; and the names an event's
/// plain values refer to (its screen, a stroke's templates). Made once per recognizer when the
/// engine is built.
public final class GestureLabel: Hashable, Sendable {
    public let type: String
    public let name: String
    public let view: String
    /// The id of the screen whose view tree the recognizer is in; nil in the single form.
    public let screen: String?
    /// A stroke recognizer's template names, in the order `GestureValues.stroke` and
    /// `FailReason.noTemplateMatched` index them (empty for other types).
    public let templates: [String]
    /// The line's pieces in text and in JSON (`LineEncoder.GesturePrefix`).
    private let text: LineEncoder.GesturePrefix
    private let json: LineEncoder.GesturePrefix

    /// The recognizer's slot in the engine that made it (nil for labels made elsewhere, e.g. by
    /// tests): what the pipeline needs to know which recognizer an event is from.
    let slot: Int?
    /// The command the configuration runs when this gesture reaches a state (`action`): the
    /// pipeline puts an event that reaches it into its batch's actions.
    public let action: GestureAction?

    public convenience init(type: String, name: String, view: String, screen: String? = nil, templates: [String] = []) {
        self.init(type: type, name: name, view: view, screen: screen, templates: templates, slot: nil)
    }

    init(type: String, name: String, view: String, screen: String?, templates: [String], slot: Int?,
         action: GestureAction? = nil) {
        self.type = type; self.name = name; self.view = view; self.screen = screen; self.templates = templates
        self.slot = slot
        self.action = action
        text = LineEncoder.GesturePrefix(type: type, name: name, view: view, format: .text)
        json = LineEncoder.GesturePrefix(type: type, name: name, view: view, format: .json)
    }

    func prefix(_ format: LineFormat) -> LineEncoder.GesturePrefix {
        switch format {
        case .text: text
        case .json: json
        }
    }

    public static func == (a: GestureLabel, b: GestureLabel) -> Bool {
        a === b || (a.type == b.type && a.name == b.name && a.view == b.view && a.screen == b.screen
                    && a.templates == b.templates)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type); hasher.combine(name); hasher.combine(view)
    }
}
