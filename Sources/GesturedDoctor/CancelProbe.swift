import GesturedCore

/// `gestured doctor --probe-cancel`'s reading of what `gestured-surface` printed (gestured(8),
/// GESTURED-SURFACE) and its verdict: per `cancelStyle`, what the compositor gave the surface for
/// one touch pressed and then cancelled in that style on the probe's own clone, and which styles
/// fit. "Fits" means what it means in `CancelPassing`: the style leaves no touch pressed in the
/// application. The shell presses, waits and collects the lines; everything decided is here.
public enum CancelProbe {
    /// One line of `gestured-surface`.
    public enum SurfaceLine: Equatable, Sendable {
        case ready(width: Int, height: Int)
        case down(id: Int, x: Double, y: Double)
        case motion(id: Int, x: Double, y: Double)
        case up(id: Int)
        case cancel
        case frame

        /// nil for a line that is none of these (the probe ignores it).
        public init?(_ line: Substring) {
            let words = line.split(separator: " ")
            guard let kind = words.first else { return nil }
            switch (kind, words.count) {
            case ("ready", 3):
                guard let width = Int(words[1]), let height = Int(words[2]), width > 0, height > 0 else { return nil }
                self = .ready(width: width, height: height)
            case ("down", 4), ("motion", 4):
                guard let id = Int(words[1]), let x = Double(words[2]), let y = Double(words[3]) else { return nil }
                self = kind == "down" ? .down(id: id, x: x, y: y) : .motion(id: id, x: x, y: y)
            case ("up", 2):
                guard let id = Int(words[1]) else { return nil }
                self = .up(id: id)
            case ("cancel", 1): self = .cancel
            case ("frame", 1): self = .frame
            default: return nil
            }
        }
    }

    /// What the surface received for the probe's touch after its down.
    public enum Received: String, Equatable, Sendable {
        /// `wl_touch.cancel`: the compositor passes libinput's cancel on.
        case cancel
        /// `wl_touch.up` for the touch.
        case up
        /// Neither before the deadline: the touch is left pressed in the application.
        case nothing
    }

    /// One style's transcript: the lines from the press on. `outcome` is decided as soon as
    /// the lines say so; `finish()` is the verdict when the deadline has passed.
    public struct Transcript: Equatable, Sendable {
        public let style: CancelStyle
        /// The touch id of the surface's first down, once it came.
        public private(set) var downID: Int?
        public private(set) var outcome: Received?

        public init(style: CancelStyle) { self.style = style }

        /// Takes one line; returns whether the outcome is now known (the shell stops waiting).
        public mutating func feed(_ line: SurfaceLine) -> Bool {
            guard outcome == nil else { return true }
            switch line {
            case .down(let id, _, _): if downID == nil { downID = id }
            case .up(let id): if id == downID { outcome = .up }
            case .cancel: if downID != nil { outcome = .cancel }
            case .ready, .motion, .frame: break
            }
            return outcome != nil
        }

        /// Whether the surface got the press at all (else the probe says nothing about the style).
        public var pressed: Bool { downID != nil }

        /// The style's result once the deadline has passed: nil when the touch never reached the
        /// surface (another window on top, the clone not taken by the compositor).
        public func finish() -> StyleResult {
            StyleResult(style: style, received: pressed ? (outcome ?? .nothing) : nil)
        }
    }

    public struct StyleResult: Equatable, Sendable {
        public var style: CancelStyle
        /// nil: the surface never received the touch's down.
        public var received: Received?
        public init(style: CancelStyle, received: Received?) { self.style = style; self.received = received }
        /// Whether the style leaves nothing pressed (unknown when the surface got no down).
        public var fits: Bool? { received.map { $0 != .nothing } }
    }

    /// The probe as a whole: each style's result, or why it could not run.
    public struct Result: Equatable, Sendable {
        public var styles: [StyleResult]
        /// Why the probe stopped before it had every style (no display, no uinput, a client that
        /// exited, …); what it had by then is in `styles`.
        public var failure: String?
        public init(styles: [StyleResult], failure: String? = nil) { self.styles = styles; self.failure = failure }

        public func received(_ style: CancelStyle) -> Received? { styles.first { $0.style == style }?.received }

        /// Whether the compositor passes the cancel on: true when "palm" gave `cancel`, false when
        /// it gave `up` or nothing, nil when unknown.
        public var passesCancel: Bool? { received(.palm).map { $0 == .cancel } }

        /// "palm" where the compositor passes the cancel (the application can undo what the touch
        /// began), else "lift" where it leaves nothing pressed; nil when neither is known to fit.
        public var recommended: CancelStyle? {
            if received(.palm) == .cancel { return .palm }
            if let lift = received(.lift), lift != .nothing { return .lift }
            return nil
        }

        /// Whether `style` leaves nothing pressed, as measured; nil when not measured.
        public func fits(_ style: CancelStyle) -> Bool? { styles.first { $0.style == style }?.fits }
    }

    /// The order the styles are probed in: "lift" first, whose ending every compositor delivers,
    /// so a touch that "palm" leaves pressed cannot spoil the other style's reading.
    public static let order: [CancelStyle] = [.lift, .palm]
}

extension CancelProbe {
    /// The probe's clone: a small direct-touch panel, axes `0...axisMaximum`, `slots` slots.
    public static let axisMaximum: Int32 = 4095
    public static let slots = 2

    /// The evdev frames that press one touch at the middle of the probe's clone and those that end
    /// it in `style`: `CloneEncoder`'s, the very frames the forwarder writes for a touch a
    /// gesture claims (`cancel` then `up`), so the probe measures what the daemon does.
    public static func frames(_ style: CancelStyle, trackingID: Int32) -> (press: [RawEvent], end: [RawEvent]) {
        CloneEncoder.claimedTouch(trackingID: trackingID, at: DevicePosition(x: axisMaximum / 2 + 1, y: axisMaximum / 2 + 1),
                                  slotCount: slots, hasTouchButton: true, cancelStyle: style)
    }
}
