import Testing
@testable import GesturedCore

/// The lifecycle pan, screen-edge pan, pinch and rotation share, with a recognizer that only
/// records what it is asked: which updates reach it, in which phase, and what finishes it.
struct ContinuousLifecycleTests {
    /// Takes every first touch, follows the touches it took, proposes what `answers` says for
    /// a touch id (`.none` otherwise) and records each update that reaches it.
    struct Recorder: ContinuousGesture {
        var phase = ContinuousPhase<Int>.idle
        var taken: Set<TouchID> = []
        var answers: [TouchID: Proposal] = [:]
        var seen: [String] = []

        func follows(_ id: TouchID) -> Bool { taken.contains(id) }
        mutating func start(_ update: TouchUpdate) -> Proposal {
            seen.append("start \(update.id.value)")
            let answer = answers[update.id] ?? .none
            if case .none = answer { taken.insert(update.id) }
            return answer
        }
        mutating func track(_ update: TouchUpdate) -> Proposal {
            seen.append("track \(update.id.value) \(update.phase)")
            return answers[update.id] ?? .none
        }
        mutating func run(_ update: TouchUpdate, _ running: Int, now: Instant, moved: inout Bool) -> Proposal {
            seen.append("run \(running) \(update.id.value) \(update.phase)")
            moved = true
            return answers[update.id] ?? .none
        }
    }

    static func update(_ id: UInt64, _ phase: TouchPhase) -> TouchUpdate {
        TouchUpdate(id: TouchID(id), phase: phase, location: Point(x: 0, y: 0), device: "event1", slot: 0)
    }

    static let sample = GestureSample(touches: 1, location: Point(x: 0, y: 0), values: .none)

    func handle(_ r: inout Recorder, _ updates: [TouchUpdate]) -> Proposal? {
        var moved = false
        return r.handleInOrder(updates[...], now: .zero, moved: &moved)
    }

    @Test func touchesFromBeforeItListenedAreNotItsOwn() {
        var r = Recorder()
        #expect(handle(&r, [Self.update(1, .moved), Self.update(1, .ended), Self.update(2, .cancelled)]) == nil)
        #expect(r.seen == [])
        guard case .idle = r.phase else { Issue.record("\(r.phase)"); return }
    }

    @Test func aTakenTouchTracksAndACancelOfItFails() {
        var r = Recorder()
        #expect(handle(&r, [Self.update(1, .began), Self.update(1, .moved), Self.update(2, .cancelled)]) == nil)
        #expect(r.seen == ["start 1", "track 1 moved"])   // another touch's cancel is not its business
        #expect(handle(&r, [Self.update(1, .cancelled), Self.update(1, .moved)]) == .fail(.touchCancelled))
        #expect(r.seen == ["start 1", "track 1 moved"])   // the frame's later update is not looked at
        guard case .finished = r.phase else { Issue.record("\(r.phase)"); return }
        #expect(handle(&r, [Self.update(3, .began)]) == nil && r.seen.count == 2)   // deaf until reset
    }

    @Test func aRefusedFirstTouchFinishesIt() {
        var r = Recorder(answers: [TouchID(1): .fail(.secondTouch)])
        #expect(handle(&r, [Self.update(1, .began), Self.update(2, .began)]) == .fail(.secondTouch))
        #expect(r.seen == ["start 1"])
        guard case .finished = r.phase else { Issue.record("\(r.phase)"); return }
    }

    @Test func runningItCarriesItsValueAndACancelOfItsTouchCancels() {
        var r = Recorder()
        _ = handle(&r, [Self.update(1, .began)])
        #expect(r.begin(7, Self.sample) == .begin(Self.sample))
        #expect(handle(&r, [Self.update(1, .moved), Self.update(2, .began)]) == nil)
        #expect(r.seen == ["start 1", "run 7 1 moved", "run 7 2 began"])
        #expect(handle(&r, [Self.update(1, .cancelled)]) == .cancel)
        guard case .finished = r.phase else { Issue.record("\(r.phase)"); return }
    }

    @Test func theFirstProposalOfTheRecognizerFinishesIt() {
        var r = Recorder(answers: [TouchID(1): .end(Self.sample)])
        r.taken = [TouchID(1)]
        r.phase = .running(1)
        #expect(handle(&r, [Self.update(1, .ended), Self.update(2, .began)]) == .end(Self.sample))
        #expect(r.seen == ["run 1 1 ended"])
        guard case .finished = r.phase else { Issue.record("\(r.phase)"); return }
    }
}
