import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The engine's table of live touches: `find` answers as a dictionary would, whatever order the
/// lookups come in (it only starts where the last one ended).
struct LiveTouchesTests {
    @Test func findAnswersAsADictionaryWouldInAnyOrder() {
        var live = LiveTouches()
        var reference: [TouchID: (route: [Int], view: ViewTree.Index?)] = [:]
        var rng = SplitMix64(seed: 16)
        for step in 0..<3000 {
            let id = TouchID(rng.next() % 24)
            switch rng.next() % 6 {
            case 0:
                let route = (0..<Int(rng.next() % 4)).map { _ in Int(rng.next() % 8) }
                let view = rng.next() % 3 == 0 ? nil : Int(rng.next() % 5)
                live.add(id, view: view, route: route)
                reference[id] = (route, view)
            case 1:
                live.remove(id)
                reference[id] = nil
            case 2:
                let slot = Int(rng.next() % 8)
                live.removeSlot(slot, from: id)
                reference[id]?.route.removeAll { $0 == slot }
            default:
                #expect(live.find(id).map { live.routes[$0] } == reference[id]?.route, "step \(step)")
            }
            #expect(live.route(of: id) == reference[id]?.route)
            #expect(live.view(of: id) == reference[id]?.view ?? nil)
        }
        live.removeAll()
        #expect(live.find(TouchID(1)) == nil && live.route(of: TouchID(1)) == nil)
    }
}
