/// Input a gesture sends to the compositor through the virtual device `gestured input`
/// (`action: { on: …, input: { … } }`, CONTRACT.md §7) instead of running a command: a key
/// chord, a pointer click, or wheel motion that follows a continuous gesture's translation.
///
/// Text (`input: { text: }`) is deliberately absent: a uinput device sends key codes, and which
/// character a code types is the compositor's keyboard layout's choice, so no text could be
/// typed the same on every layout (docs/CONFIG.md says so).
public struct InputAction: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Key codes pressed in order and released in reverse (`"ctrl+shift+t"`).
        case key([UInt16])
        /// A button pressed and released at the gesture's location, or at `at` (screen points).
        case click(PointerButton, at: Point?)
        /// The gesture's translation as wheel motion on the given axes.
        case scroll(ScrollAxes, ScrollDirection)
    }

    public var kind: Kind
    /// Where the pointer is left after a click or a scroll.
    public var pointerAfter: PointerAfter
    /// Screen points of translation per wheel detent (scroll only).
    public var pointsPerDetent: Double

    /// One wheel detent per this many points of finger travel. Chromium and Firefox scroll about
    /// 50 pixels per detent on Linux (three lines), so a finger's travel scrolls about as far as
    /// the finger moved; overridable with `pointsPerDetent`.
    public static let defaultPointsPerDetent = 50.0
    /// The kernel's high-resolution wheel units per detent (`REL_WHEEL_HI_RES`, linux/input.h).
    public static let hiResPerDetent = 120

    public init(_ kind: Kind, pointerAfter: PointerAfter = .stay,
                pointsPerDetent: Double = InputAction.defaultPointsPerDetent) {
        self.kind = kind; self.pointerAfter = pointerAfter; self.pointsPerDetent = pointsPerDetent
    }

    /// Whether the action follows every state of its gesture (scroll) rather than one (`on`).
    public var followsGesture: Bool {
        switch kind {
        case .scroll: true
        case .key, .click: false
        }
    }

    /// What it sends, in words (`replay`'s notice, `explain`): `key KEY_LEFTALT+KEY_HOME`,
    /// `click right`, `click left at 10,20`, `scroll vertical natural`.
    public var summary: String {
        switch kind {
        case .key(let codes): "key " + codes.map(KeyName.name(of:)).joined(separator: "+")
        case .click(let button, nil): "click \(button.rawValue)"
        case .click(let button, let at?): "click \(button.rawValue) at \(at.x),\(at.y)"
        case .scroll(let axes, let direction): "scroll \(axes.rawValue) \(direction.rawValue)"
        }
    }

    /// Whether it moves the pointer (so the device needs the absolute axes).
    public var usesPointer: Bool {
        switch kind {
        case .click, .scroll: true
        case .key: false
        }
    }
}

/// A mouse button, named as `input: { click: }` names it.
public enum PointerButton: String, Hashable, Sendable, CaseIterable {
    case left, right, middle

    /// `BTN_LEFT`, `BTN_RIGHT`, `BTN_MIDDLE` (linux/input-event-codes.h).
    public var code: UInt16 {
        switch self {
        case .left: 0x110
        case .right: 0x111
        case .middle: 0x112
        }
    }
}

/// Which wheels a scroll moves.
public enum ScrollAxes: String, Hashable, Sendable, CaseIterable {
    case vertical, horizontal, both

    public var vertical: Bool { self != .horizontal }
    public var horizontal: Bool { self != .vertical }
}

/// How the finger's travel maps to the wheel.
public enum ScrollDirection: String, Hashable, Sendable, CaseIterable {
    /// The content follows the finger, as touch scrolling does everywhere.
    case natural
    /// The wheel turns the way the finger goes (the content moves against it).
    case reversed
}

/// Where the pointer stays after a click or a scroll.
public enum PointerAfter: String, Hashable, Sendable, CaseIterable {
    /// Left where it acted: hover effects stay under the finger's last place.
    case stay
    /// Moved to the screen's bottom-right corner, out of the way of what was touched (the
    /// cursor most compositors then draw sits in the corner).
    case aside
}

extension GestureKind {
    /// Whether its events carry a translation (`GestureValues.pan`, `.screenEdgePan`): the
    /// gestures a scroll can follow.
    public var hasTranslation: Bool {
        switch self {
        case .pan, .screenEdgePan: true
        case .tap, .swipe, .pinch, .rotation, .longPress, .stroke: false
        }
    }
}
