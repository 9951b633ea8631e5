import GesturedSeeing
import Testing
@testable import GesturedCore

/// `gestured draw`'s reading of a replay: each touch's samples in order, and whether it lifted.
struct RecordingPictureTests {
    static func touch(_ id: UInt64, _ phase: TouchPhase, x: Double, at ms: Int64) -> GesturePipeline.Output {
        .touch(TouchEvent(update: TouchUpdate(id: TouchID(id), phase: phase, location: Point(x: x, y: 0),
                                              device: "event0", slot: Int(id)),
                          view: nil, time: Instant(microseconds: 1_000_000 + ms * 1000)))
    }

    /// A touch that lifts, one cancelled, one still down at the end: the lift is marked on the
    /// touch it belongs to, also when it is the touch's first output.
    @Test func marksTheTouchesThatLifted() {
        let picture = RecordingPicture([
            Self.touch(1, .began, x: 0, at: 0),
            Self.touch(2, .began, x: 5, at: 0),
            Self.touch(1, .moved, x: 10, at: 10),
            Self.touch(3, .ended, x: 7, at: 15),
            Self.touch(1, .ended, x: 20, at: 20),
            Self.touch(2, .cancelled, x: 5, at: 30),
            Self.touch(4, .began, x: 1, at: 40),
        ])
        #expect(picture.touches.map(\.id) == [1, 2, 3, 4])
        #expect(picture.touches.map(\.lifted) == [true, true, true, false])
        #expect(picture.touches.map { $0.samples.map(\.location.x) } == [[0, 10, 20], [5, 5], [7], [1]])
        #expect(picture.duration == 0.04)
    }
}
