/// The validated configuration: the screen, device rules, and the view tree with its recognizers.
///
/// These are plain values. `GesturedConfig` builds them from JSON5 and guarantees the invariants
/// stated on each type (unique ids, resolvable references, no `requireToFail` cycles), so the core
/// can rely on them without checking again.
public struct Configuration: Hashable, Sendable {
    /// The screen's coordinate space in points. `nil`: the config did not say; see `DeviceGeometry`.
    public var screen: Size?
    /// Device rules; the first whose `match` fits a device applies.
    public var devices: [DeviceRule]
    /// Top-level views, back to front.
    public var views: [ViewSpec]
    /// Named sets of view changes for the `layout` request.
    public var layouts: [String: Layout]
    /// Who may send control requests.
    public var control: ControlPolicy
    /// The listening socket's mode, group and client limits (read once, at start).
    public var socket: SocketSettings
    /// The `screens` form (several touch panels, each with its own views): empty for the single
    /// form, where `screen`, `views` and `layouts` above are the one screen (see `screenSpecs`).
    public var screens: [ScreenSpec]
    /// `idle`: the thresholds, increasing, after which an `idle` line says how long no touch
    /// began on any screen (docs/KIOSK.md). Empty: no idle lines and no idle deadline.
    public var idle: [Interval]
    /// `power`: every screen's, unless a screen of `screens` sets its own.
    public var power: PowerPolicy
    /// `lock`: every screen's, unless a screen of `screens` sets its own.
    public var lock = LockPolicy()

    public init(screen: Size? = nil, devices: [DeviceRule] = [], views: [ViewSpec] = [],
                layouts: [String: Layout] = [:], control: ControlPolicy = ControlPolicy(),
                socket: SocketSettings = SocketSettings(), screens: [ScreenSpec] = [],
                idle: [Interval] = [], power: PowerPolicy = PowerPolicy()) {
        self.screen = screen; self.devices = devices; self.views = views
        self.layouts = layouts; self.control = control; self.socket = socket; self.screens = screens
        self.idle = idle; self.power = power
    }
}

/// Screen rotation of a device's axes, clockwise.
public enum Rotation: Int, Hashable, Sendable, CaseIterable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270
}

/// Which devices a rule applies to. Every given key must match (string keys are globs with `*`,
/// `?`, `[...]`); a match without keys matches every device.
public struct DeviceMatch: Hashable, Sendable {
    public var name: String?
    public var sysname: String?
    /// USB/Bluetooth/… ids (`EVIOCGID`), exact.
    public var vendor: UInt16?
    public var product: UInt16?
    /// What udev says the device is (`ID_INPUT_TOUCHSCREEN`, `ID_INPUT_TOUCHPAD`, `ID_INPUT_TABLET`).
    public var type: DeviceKind?
    /// udev properties, each value a glob (`ID_PATH: "pci-*"`); a missing property never matches.
    public var properties: [String: String]

    public init(name: String? = nil, sysname: String? = nil, vendor: UInt16? = nil, product: UInt16? = nil,
                type: DeviceKind? = nil, properties: [String: String] = [:]) {
        self.name = name; self.sysname = sysname; self.vendor = vendor; self.product = product
        self.type = type; self.properties = properties
    }
}

/// A device's kind as udev's `60-input-id` rules classify it; the `type` of `DeviceMatch` and of
/// `gestured devices`.
public enum DeviceKind: String, Hashable, Sendable, CaseIterable {
    case touchscreen, touchpad, tablet, other

    /// From the udev properties: touchscreen before tablet before touchpad (a pen display sets
    /// both `ID_INPUT_TOUCHSCREEN` and `ID_INPUT_TABLET` on its touch node).
    public init(properties: [String: String]) {
        if properties["ID_INPUT_TOUCHSCREEN"] == "1" { self = .touchscreen }
        else if properties["ID_INPUT_TABLET"] == "1" { self = .tablet }
        else if properties["ID_INPUT_TOUCHPAD"] == "1" { self = .touchpad }
        else { self = .other }
    }
}

/// How the daemon treats the devices a rule matches.
public struct DeviceRule: Hashable, Sendable {
    public var match: DeviceMatch
    public var rotation: Rotation
    /// libinput's calibration matrix (a, b, c, d, e, f) on normalized device coordinates:
    /// x' = a·x + b·y + c, y' = d·x + e·y + f. `nil`: identity (or the udev property).
    public var calibration: [Double]?
    public var grab: Bool
    public var ignore: Bool
    /// Use the device even though udev does not call it a touchscreen (a touchpad, a touch
    /// tablet, an unclassified panel). Touchscreens are used without it.
    public var add: Bool
    /// At most this many simultaneous touches; further ones are ignored for their whole life.
    /// `nil`: no limit but the device's slots.
    public var maximumTouches: Int?
    /// Forward the touches the application should get to a uinput clone of the device
    /// (docs/KIOSK.md). Implies `grab`.
    public var passThrough: Bool
    /// How a touch the map claims ends in the application (CONTRACT.md §5).
    public var cancelStyle: CancelStyle

