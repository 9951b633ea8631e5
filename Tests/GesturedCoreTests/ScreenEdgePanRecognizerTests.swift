import Testing
@testable import GesturedCore

/// Screen-edge pan transcripts (screen 1000 × 1000 pt, zone 20 pt, slop 10 pt): the zone's
/// boundary on each edge, moving away from the edge versus along it, corners, touch counts.
struct ScreenEdgePanRecognizerTests {
    func script(_ gestures: [GestureSpec]) throws -> EngineScript {
        var s = try EngineScript([ViewSpec(id: "root", gestures: gestures)])
        s.includeFailed = true
        return s
    }

    @Test func fromTheLeftEdge() throws {
        var s = try script([edgePan("e", [.left])])
        s.down(1, 5, 500, at: 0)
        s.drag(1, from: 5, 500, by: 40, 0, steps: 4, at: 0)   // 10 pt every 10 ms
        s.down(2, 500, 500, at: 45)                            // ignored after began
        s.up(1, at: 50)
        #expect(s.brief == [
            "gesture screenEdgePan began e view=root time=0.020000 touches=1 x=25.00 y=500.00 translationX=20.00 translationY=0.00 velocityX=1000.00 velocityY=0.00 edge=left",
            "gesture screenEdgePan changed e view=root time=0.030000 touches=1 x=35.00 y=500.00 translationX=30.00 translationY=0.00 velocityX=1000.00 velocityY=0.00 edge=left",
            "gesture screenEdgePan changed e view=root time=0.040000 touches=1 x=45.00 y=500.00 translationX=40.00 translationY=0.00 velocityX=1000.00 velocityY=0.00 edge=left",
            // Still for the last 10 ms: the fit over 0...50 ms gives 1500 pt·ms / 1750 ms² = 857.14 pt/s.
            "gesture screenEdgePan ended e view=root time=0.050000 touches=1 x=45.00 y=500.00 translationX=40.00 translationY=0.00 velocityX=857.14 velocityY=0.00 edge=left",
        ])
    }

    static let zoneCases: [(edge: ScreenEdge, x: Double, y: Double, dx: Double, dy: Double, inside: Bool)] = [
        (.left, 19.99, 500, 11, 0, true), (.left, 20, 500, 11, 0, false),
        (.right, 980.01, 500, -11, 0, true), (.right, 980, 500, -11, 0, false),
        (.top, 500, 19.99, 0, 11, true), (.top, 500, 20, 0, 11, false),
        (.bottom, 500, 980.01, 0, -11, true), (.bottom, 500, 980, 0, -11, false),
    ]

    @Test(arguments: zoneCases)
    func zoneBoundary(_ c: (edge: ScreenEdge, x: Double, y: Double, dx: Double, dy: Double, inside: Bool)) throws {
        var s = try script([edgePan("e", [c.edge])])
        s.down(1, c.x, c.y, at: 0)
        s.move(1, c.x + c.dx, c.y + c.dy, at: 10)
        let state = s.brief.first?.split(separator: " ").dropFirst(2).first
        #expect(state == (c.inside ? "began" : "failed"))
        #expect(s.brief.count == 1)
        if c.inside { #expect(s.brief[0].hasSuffix("edge=\(c.edge)")) } else { #expect(s.brief[0].contains("time=0.000000")) }
    }

    @Test(arguments: [(10.0, false), (10.01, true)])
    func slop(distance: Double, begins: Bool) throws {
        var s = try script([edgePan("e", [.left])])
        s.down(1, 5, 500, at: 0)
        s.move(1, 5 + distance, 500, at: 10)
        #expect(s.brief.count == (begins ? 1 : 0))
    }

    @Test func movingAlongTheEdgeFails() throws {
        var s = try script([edgePan("e", [.left])])
        s.down(1, 5, 500, at: 0)
        s.move(1, 8, 511, at: 10)
        #expect(s.brief == ["gesture screenEdgePan failed e view=root time=0.010000 touches=1 x=8.00 y=511.00"])
    }

    @Test func movingTowardsTheEdgeFails() throws {
        var s = try script([edgePan("e", [.right])])
        s.down(1, 985, 500, at: 0)
        s.move(1, 996, 500, at: 10)
        #expect(s.brief == ["gesture screenEdgePan failed e view=root time=0.010000 touches=1 x=996.00 y=500.00"])
    }

    /// Within 45° of the normal it begins; beyond, it fails.
    @Test(arguments: [(10.9, true), (11.1, false)])
    func cone(along: Double, begins: Bool) throws {
        var s = try script([edgePan("e", [.left])])
        s.down(1, 5, 500, at: 0)
        s.move(1, 16, 500 + along, at: 10)
        #expect(s.brief.first?.contains(begins ? "began" : "failed") == true)
    }

    @Test func edgeNotConfiguredFails() throws {
        var s = try script([edgePan("e", [.left])])
        s.down(1, 995, 500, at: 0)
        s.move(1, 900, 500, at: 10)
        #expect(s.brief == ["gesture screenEdgePan failed e view=root time=0.000000 touches=1 x=995.00 y=500.00"])
    }

    @Test(arguments: [(0.0, 15.0, ScreenEdge.top), (15.0, 0.0, ScreenEdge.left), (15.0, 12.0, ScreenEdge.left)])
    func cornerPicksTheEdgeMovedAwayFrom(dx: Double, dy: Double, edge: ScreenEdge) throws {
        var s = try script([edgePan("e", [.left, .top])])
        s.down(1, 5, 5, at: 0)
        s.move(1, 5 + dx, 5 + dy, at: 10)
        #expect(s.brief.first?.hasSuffix("edge=\(edge)") == true)
    }

    @Test func secondTouchBeforeBeganFails() throws {
        var s = try script([edgePan("e", [.left])])
        s.down(1, 5, 500, at: 0)
        s.down(2, 5, 600, at: 5)
        s.move(1, 50, 500, at: 10)
        #expect(s.brief == ["gesture screenEdgePan failed e view=root time=0.005000 touches=2 x=5.00 y=600.00"])
    }

    @Test func cancelledTouchCancels() throws {
        var s = try script([edgePan("e", [.bottom])])
        s.down(1, 500, 995, at: 0)
        s.move(1, 500, 950, at: 10)
        s.cancel(1, at: 20)
        #expect(s.brief == [
            "gesture screenEdgePan began e view=root time=0.010000 touches=1 x=500.00 y=950.00 translationX=0.00 translationY=-45.00 velocityX=0.00 velocityY=0.00 edge=bottom",
            "gesture screenEdgePan cancelled e view=root time=0.020000 touches=1 x=500.00 y=950.00",
        ])
    }

    /// The edges are the screen's, not the view's: a touch at a subview's left edge, far from the
    /// screen's, is not in the zone.
    @Test func edgesAreScreenEdgesNotViewEdges() throws {
        var s = try EngineScript([ViewSpec(id: "root", subviews: [
            ViewSpec(id: "panel", frame: frame(400, 0, 600, 1000), gestures: [edgePan("e", [.left, .right])]),
        ])])
        s.down(1, 405, 500, at: 0)
        s.move(1, 450, 500, at: 10)
        s.up(1, at: 20)
        s.down(2, 995, 500, at: 100)
        s.move(2, 950, 500, at: 110)
        #expect(s.brief.map { $0.split(separator: " ").prefix(5).joined(separator: " ") } == ["gesture screenEdgePan began e view=panel"])
    }
}
