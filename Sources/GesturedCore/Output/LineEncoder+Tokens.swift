// The names of enum values in lines: literals, so that a line copies them without building a
// `String`. Each must equal the case's `rawValue` (LineEncoderTests checks every case).

extension GestureState {
    var token: StaticString {
        switch self {
        case .began: "began"
        case .changed: "changed"
        case .ended: "ended"
        case .cancelled: "cancelled"
        case .failed: "failed"
        }
    }
}

extension TouchPhase {
    var token: StaticString {
        switch self {
        case .began: "began"
        case .moved: "moved"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }
}

extension SwipeDirection {
    var token: StaticString {
        switch self {
        case .right: "right"
        case .left: "left"
        case .up: "up"
        case .down: "down"
        }
    }
}

extension ScreenEdge {
    var token: StaticString {
        switch self {
        case .top: "top"
        case .left: "left"
        case .bottom: "bottom"
        case .right: "right"
        }
    }
}

extension ForwardedTouch.Kind {
    var token: StaticString {
        switch self {
        case .down: "down"
        case .move: "move"
        case .cancel: "cancel"
        case .up: "up"
        }
    }
}
