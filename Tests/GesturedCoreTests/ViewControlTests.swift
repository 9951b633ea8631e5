import Testing
@testable import GesturedCore

/// Runtime control of the region map (socket `hide`, `disable`, `frame`…): SEMANTICS.md, "the
/// view hidden or disabled at runtime" cancels its continuous gestures; touches keep their view.
struct ViewControlTests {
    /// A panel over the right half of a root; both have a pan, the panel's wins (deepest).
    static let views = [ViewSpec(id: "root", gestures: [pan("rootPan")], subviews: [
        ViewSpec(id: "panel", frame: frame(500, 0, 500, 1000), gestures: [pan("panelPan"), tap("panelTap")]),
    ])]

    @Test(arguments: [ViewTree.Change.hidden(true), .userInteractionEnabled(false)])
    func hidingARunningPanCancelsItAndNewTouchesMissTheView(change: ViewTree.Change) throws {
        var s = try EngineScript(Self.views)
        s.down(1, 600, 500, at: 0)
        s.drag(1, from: 600, 500, by: 50, 0, steps: 5, at: 0)
        s.change("panel", change, at: 60)
        s.move(1, 700, 500, at: 70)   // no more lines: the panel's recognizers no longer see it
        s.up(1, at: 80)
        s.tap(2, 700, 500, at: 200)   // hit-tests to root now, whose pan does not begin on a tap
        #expect(s.brief == [
            "gesture pan began panelPan view=panel time=0.020000 touches=1 x=620.00 y=500.00 translationX=20.00 translationY=0.00 velocityX=1000.00 velocityY=0.00",
            "gesture pan changed panelPan view=panel time=0.030000 touches=1 x=630.00 y=500.00 translationX=30.00 translationY=0.00 velocityX=1000.00 velocityY=0.00",
            "gesture pan changed panelPan view=panel time=0.040000 touches=1 x=640.00 y=500.00 translationX=40.00 translationY=0.00 velocityX=1000.00 velocityY=0.00",
            "gesture pan changed panelPan view=panel time=0.050000 touches=1 x=650.00 y=500.00 translationX=50.00 translationY=0.00 velocityX=1000.00 velocityY=0.00",
            "gesture pan cancelled panelPan view=panel time=0.060000 touches=1 x=650.00 y=500.00",
        ], "\(s.lines)")
        let tree = s.engine.tree
        #expect(tree.hitTest(Point(x: 700, y: 500)) == tree.index(of: "root"))
    }

    /// Showing it again makes it reachable for the next touch; a frame change moves where it is
    /// hit and cancels nothing.
    @Test func showAndFrameChangeAffectOnlyLaterTouches() throws {
        var s = try EngineScript(Self.views)
        s.change("panel", .hidden(true), at: 0)
        s.change("panel", .hidden(false), at: 10)
        s.down(1, 600, 500, at: 20)
        s.change("panel", .frame(frame(0, 0, 100, 100)), at: 30)
        s.up(1, at: 40)               // the touch kept its view: the panel's tap recognizes
        s.tap(2, 600, 500, at: 400)   // the panel is no longer there: root (a tap is no pan)
        s.tap(3, 50, 50, at: 800)
        #expect(s.brief == [
            "gesture tap ended panelTap view=panel time=0.040000 touches=1 x=600.00 y=500.00 taps=1",
            "gesture tap ended panelTap view=panel time=0.850000 touches=1 x=50.00 y=50.00 taps=1",
        ], "\(s.lines)")
    }

    /// Hiding a parent cancels what its subviews' recognizers track; an ancestor's gesture on the
    /// same touch goes on.
    @Test func hidingAParentReachesItsSubviewsButNotItsAncestors() throws {
        let views = [ViewSpec(id: "root", gestures: [tap("rootTap", taps: 1)], subviews: [
            ViewSpec(id: "group", frame: frame(0, 0, 1000, 1000), subviews: [
                ViewSpec(id: "leaf", frame: frame(0, 0, 1000, 1000), gestures: [longPress("hold")]),
            ]),
        ])]
        var s = try EngineScript(views)
        s.includeFailed = true
        s.down(1, 500, 500, at: 0)
        s.change("group", .hidden(true), at: 100)
        s.up(1, at: 150)
        #expect(s.brief == [
            "gesture longPress failed hold view=leaf time=0.100000 touches=1 x=500.00 y=500.00",
            "gesture tap ended rootTap view=root time=0.150000 touches=1 x=500.00 y=500.00 taps=1",
        ], "\(s.lines)")
    }
}
