import GesturedCore

/// One `gestured calibrate` measurement as a state machine on a virtual clock: it asks for the
/// four targets in turn, takes one touch for each, fits the matrix (`CalibrationFit`), and asks
/// for all four again when the fit is refused (docs/KIOSK.md, "Calibration").
///
/// A touch is one sequence, from the first finger down to the last finger up. Its point is the
/// mean of every position it reported (down and each motion): a finger pressed on a crosshair
/// rocks a little, and the mean is steadier than the position at the lift, where resistive
/// panels jump as the pressure fades. A sequence is refused, and the same target asked again,
/// when a second finger joined it, when it slid farther than `maximumWanderFraction` of the
/// diagonal (it was not a touch on one place), or when the panel's events were lost (cancel).
/// When a fit is refused the four targets are asked again from the first: four touches cannot
/// say which of them was off (`CalibrationFit.residualLimitFraction`). After `maximumRounds`
/// refused fits the session fails, as it does when a target waits longer than `targetTimeout`.
public struct CalibrationSession: Sendable {
    /// How far a touch may slide and still count as a touch on one place: 2 % of the diagonal,
    /// the same distance as the fit's limit.
    public static let maximumWanderFraction = 0.02
    /// How long a target waits for its touch (2 minutes: time to read the prompt and walk to the
    /// panel, not a session left running forever).
    public static let targetTimeout = Interval(microseconds: 120_000_000)
    /// How many rounds of four touches before giving up (3).
    public static let maximumRounds = 3

    /// A touch event in normalized raw coordinates (`NormalizedPoint(_:x:y:)`).
    public enum Input: Hashable, Sendable {
        case down(id: Int, at: NormalizedPoint)
        case motion(id: Int, at: NormalizedPoint)
        case up(id: Int)
        /// Every touch is abandoned (events were lost, the panel went away and came back).
        case cancel
    }

    /// Why one touch was not taken.
    public enum TouchRefusal: Hashable, Sendable, CustomStringConvertible {
        case severalFingers
        case moved(points: Double, limit: Double)
        case cancelled

        public var description: String {
            switch self {
            case .severalFingers: "more than one finger touched: touch with one finger"
            case .moved(let points, let limit):
                "the finger slid \(LineEncoder.fixed(points, decimals: 0)) points (at most \(LineEncoder.fixed(limit, decimals: 0))): "
                    + "press on the target and lift"
            case .cancelled: "the panel's events were lost"
            }
        }
    }

    /// Why the session ended without a matrix.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case timedOut(CalibrationTarget, seconds: Double)
        case gaveUp(rounds: Int, last: CalibrationFitRefusal)

