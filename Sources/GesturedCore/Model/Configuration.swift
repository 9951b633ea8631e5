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
    /// Who holds every right (`RightsPolicy`).
    public var control: ControlPolicy
    /// `permissions`: who holds one right, per right.
    public var permissions: [Right: ControlPolicy] = [:]
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
    /// `mqtt`: the bridge's broker and topics (`gestured mqtt`); nil: none configured. The daemon
    /// ignores it.
    public var mqtt: MQTTSettings?

    public init(screen: Size? = nil, devices: [DeviceRule] = [], views: [ViewSpec] = [],
                layouts: [String: Layout] = [:], control: ControlPolicy = ControlPolicy(),
                socket: SocketSettings = SocketSettings(), screens: [ScreenSpec] = [],
                idle: [Interval] = [], power: PowerPolicy = PowerPolicy()) {
        self.screen = screen; self.devices = devices; self.views = views
        self.layouts = layouts; self.control = control; self.socket = socket; self.screens = screens
        self.idle = idle; self.power = power
    }
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
