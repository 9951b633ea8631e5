import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// `TouchGroup.moveAll`, the one-pass path of a steady frame, against `move(_:to:)` update by
/// update: the same members, the same search hint, the same pairs seen after each move of the
/// first two touches, on seeded random groups and frames (touches of other groups included).
struct TouchGroupTests {
    @Test(arguments: [1, 2, 3, 4, 5])
    func moveAllIsMoveForEachUpdate(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<200 {
            var group = TouchGroup()
            let size = Int(rng.next() % 6)
            for id in 0..<size {
                group.add(TouchID(UInt64(id)), at: Point(x: Double(rng.next() % 1000), y: Double(rng.next() % 800)))
            }
            var frames: [[TouchUpdate]] = []
            for _ in 0..<3 {
                var frame: [TouchUpdate] = []
                for _ in 0..<Int(rng.next() % 9) {
                    // Ids 0…7: some in the group, some not.
                    let id = rng.next() % 8
                    frame.append(TouchUpdate(id: TouchID(id), phase: .moved,
                                             location: Point(x: Double(rng.next() % 100_000) / 97, y: Double(rng.next() % 80_000) / 89),
                                             device: "event0", slot: Int(id)))
                }
                frames.append(frame)
            }
            var one = group, all = group
            for frame in frames {
                var expectedPairs: [[Double]] = [], expectedAny = false
                for update in frame {
                    guard let index = one.move(update.id, to: update.location) else { continue }
                    expectedAny = true
                    if index < 2, let pair = one.pair { expectedPairs.append(Self.numbers(pair)) }
                }
                var pairs: [[Double]] = []
                let any = all.moveAll(frame[...]) { pairs.append(Self.numbers($0)) }
                #expect(any == expectedAny)
                #expect(pairs == expectedPairs)
                #expect(all.members.map(\.id) == one.members.map(\.id))
                #expect(all.members.map(\.location) == one.members.map(\.location))
                #expect(all.translation == one.translation)
            }
            // The search hint left behind gives the same next move.
            if let last = one.members.last {
                #expect(all.move(last.id, to: .zero) == one.move(last.id, to: .zero))
            }
        }
    }

    @Test func allMovesIsEveryUpdateAMove() {
        let move = TouchUpdate(id: TouchID(1), phase: .moved, location: .zero, device: "event0", slot: 0)
        var down = move; down.phase = .began
        #expect(TouchGroup.allMoves([move, move][...]))
        #expect(TouchGroup.allMoves([][...]))
        #expect(!TouchGroup.allMoves([move, down][...]))
    }

    @Test func measuredIsCentroidAndTranslation() {
        var group = TouchGroup()
        group.add(TouchID(1), at: Point(x: 10, y: 20))
        group.add(TouchID(2), at: Point(x: 31, y: 7))
        group.move(TouchID(1), to: Point(x: 13.3, y: 19.1))
        #expect(group.measured.centroid == group.centroid)
        #expect(group.measured.translation == group.translation)
        #expect(TouchGroup().measured.translation == .zero)
    }

    static func numbers(_ pair: TouchPair) -> [Double] {
        [Double(pair.a.id.value), pair.a.location.x, pair.a.location.y, Double(pair.b.id.value), pair.b.location.x, pair.b.location.y]
    }
}