        public var description: String {
            switch self {
            case .timedOut(let target, let seconds):
                "nobody touched the \(target) target within \(LineEncoder.fixed(seconds, decimals: 0)) s"
            case .gaveUp(let rounds, let last):
                "\(rounds) rounds of four touches gave no matrix; the last: \(last)"
            }
        }
    }

    /// What the session asks the shell to do or say, in order.
    public enum Step: Hashable, Sendable {
        /// Show `target` (number `target.rawValue + 1` of 4) and wait for its touch.
        case show(CalibrationTarget, round: Int)
        /// The touch for `target` was taken at `raw`.
        case took(CalibrationTarget, raw: NormalizedPoint)
        /// The touch for `target` was refused; a `show` of the same target follows.
        case refused(CalibrationTarget, TouchRefusal)
        /// The fit of a round was refused; a `show(.topLeft)` of the next round follows, or `failed`.
        case fitRefused(CalibrationFitRefusal)
        case finished(CalibrationFit, raw: [NormalizedPoint])
        case failed(Failure)
    }

    private enum State: Hashable, Sendable {
        case idle
        /// Waiting for, or reading, the touch for target `index` of round `round`.
        case measuring(Measuring)
        case done
    }

    private struct Measuring: Hashable, Sendable {
        var round: Int
        /// The target shown: the one after those `taken` (kept beside them, not derived from
        /// their count, so that it always exists).
        var target: CalibrationTarget
        var taken: [NormalizedPoint]
        var deadline: Instant
        /// The fingers down now, by id.
        var down: Set<Int> = []
        var sum = NormalizedPoint(x: 0, y: 0)
        var count = 0
        var first: NormalizedPoint?
        var wander = 0.0
        var severalFingers = false
    }

    public let screen: Size
    private var state = State.idle

    /// - Parameter screen: the screen's size in points, for the residual and the slide limit.
    public init(screen: Size) { self.screen = screen }

    /// When `expire(now:)` must be called, if ever.
    public var nextDeadline: Instant? {
        if case .measuring(let m) = state { return m.deadline }
        return nil
    }

    public var isDone: Bool { state == .done }

    private var diagonal: Double { (screen.width * screen.width + screen.height * screen.height).squareRoot() }

    /// Shows the first target.
    public mutating func start(now: Instant) -> [Step] {
        guard case .idle = state else { return [] }
        return begin(round: 1, now: now)
    }

    private mutating func begin(round: Int, now: Instant) -> [Step] {
        state = .measuring(Measuring(round: round, target: .topLeft, taken: [], deadline: now + Self.targetTimeout))
        return [.show(.topLeft, round: round)]
    }

    /// A touch event read at `now`.
    public mutating func handle(_ input: Input, now: Instant) -> [Step] {
        guard case .measuring(var m) = state else { return [] }
        switch input {
        case .down(let id, let at):
            if m.down.isEmpty && m.count == 0 {
                m.first = at
            } else {
                m.severalFingers = true
            }
            m.down.insert(id)
            add(at, to: &m)
        case .motion(let id, let at):
            guard m.down.contains(id) else { break }
            if m.down.count == 1 && !m.severalFingers { add(at, to: &m) }
        case .up(let id):
            guard m.down.remove(id) != nil, m.down.isEmpty else { break }
            return endTouch(m, now: now)
        case .cancel:
            guard !m.down.isEmpty || m.count > 0 else { break }
            return refuse(m, .cancelled, now: now)
        }
        state = .measuring(m)
        return []
    }

    /// Ends the session when the shown target has waited past its deadline.
    public mutating func expire(now: Instant) -> [Step] {
        guard case .measuring(let m) = state, now >= m.deadline else { return [] }
        state = .done
        return [.failed(.timedOut(m.target, seconds: Self.targetTimeout.seconds))]
    }

    private func add(_ point: NormalizedPoint, to m: inout Measuring) {
        m.sum.x += point.x; m.sum.y += point.y; m.count += 1
        if let first = m.first {
            let slide = Vector(dx: (point.x - first.x) * screen.width, dy: (point.y - first.y) * screen.height).length
            m.wander = max(m.wander, slide)
        }
    }

    private mutating func endTouch(_ m: Measuring, now: Instant) -> [Step] {
        let limit = Self.maximumWanderFraction * diagonal
        if m.severalFingers { return refuse(m, .severalFingers, now: now) }
        if m.wander > limit { return refuse(m, .moved(points: m.wander, limit: limit), now: now) }
        let point = NormalizedPoint(x: m.sum.x / Double(m.count), y: m.sum.y / Double(m.count))
        let taken = m.taken + [point]
        var steps: [Step] = [.took(m.target, raw: point)]
        if let target = CalibrationTarget(rawValue: m.target.rawValue + 1) {
            steps.append(.show(target, round: m.round))
            state = .measuring(Measuring(round: m.round, target: target, taken: taken, deadline: now + Self.targetTimeout))
            return steps
        }
        let pairs = zip(taken, CalibrationTarget.allCases).map { (raw: $0, target: $1.point) }
        let refusal: CalibrationFitRefusal
        do {
            let fit = try CalibrationFit.fit(pairs, screen: screen)
            let limit = CalibrationFit.residualLimit(screen: screen)
            guard fit.residual > limit else {
                state = .done
                return steps + [.finished(fit, raw: taken)]
            }
            refusal = .residual(fit.residual, limit: limit)
        } catch {
            refusal = error
        }
        steps.append(.fitRefused(refusal))
        guard m.round < Self.maximumRounds else {
            state = .done
            return steps + [.failed(.gaveUp(rounds: m.round, last: refusal))]
        }
        return steps + begin(round: m.round + 1, now: now)
    }

    private mutating func refuse(_ m: Measuring, _ reason: TouchRefusal, now: Instant) -> [Step] {
        state = .measuring(Measuring(round: m.round, target: m.target, taken: m.taken, deadline: now + Self.targetTimeout))
        return [.refused(m.target, reason), .show(m.target, round: m.round)]
    }
}

extension CalibrationSession.Step: CustomStringConvertible {
    /// The prompt or report a person reads, one line (`touch target 1 of 4: top left, at 12.5 % 12.5 %`).
    public var description: String {
        switch self {
        case .show(let target, let round):
            let p = target.point
            return "touch target \(target.rawValue + 1) of \(CalibrationTarget.allCases.count): \(target), at "
                + "\(LineEncoder.fixed(p.x * 100, decimals: 1)) % \(LineEncoder.fixed(p.y * 100, decimals: 1)) %"
                + (round > 1 ? " (round \(round) of \(CalibrationSession.maximumRounds))" : "")
        case .took(let target, let raw):
            return "took the \(target) touch at \(raw) of the panel's range"
        case .refused(let target, let reason):
            return "the \(target) touch is not taken: \(reason); touch it again"
        case .fitRefused(let refusal):
            return "refused: \(refusal); touch the four targets again"
        case .finished(let fit, _):
            return "fitted: residual \(LineEncoder.fixed(fit.residual, decimals: 1)) points"
        case .failed(let failure):
            return "failed: \(failure)"
        }
    }
}
