import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// The engine's table of live touches: `find` answers as a dictionary would, whatever order the
/// lookups come in (it only starts where the last one ended), and `commonRoute` finds a frame's
/// shared route exactly when every touch of the frame still has the route it began with, under
/// one key.
struct LiveTouchesTests {
    struct Touch { var route: [Int]; var view: ViewTree.Index?; var key: Int? }

    @Test func answersAsADictionaryWouldInAnyOrder() {
        let routes = [[0, 3], [1], [2, 4, 5]]   // route k has key k
        var live = LiveTouches()
        var reference: [TouchID: Touch] = [:]
        var rng = SplitMix64(seed: 16)
        var commonRoutes = 0
        for step in 0..<4000 {
            let id = TouchID(rng.next() % 12)
            switch rng.next() % 7 {
            case 0:
                let key = Int(rng.next() % 4)
                let route = key < 3 ? routes[key] : []
                let view = key < 3 ? Int(rng.next() % 5) : nil
                live.add(id, view: view, route: route, routeKey: key < 3 ? key : nil)
                reference[id] = Touch(route: route, view: view, key: key < 3 ? key : nil)
            case 1:
                live.remove(id)
                reference[id] = nil
            case 2:
                let slot = Int(rng.next() % 6)
                live.removeSlot(slot, from: id)
                reference[id]?.route.removeAll { $0 == slot }
                reference[id]?.key = nil
            case 3:
                let frame = (0..<1 + Int(rng.next() % 4)).map {
                    TouchUpdate(id: TouchID(rng.next() % 12), phase: .moved, location: .zero, device: "event0", slot: $0)
                }
                let touches = frame.map { reference[$0.id] }
                let key = touches[0]?.key
                let shared = key != nil && touches.allSatisfy { $0?.key == key }
                let common = live.commonRoute(of: frame)
                #expect((common != nil) == shared, "step \(step)")
                if let common { #expect(live.routes[common] == touches[0]?.route); commonRoutes += 1 }
            default:
                #expect(live.find(id).map { live.routes[$0] } == reference[id]?.route, "step \(step)")
            }
            #expect(live.route(of: id) == reference[id]?.route)
            #expect(live.view(of: id) == reference[id]?.view ?? nil)
        }
        #expect(commonRoutes > 20)   // 45 with this seed: the shared case is exercised
        live.removeAll()
        #expect(live.find(TouchID(1)) == nil && live.route(of: TouchID(1)) == nil)
    }
}