    public init(match: DeviceMatch = DeviceMatch(), rotation: Rotation = .none,
                calibration: [Double]? = nil, grab: Bool = false, ignore: Bool = false,
                add: Bool = false, maximumTouches: Int? = nil, passThrough: Bool = false,
                cancelStyle: CancelStyle = .default) {
        self.match = match; self.rotation = rotation; self.calibration = calibration
        self.grab = grab || passThrough; self.ignore = ignore; self.add = add; self.maximumTouches = maximumTouches
        self.passThrough = passThrough; self.cancelStyle = cancelStyle
    }
}

/// How a touch the map claims (or the daemon cancels) ends on a pass-through device's clone,
/// that is in the application. The core decides the same either way; only the evdev events
/// differ (`CloneEncoder`).
public enum CancelStyle: String, Hashable, Sendable, CaseIterable {
    /// `MT_TOOL_PALM`, then the lift: libinput's `TOUCH_CANCEL`, which a compositor that passes
    /// it on makes `wl_touch.cancel`. Debian 12's wlroots 0.15 (cage, sway) and weston 10 drop
    /// it: the application then keeps the touch pressed (docs/KIOSK.md, measured).
    case palm
    /// A plain lift: libinput's `TOUCH_UP`, `wl_touch.up` in every compositor, so nothing stays
    /// pressed; the application sees the touch end where it was, as an ordinary lift.
    case lift

    /// The measured choice for Debian 12's compositors (docs/KIOSK.md): see there.
    public static let `default`: CancelStyle = .lift
}

/// A non-rectangular hit area, UIKit's `point(inside:with:)` override, in the view's coordinates.
public enum HitShape: Hashable, Sendable {
    case circle(center: Point, radius: Double)
    /// A closed polygon; inside by the even-odd rule.
    case polygon([Point])
}

/// One view of the region map.
public struct ViewSpec: Hashable, Sendable {
    public var id: String
    /// In the parent's coordinates. `nil`: the view fills its parent's bounds (the screen, for a
    /// top-level view), so that a config need not repeat the screen size.
    public var frame: Rect?
    public var isUserInteractionEnabled: Bool
    public var isHidden: Bool
    public var alpha: Double
    /// Applied to the bounds for hit-testing; negative values enlarge the target.
    public var hitTestInsets: EdgeInsets
    /// When set, replaces the (inset) bounds as the hit area.
    public var hitShape: HitShape?
    public var gestures: [GestureSpec]
    /// Back to front: the last is frontmost.
    public var subviews: [ViewSpec]
    /// False: touches that begin in this view or its subviews never reach the application
    /// behind a pass-through device (docs/KIOSK.md).
    public var forwardsTouches: Bool

    public init(id: String, frame: Rect? = nil, isUserInteractionEnabled: Bool = true, isHidden: Bool = false,
                alpha: Double = 1, hitTestInsets: EdgeInsets = .zero, hitShape: HitShape? = nil,
                gestures: [GestureSpec] = [], subviews: [ViewSpec] = [], forwardsTouches: Bool = true) {
        self.id = id; self.frame = frame; self.isUserInteractionEnabled = isUserInteractionEnabled
        self.isHidden = isHidden; self.alpha = alpha; self.hitTestInsets = hitTestInsets
        self.hitShape = hitShape; self.gestures = gestures; self.subviews = subviews
        self.forwardsTouches = forwardsTouches
    }
}

/// One recognizer attached to a view.
public struct GestureSpec: Hashable, Sendable {
    /// Unique in the configuration; the `name` field of gesture lines.
    public var id: String
    public var kind: GestureKind
    /// Ids of recognizers that must fail before this one may leave `possible`.
    public var requireToFail: [String]
    /// Ids of recognizers this one may recognize together with (the relation is symmetric).
    public var recognizeSimultaneouslyWith: [String]
    /// A command the daemon runs when the gesture reaches a state.
    public var action: GestureAction?
    /// What the recognizer does to the touches the application gets (pass-through devices).
    public var delivery: TouchDelivery

    public init(id: String, kind: GestureKind, requireToFail: [String] = [],
                recognizeSimultaneouslyWith: [String] = [], action: GestureAction? = nil,
                delivery: TouchDelivery = TouchDelivery()) {
        self.id = id; self.kind = kind; self.requireToFail = requireToFail
        self.recognizeSimultaneouslyWith = recognizeSimultaneouslyWith; self.action = action
        self.delivery = delivery
    }
}

/// UIKit's three properties of a recognizer on the touches its view receives, with UIKit's
/// defaults; here the "view" is the application behind a pass-through device (docs/KIOSK.md).
public struct TouchDelivery: Hashable, Sendable {
    /// When the recognizer recognizes (discrete) or begins (continuous), its touches already
    /// forwarded are cancelled in the application.
    public var cancelsTouchesInView = true
    /// A touch's down and moves are held back from the application while this recognizer is
    /// undecided; sent when it fails, never when it recognizes.
    public var delaysTouchesBegan = false
    /// A touch's lift is held back while this recognizer is undecided (a double tap's first tap).
    public var delaysTouchesEnded = true

    public init(cancelsTouchesInView: Bool = true, delaysTouchesBegan: Bool = false, delaysTouchesEnded: Bool = true) {
        self.cancelsTouchesInView = cancelsTouchesInView; self.delaysTouchesBegan = delaysTouchesBegan
        self.delaysTouchesEnded = delaysTouchesEnded
    }
}

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
