/// Why a recognizer succeeded, in words, for `--trace`: read from its parameters and the sample
/// it proposed, only when a trace is asked for (nothing here runs on an untraced frame).
extension RecognizerSet {
    /// E.g. `2 taps of 1 touch`, `0.5 s without moving 10 pt`, `moved 10 pt with 1 touch`.
    func successText(_ ref: Ref, _ sample: GestureSample) -> String {
        let n = { (v: Double) in FailReason.number(v) }
        let touches = "\(sample.touches) touch\(sample.touches == 1 ? "" : "es")"
        switch ref {
        case .tap(let i):
            let p = taps[i].parameters
            return "\(p.numberOfTapsRequired) tap\(p.numberOfTapsRequired == 1 ? "" : "s") of \(touches)"
        case .swipe(let i):
            let p = swipes[i].parameters
            let direction = if case .swipe(let d) = sample.values { d.rawValue } else { "?" }
            return "swiped \(direction) ≥ \(n(p.minimumDistance.points)) pt at ≥ \(n(p.minimumVelocity.pointsPerSecond)) pt/s with \(touches)"
        case .pan(let i): return "moved \(n(pans[i].parameters.slop.points)) pt with \(touches)"
        case .longPress(let i):
            let p = longPresses[i].parameters
            return "\(n(p.minimumPressDuration.seconds)) s without moving \(n(p.allowableMovement.points)) pt"
        case .rotation(let i): return "turned \(n(rotations[i].parameters.slop.radians)) rad"
        case .pinch(let i): return "span changed \(n(pinches[i].parameters.slop.points)) pt"
        case .screenEdgePan(let i):
            let edge = if case .screenEdgePan(_, _, let e) = sample.values { e.rawValue } else { "?" }
            return "moved \(n(screenEdgePans[i].parameters.slop.points)) pt away from the \(edge) edge"
        case .stroke(let i):
            guard case .stroke(let template, let score) = sample.values else { return "?" }
            return "drew \(strokes[i].templateNames[template]), score \(FailReason.number(score, decimals: 3)) ≥ minimumScore \(n(strokes[i].parameters.minimumScore))"
        }
    }
}
