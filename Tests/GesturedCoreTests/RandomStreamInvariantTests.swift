import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// Long seeded random touch streams through a view tree with every recognizer type: the
/// arbiter's invariants hold whatever the fingers do, and the output is deterministic.
struct RandomStreamInvariantTests {
    static let views = [
        ViewSpec(id: "root", gestures: [
            tap("tap", requireToFail: ["doubleTap"]), tap("doubleTap", taps: 2), tap("twoFingerTap", touches: 2),
            longPress("hold"), swipe("flick", [.left, .right, .up, .down]), pan("drag", maximum: 2),
            pinch("zoom", simultaneous: ["spin"]), rotation("spin"), edgePan("edge", [.left, .right]),
        ], subviews: [
            ViewSpec(id: "panel", frame: frame(200, 200, 500, 500), gestures: [
                pan("panelDrag", minimum: 2, simultaneous: ["panelZoom"]), pinch("panelZoom"),
                longPress("panelHold", touches: 2), swipe("panelFlick", [.up], touches: 2), tap("panelTap", taps: 2),
                longPress("tapHold", taps: 1),
            ]),
        ]),
    ]

    /// One random session: touches going down (some near the edges), moving (small steps, jumps),
    /// lifting, now and then cancelled, with pauses long enough for every deadline.
    static func run(seed: UInt64, frames: Int) throws -> (lines: [String], bugs: [String]) {
        var rng = SplitMix64(seed: seed)
        func uniform(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        func coordinate() -> Double { [0, 1, 2].contains(uniform(10)) ? Double(uniform(30)) : Double(uniform(1000)) }
        var s = try EngineScript(views)
        s.includeFailed = true
        var live: [UInt64: Point] = [:]
        var nextID: UInt64 = 1
        var now = 0.0
        for _ in 0..<frames {
            now += Double(4 + uniform(20))
            if uniform(40) == 0 { now += Double(uniform(900)); s.advance(to: now); now += 1 }
            var frame: [(UInt64, TouchPhase, Point?)] = []
            for id in live.keys.sorted() {
                switch uniform(30) {
                case 0:
                    frame.append((id, .ended, nil)); live[id] = nil
                case 1 where uniform(4) == 0:
                    frame.append((id, .cancelled, nil)); live[id] = nil
                case 2...20:
                    let step = uniform(8) == 0 ? 60.0 : 6.0
                    var p = live[id]!
                    p.x = min(999, max(0, p.x + (rng.unit() * step).rounded()))
                    p.y = min(999, max(0, p.y + (rng.unit() * step).rounded()))
                    live[id] = p
                    frame.append((id, .moved, p))
                default:
                    break
                }
            }
            if live.count < 5, uniform(live.isEmpty ? 3 : 12) == 0 {
                let p = Point(x: uniform(2) == 0 ? coordinate() : 999 - coordinate(), y: coordinate())
                live[nextID] = p
                frame.append((nextID, .began, p))
                nextID += 1
            }
            if !frame.isEmpty { s.frame(at: now, frame) }
        }
        now += 10
        s.frame(at: now, live.keys.sorted().map { ($0, .ended, nil) })
        s.advance(to: now + 5000)
        return (s.lines, s.engine.bugs.map(\.description))
    }

    @Test(arguments: [1, 2, 3, 0xDEAD_BEEF, 20_261_130] as [UInt64])
    func everyBeganEndsOnceWithOnlyChangesBetween(seed: UInt64) throws {
        let (lines, bugs) = try Self.run(seed: seed, frames: 4000)
        #expect(bugs.isEmpty)
        var running: Set<String> = []
        var counts: [String: Int] = [:]
        for line in lines {
            let f = line.split(separator: " ")
            let (type, state, name) = (String(f[1]), String(f[2]), String(f[3]))
            counts[state, default: 0] += 1
            let discrete = type == "tap" || type == "swipe"
            switch state {
            case "began":
                #expect(!discrete && !running.contains(name), "\(line)")
                running.insert(name)
            case "changed":
                #expect(running.contains(name), "\(line)")
            case "ended":
                if !discrete { #expect(running.remove(name) != nil, "\(line)") } else { #expect(!running.contains(name)) }
            case "cancelled":
                #expect(running.remove(name) != nil, "\(line)")
            case "failed":
                #expect(!running.contains(name), "\(line)")
            default:
                Issue.record("unknown state in \(line)")
            }
        }
        #expect(running.isEmpty, "never ended: \(running)")
        // The stream exercised the recognizers: every state occurred.
        for state in ["began", "changed", "ended", "cancelled", "failed"] { #expect(counts[state, default: 0] > 0, "\(state)") }
        let types = Set(lines.map { String($0.split(separator: " ")[1]) })
        #expect(types == ["tap", "swipe", "pan", "pinch", "rotation", "longPress", "screenEdgePan"])
    }

    @Test func twoRunsGiveIdenticalLines() throws {
        let a = try Self.run(seed: 7, frames: 3000), b = try Self.run(seed: 7, frames: 3000)
        #expect(a.lines.count > 100)
        #expect(a.lines == b.lines)
    }
}
