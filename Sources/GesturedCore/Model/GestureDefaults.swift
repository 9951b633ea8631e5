/// Every threshold the recognizers use, in one place, with its unit and its source.
///
/// UIKit publishes few of its numbers; where it is silent the default comes from the established
/// references named on each constant (docs/RECOGNIZERS.md lists them too). Each can be overridden
/// per recognizer in the configuration.
public enum GestureDefaults {
    // MARK: Tap

    /// Longest pause between one tap's lift and the next tap's touch-down in a multi-tap, 300 ms
    /// (exclusive: the deadline fires before a touch-down at the same instant).
    /// Source: Android `ViewConfiguration.DOUBLE_TAP_TIMEOUT`, Flutter `kDoubleTapTimeout`.
    public static let maximumTapInterval = Interval.milliseconds(300)
    /// Farthest a later tap of a multi-tap may land from the first, 100 pt.
    /// Source: Android `DOUBLE_TAP_SLOP` (100 dp), Flutter `kDoubleTapSlop`.
    public static let maximumTapDistance: Distance = 100
    /// How far a touch may move and still be a tap, 10 pt.
    /// Source: UIKit's observed tap slop (~10 pt); Hammer.js `tap.threshold` is 9 px.
    public static let tapMovementSlop: Distance = 10

    // MARK: Long press

    /// UIKit `UILongPressGestureRecognizer.minimumPressDuration` default, 0.5 s (Android and
    /// Flutter `kLongPressTimeout` agree).
    public static let minimumPressDuration = Interval.milliseconds(500)
    /// UIKit `UILongPressGestureRecognizer.allowableMovement` default, 10 pt.
    public static let allowableMovement: Distance = 10

    // MARK: Pan

    /// Movement of the centroid that makes a pan begin, 10 pt. Source: Hammer.js `pan.threshold`
    /// 10 px (Flutter's `kTouchSlop` is 18 logical px).
    public static let panSlop: Distance = 10

    // MARK: Pinch and rotation

    /// Change of the two touches' span that makes a pinch begin, 10 pt. Source: Flutter's
    /// `kScaleSlop = kTouchSlop`, i.e. the scale slop is the touch slop; ours is `panSlop` (10 pt).
    public static let pinchSlop: Distance = 10
    /// Turn of the line between the two touches that makes a rotation begin, 0.1 rad (≈ 5.7°).
    /// Source: none published (UIKit's is observed to be a few degrees; Hammer.js `rotate.threshold`
    /// is 0°). Chosen so that on a typical 200 pt two-finger span each finger has moved the
    /// 10 pt touch slop (`panSlop`) along its arc when the rotation begins.
    public static let rotationSlop: Angle = 0.1

    // MARK: Velocity

    /// Samples older than this, counted back from the newest, do not count towards a velocity,
    /// 100 ms. Source: Flutter `VelocityTracker._horizonMilliseconds`.
    public static let velocityHorizon = Interval.milliseconds(100)
    /// A gap this long between two consecutive samples means the touch stopped: older samples do
    /// not count, 40 ms. Source: Flutter `VelocityTracker._assumePointerMoveStoppedMilliseconds`.
    public static let velocityStopGap = Interval.milliseconds(40)
    /// Fewest samples in the window for a velocity estimate; fewer give 0, 3.
    /// Source: Flutter `VelocityTracker._minSampleSize`.
    public static let minimumVelocitySamples = 3

    // MARK: Swipe

    /// Minimum distance of a swipe, 10 pt. Source: Hammer.js `swipe.threshold` 10 px.
    public static let minimumSwipeDistance: Distance = 10
    /// Minimum speed of a swipe, 300 pt/s. Source: Hammer.js `swipe.velocity` 0.3 px/ms.
    public static let minimumSwipeVelocity: Speed = 300
    /// Longest a swipe may take from touch-down to lift, 0.5 s (a slower movement is a pan).
    /// Source: none published by UIKit; chosen to match its feel, configurable.
    public static let maximumSwipeDuration = Interval.milliseconds(500)
    /// Largest angle between the movement and the swipe's axis, π/8 (22.5°): the direction
    /// is the nearest of four only when it is well inside that direction's quadrant.
    public static let swipeAngleTolerance = Angle(radians: Double.pi / 8)

    // MARK: Screen edge

    /// Width of the zone along each screen edge where a screen-edge pan must begin, 20 pt.
    /// Source: SEMANTICS.md (UIKit's system edge zone is about 20 pt).
    public static let edgeZoneWidth: Distance = 20

    // MARK: Stroke

    /// Lowest score for a stroke to be recognized, 0.8 (score: 1 − angle/(π/2) between the
    /// normalized drawing and its best template, so 0.8 is an 18° angle). Source: measured by
    /// `gestured-bench strokes` on the seeded generator (docs/RECOGNIZERS.md, "Stroke accuracy"):
    /// the value where drawn shapes stay recognized and scribbles stay out.
    public static let minimumStrokeScore = 0.8
    /// Largest turn between a drawing and its template while `orientationSensitive`, π/6 (30°).
    /// Source: the $1 paper's ±45° search is wider than needed for kiosk shapes drawn upright;
    /// 30° keeps `x` and `delete`, `caret` and `v`-like shapes apart from their turned cousins.
    public static let strokeRotationTolerance = Angle(radians: Double.pi / 6)
    /// A stroke whose path is shorter than this at lift fails (a tap, a tremor), 30 pt: three
    /// times the tap slop (`tapMovementSlop`).
    public static let minimumStrokeLength: Distance = 30
}
