/// Where the daemon learns whether a screen is on (`power.source`, docs/KIOSK.md).
public enum PowerSource: String, Hashable, Sendable, CaseIterable {
    /// The DRM connector when the screen's output is known (`power.connector`), else the socket.
    case auto
    /// The DRM connector's `dpms` attribute (`power.connector`), read when a sequence begins.
    case drm
    /// A backlight's `bl_power` (`power.backlight`), read when a sequence begins.
    case backlight
    /// Control requests `screen off` / `screen on` (an idle manager's hooks, `gestured ctl`).
    case socket
}

/// What a touch that begins while its screen is off does (`power.wakeTouch`).
public enum WakeTouch: String, Hashable, Sendable, CaseIterable {
    /// Its whole sequence is claimed: it reaches neither the application nor a recognizer, and
    /// every client gets a `wake` line.
    case claim
    /// It is an ordinary touch (the screen is taken to be on from then on); no `wake` line.
    case forward
}

/// A screen's power settings (`power: { source, wakeTouch, wakeAction, connector, backlight }`).
public struct PowerPolicy: Hashable, Sendable {
    /// The name the wake action runs under (its log lines, its one-running-one-waiting queue).
    public static let wakeActionName = "power.wakeAction"

    public var source: PowerSource
    public var wakeTouch: WakeTouch
    /// A command the daemon runs when a wake touch is claimed (its `wake` line), with the line's
    /// `KIOSK_*` variables: it runs under the daemon's sandbox, so it cannot reach the Wayland
    /// session (docs/KIOSK.md). Its `state` is unused.
    public var wakeAction: GestureAction?
    /// The screen's DRM connector, as /sys/class/drm names it (`card1-HDMI-A-1`).
    public var connector: String?
    /// The screen's backlight, as /sys/class/backlight names it (`rpi_backlight`, `10-0045`).
    public var backlight: String?

    public init(source: PowerSource = .auto, wakeTouch: WakeTouch = .claim, connector: String? = nil,
                backlight: String? = nil, wakeAction: GestureAction? = nil) {
        self.source = source; self.wakeTouch = wakeTouch; self.connector = connector; self.backlight = backlight
        self.wakeAction = wakeAction
    }

    /// The attribute to read when a sequence begins; nil: the socket says (`screen off|on`).
    public var attribute: PowerAttribute? {
        switch source {
        case .auto, .drm: connector.map { .dpms(connector: $0) }
        case .backlight: backlight.map { .blPower(backlight: $0) }
        case .socket: nil
        }
    }
}

/// A sysfs attribute that says whether a screen is on.
public enum PowerAttribute: Hashable, Sendable {
    /// `/sys/class/drm/CONNECTOR/dpms`: `On`, or `Off`, `Standby`, `Suspend`. Atomic DRM drivers
    /// update it when the compositor turns the output off (wlopm, DPMS).
    case dpms(connector: String)
    /// `/sys/class/backlight/NAME/bl_power`: 0 (`FB_BLANK_UNBLANK`) when lit, else blanked.
    case blPower(backlight: String)

    /// Its path under the sysfs root `sys` (`/sys`; tests give another).
    public func path(sys: String = "/sys") -> String {
        switch self {
        case .dpms(let connector): sys + "/class/drm/" + connector + "/dpms"
        case .blPower(let backlight): sys + "/class/backlight/" + backlight + "/bl_power"
        }
    }

    /// Whether the text read says the screen is off; nil when it says nothing this knows.
    public func isOff(_ text: some StringProtocol) -> Bool? {
        let word = String(String(text).prefix { $0 != "\n" && $0 != " " })
        switch self {
        case .dpms:
            switch word {
            case "On": return false
            case "Off", "Standby", "Suspend": return true
            default: return nil
            }
        case .blPower:
            guard let value = Int(word), value >= 0 else { return nil }
            return value != 0
        }
    }
}

/// A screen's lock settings (`lock: { unlockGesture, unlockFrame }`).
public struct LockPolicy: Hashable, Sendable {
    /// The one gesture that runs while the screen is locked; when it ends, the lock ends
    /// (`unlock` lines). Nil: only `unlock` or the lock's time ends it.
    public var unlockGesture: GestureSpec?
    /// Where, in screen points, the unlock gesture's touches must begin; nil: anywhere.
    public var unlockFrame: Rect?

    public init(unlockGesture: GestureSpec? = nil, unlockFrame: Rect? = nil) {
        self.unlockGesture = unlockGesture; self.unlockFrame = unlockFrame
    }

    /// The view tree of the unlock gesture's own engine: one view, the frame, with the gesture.
    public var unlockViews: [ViewSpec]? {
        unlockGesture.map { [ViewSpec(id: "unlock", frame: unlockFrame, gestures: [$0])] }
    }
}

extension Configuration {
    /// The power settings of screen `index` (of `screenSpecs`): its own, else the top level's.
    public func power(ofScreen index: Int) -> PowerPolicy { screenSpecs[index].power ?? power }

    /// The lock settings of screen `index` (of `screenSpecs`): its own, else the top level's.
    public func lock(ofScreen index: Int) -> LockPolicy { screenSpecs[index].lock ?? lock }
}

/// The kiosk policy's limits, each with its unit and why.
public enum KioskLimits {
    /// The longest `lock SECONDS`, in seconds: an hour covers cleaning and a service visit; a
    /// longer lock is a mistake more often than a wish (a typo, or milliseconds taken for
    /// seconds), and a panel locked for days looks broken.
    public static let maximumLockSeconds = 3600
    /// The most `idle` thresholds per list: each is a line and a deadline.
    public static let maximumIdleThresholds = 16
    /// The longest idle threshold, in seconds (a week).
    public static let maximumIdleSeconds = 7 * 24 * 3600
}
