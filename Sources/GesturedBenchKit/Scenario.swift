import GesturedCore

/// One benchmark scenario: a gesture's generated frame stream, a view tree and a recognizer set.
///
/// Everything is generated in code and deterministic (a fixed-seed generator), so a figure
/// measured today and one measured on the target board describe the same work.
public struct Scenario: Sendable, CustomStringConvertible {
    public enum Gesture: String, Sendable, CaseIterable {
        case tap, pan, pinchRotate = "pinch+rotate", swipe5 = "swipe5", chaos10 = "chaos10"

        /// Fingers down in steady state.
        public var fingers: Int {
            switch self {
            case .tap, .pan: 1
            case .pinchRotate: 2
            case .swipe5: 5
            case .chaos10: 10
            }
        }
    }

    /// Which recognizers the touched views carry.
    public enum Recognizers: String, Sendable, CaseIterable {
        /// The embedded default configuration's nine, on the root view.
        case defaultSet = "default"
        /// Twenty recognizers on the one view the touches land in, the continuous ones allowed to
        /// run simultaneously (the worst case: none of them is forced out early).
        case twenty = "20"
        /// The default nine and a stroke recognizer with the sixteen built-in templates: its
        /// path buffer fills, thins and is matched at every lift.
        case stroke = "default+stroke"
    }

    public var gesture: Gesture
    public var views: Int
    public var recognizers: Recognizers
    /// The device passes through (`passThrough: true`): every frame also decides what the
    /// application gets and encodes it for the clone (docs/KIOSK.md).
    public var passThrough: Bool

    public init(gesture: Gesture, views: Int, recognizers: Recognizers, passThrough: Bool = false) {
        self.gesture = gesture; self.views = views; self.recognizers = recognizers; self.passThrough = passThrough
    }

    /// Every combination: 5 gestures × {1, 32, 256} views × {default, 20} recognizers, and each
    /// gesture on one view with the stroke set.
    public static let all: [Scenario] = Gesture.allCases.flatMap { gesture in
        [1, 32, 256].flatMap { views in
            [Recognizers.defaultSet, .twenty].map { Scenario(gesture: gesture, views: views, recognizers: $0) }
        }
    } + Gesture.allCases.map { Scenario(gesture: $0, views: 1, recognizers: .stroke) }
      + Gesture.allCases.map { Scenario(gesture: $0, views: 32, recognizers: .defaultSet, passThrough: true) }

    public var description: String {
        "\(gesture.rawValue)/\(views)v/\(recognizers.rawValue)\(recognizers == .stroke ? "" : "r")"
            + (passThrough ? "/passThrough" : "")
    }

    public static let screen = Size(width: 1280, height: 800)

    /// A 10-slot protocol-B touchscreen, 0…4095 on both axes (like the test fixture
    /// `synthetic-touchscreen.desc`).
    public static let device = DeviceDescription(
        sysname: "event0", name: "gestured bench touchscreen",
        mtX: AxisInfo(minimum: 0, maximum: 4095, resolution: 16),
        mtY: AxisInfo(minimum: 0, maximum: 4095, resolution: 16),
        slotCount: 10, hasTrackingID: true)

    /// The configuration: a root view filling the screen and `views − 1` leaf subviews tiling it
    /// in a grid, so every touch is hit-tested through all of them and lands in a leaf.
    public func configuration(defaultGestures: [GestureSpec]) -> Configuration {
        let gestures = switch recognizers {
        case .defaultSet: defaultGestures
        case .twenty: Self.twentyRecognizers()
        case .stroke: defaultGestures + [Self.strokeRecognizer()]
        }
        let leaves = views - 1
        var root = ViewSpec(id: "root", gestures: [])
        if leaves == 0 {
            root.gestures = gestures
        } else {
            let columns = Int(Double(leaves).squareRoot().rounded(.up))
            let rows = (leaves + columns - 1) / columns
            let (w, h) = (Self.screen.width / Double(columns), Self.screen.height / Double(rows))
            for i in 0..<leaves {
                let frame = Rect(x: Double(i % columns) * w, y: Double(i / columns) * h, width: w, height: h)
                root.subviews.append(ViewSpec(id: "view-\(i)", frame: frame))
            }
            // The recognizers sit on the root, so each touch is routed through its leaf's path.
            root.gestures = gestures
        }
        return Configuration(screen: Self.screen, views: [root])
    }

    static func strokeRecognizer() -> GestureSpec {
        var p = StrokeParameters()
        p.templates = StrokeLibrary.all
        return GestureSpec(id: "shape", kind: .stroke(p))
    }

    static func twentyRecognizers() -> [GestureSpec] {
        var specs: [GestureSpec] = []
        for taps in 1...2 {
            for touches in 1...2 {
                var p = TapParameters(); p.numberOfTapsRequired = taps; p.numberOfTouchesRequired = touches
                specs.append(GestureSpec(id: "tap\(taps)x\(touches)", kind: .tap(p)))
            }
        }
        for touches in 1...2 {
            var p = LongPressParameters(); p.numberOfTouchesRequired = touches
            specs.append(GestureSpec(id: "longPress\(touches)", kind: .longPress(p)))
        }
        for touches in [1, 2, 5] {
            var p = SwipeParameters(); p.numberOfTouchesRequired = touches
            p.direction = [.left, .right, .up, .down]
            specs.append(GestureSpec(id: "swipe\(touches)", kind: .swipe(p)))
        }
        for minimum in [1, 2, 3, 5, 10] {
            var p = PanParameters(); p.minimumNumberOfTouches = minimum
            specs.append(GestureSpec(id: "pan\(minimum)", kind: .pan(p)))
        }
        for i in 0..<3 { specs.append(GestureSpec(id: "pinch\(i)", kind: .pinch(PinchParameters()))) }
        for i in 0..<3 { specs.append(GestureSpec(id: "rotation\(i)", kind: .rotation(RotationParameters()))) }
        // The continuous ones may all run together.
        let continuous = specs.filter {
            switch $0.kind {
            case .pan, .pinch, .rotation, .swipe: true
            case .tap, .longPress, .screenEdgePan, .stroke: false
            }
        }.map(\.id)
        for i in specs.indices where continuous.contains(specs[i].id) {
            specs[i].recognizeSimultaneouslyWith = continuous.filter { $0 != specs[i].id }
        }
        precondition(specs.count == 20)
        return specs
    }
}
