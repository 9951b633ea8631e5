/// Where the daemon learns whether a screen is on (`power.source`, docs/KIOSK.md).
public enum PowerSource: String, Hashable, Sendable, CaseIterable {
    /// The DRM connector when the screen's output is known, else the socket. This version knows
    /// no screen's output yet, so it is the socket.
    case auto
    /// The DRM connector's `dpms` attribute (not read by this version: the reader refuses it).
    case drm
    /// A backlight's `bl_power` (not read by this version: the reader refuses it).
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

/// A screen's power settings (`power: { source, wakeTouch }`).
public struct PowerPolicy: Hashable, Sendable {
    public var source: PowerSource
    public var wakeTouch: WakeTouch

    public init(source: PowerSource = .auto, wakeTouch: WakeTouch = .claim) {
        self.source = source; self.wakeTouch = wakeTouch
    }
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
