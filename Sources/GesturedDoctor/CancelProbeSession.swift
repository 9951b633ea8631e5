import GesturedCore

extension CancelProbe {
    /// The probe's course, decided here and carried out by the shell: press one touch per style
    /// in `order`, wait for the surface's down, end it in the style, wait for its ending.
    ///
    /// A press the surface did not receive went to whatever covers it: the kiosk's application.
    /// So the probe stops there: that press is lifted at once (with the plain up every compositor
    /// delivers) and no further style is pressed.
    public struct Session: Equatable, Sendable {
        /// What the shell waits for after writing a step's frames (each has its own deadline).
        public enum Wait: Equatable, Sendable {
            /// The surface's down for the press.
            case down
            /// The surface's `cancel` or `up` for the ending.
            case ending
        }

        public enum Step: Equatable, Sendable {
            /// Write `frames` to the probe's touchscreen, then pass the surface's lines to `feed`
            /// until it returns a step, or call `deadlinePassed()` when `wait`'s deadline passes.
            case write([RawEvent], wait: Wait)
            /// Write `lift` (nothing when empty) and stop: the probe's result.
            case finish(lift: [RawEvent], Result)
        }

        private enum State: Equatable, Sendable {
            case idle
            case pressing(index: Int, Transcript)
            case ending(index: Int, Transcript)
            case finished
        }

        private var state = State.idle
        /// Each style's result so far (what a failure leaves).
        public private(set) var results: [StyleResult] = []

        public init() {}

        /// The first press.
        public mutating func start() -> Step {
            press(0)
        }

        /// Takes one surface line; returns the next step once the line decides it, nil to keep waiting.
        public mutating func feed(_ line: SurfaceLine) -> Step? {
            switch state {
            case .pressing(let index, var transcript):
                _ = transcript.feed(line)
                guard transcript.pressed else {
                    state = .pressing(index: index, transcript)
                    return nil
                }
                state = .ending(index: index, transcript)
                return .write(frames(index).end, wait: .ending)
            case .ending(let index, var transcript):
                let known = transcript.feed(line)
                state = .ending(index: index, transcript)
                return known ? next(after: index, transcript.finish()) : nil
            case .idle, .finished:
                return nil
            }
        }

        /// The wait's deadline passed without the line it waited for.
        public mutating func deadlinePassed() -> Step {
            switch state {
            case .pressing(let index, let transcript):
                // Never received: lift it now, press nothing more.
                results.append(transcript.finish())
                state = .finished
                let lift = CancelProbe.frames(.lift, trackingID: trackingID(index)).end
                return .finish(lift: lift, Result(styles: results))
            case .ending(let index, let transcript):
                return next(after: index, transcript.finish())
            case .idle, .finished:
                state = .finished
                return .finish(lift: [], Result(styles: results))
            }
        }

        private mutating func next(after index: Int, _ result: StyleResult) -> Step {
            results.append(result)
            guard index + 1 < CancelProbe.order.count else {
                state = .finished
                return .finish(lift: [], Result(styles: results))
            }
            return press(index + 1)
        }

        private mutating func press(_ index: Int) -> Step {
            state = .pressing(index: index, Transcript(style: CancelProbe.order[index]))
            return .write(frames(index).press, wait: .down)
        }

        private func trackingID(_ index: Int) -> Int32 { Int32(index + 1) }

        private func frames(_ index: Int) -> (press: [RawEvent], end: [RawEvent]) {
            CancelProbe.frames(CancelProbe.order[index], trackingID: trackingID(index))
        }
    }
}
