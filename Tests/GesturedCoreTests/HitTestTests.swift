import Testing
@testable import GesturedCore

/// One test per hit-testing rule of SEMANTICS.md; each fails if its rule is broken.
struct HitTestTests {
    let screen = Size(width: 1000, height: 1000)

    func hit(_ views: [ViewSpec], _ x: Double, _ y: Double) -> String? {
        let tree = ViewTree(views: views, screen: screen)
        return tree.hitTest(Point(x: x, y: y)).map { tree.nodes[$0].id }
    }

    func root(_ subviews: [ViewSpec]) -> [ViewSpec] { [ViewSpec(id: "root", subviews: subviews)] }

    @Test func deepestViewContainingThePointWins() {
        let views = root([ViewSpec(id: "panel", frame: frame(100, 100, 400, 400),
                                   subviews: [ViewSpec(id: "button", frame: frame(10, 10, 50, 50))])])
        #expect(hit(views, 120, 120) == "button")
        #expect(hit(views, 300, 300) == "panel")
        #expect(hit(views, 900, 900) == "root")
    }

    @Test func laterSubviewsAreInFront() {
        let views = root([ViewSpec(id: "back", frame: frame(0, 0, 200, 200)),
                          ViewSpec(id: "front", frame: frame(100, 100, 200, 200))])
        #expect(hit(views, 150, 150) == "front")
        #expect(hit(views, 50, 50) == "back")
    }

    @Test func laterTopLevelViewsAreInFront() {
        let views = [ViewSpec(id: "a", frame: frame(0, 0, 500, 500)), ViewSpec(id: "b", frame: frame(0, 0, 500, 500))]
        #expect(hit(views, 10, 10) == "b")
    }

    @Test func hiddenViewIsSkippedEvenWhenThePointIsInside() {
        let views = root([ViewSpec(id: "under", frame: frame(0, 0, 200, 200)),
                          ViewSpec(id: "hidden", frame: frame(0, 0, 200, 200), isHidden: true)])
        #expect(hit(views, 50, 50) == "under")
    }

    @Test func interactionDisabledViewAndItsSubviewsAreSkipped() {
        let views = root([ViewSpec(id: "off", frame: frame(0, 0, 200, 200), isUserInteractionEnabled: false,
                                   subviews: [ViewSpec(id: "child", frame: frame(0, 0, 100, 100))])])
        #expect(hit(views, 50, 50) == "root")
    }

    @Test func alphaBelowOneHundredthIsSkipped() {
        let views = root([ViewSpec(id: "faint", frame: frame(0, 0, 200, 200), alpha: 0.009),
                          ViewSpec(id: "visible", frame: frame(300, 0, 200, 200), alpha: 0.01)])
        #expect(hit(views, 50, 50) == "root")
        #expect(hit(views, 350, 50) == "visible")
    }

    @Test func negativeInsetsEnlargeTheTarget() {
        let views = root([ViewSpec(id: "button", frame: frame(100, 100, 40, 40),
                                   hitTestInsets: EdgeInsets(top: -20, left: -20, bottom: -20, right: -20))])
        #expect(hit(views, 85, 85) == "button")
        #expect(hit(views, 159, 159) == "button")
        #expect(hit(views, 79, 100) == "root")
        #expect(hit(views, 160, 100) == "root")
    }

    @Test func positiveInsetsShrinkTheTarget() {
        let views = root([ViewSpec(id: "button", frame: frame(100, 100, 40, 40),
                                   hitTestInsets: EdgeInsets(top: 10, left: 10, bottom: 10, right: 10))])
        #expect(hit(views, 105, 105) == "root")
        #expect(hit(views, 115, 115) == "button")
    }

    @Test func subviewOutsideItsParentsHitAreaIsUnreachable() {
        let views = root([ViewSpec(id: "parent", frame: frame(100, 100, 100, 100),
                                   subviews: [ViewSpec(id: "overhang", frame: frame(50, 50, 100, 100))])])
        #expect(hit(views, 180, 180) == "overhang")   // inside both
        #expect(hit(views, 220, 220) == "root")       // inside overhang only: the parent rejects it
    }

    @Test func childCoordinatesAreRelativeToTheParent() {
        let views = root([ViewSpec(id: "parent", frame: frame(500, 500, 300, 300),
                                   subviews: [ViewSpec(id: "child", frame: frame(10, 10, 20, 20))])])
        #expect(hit(views, 515, 515) == "child")
        #expect(hit(views, 15, 15) == "root")
        let tree = ViewTree(views: views, screen: screen)
        #expect(tree.convert(Point(x: 515, y: 517), to: 2) == Point(x: 5, y: 7))
    }

    @Test func rightAndBottomEdgesAreOutside() {
        let views = root([ViewSpec(id: "box", frame: frame(0, 0, 100, 100))])
        #expect(hit(views, 99.9, 99.9) == "box")
        #expect(hit(views, 100, 50) == "root")
    }

    @Test func circleAndPolygonShapes() {
        let views = root([
            ViewSpec(id: "dial", frame: frame(0, 0, 100, 100), hitShape: .circle(center: Point(x: 50, y: 50), radius: 50)),
            ViewSpec(id: "wedge", frame: frame(200, 0, 100, 100),
                     hitShape: .polygon([Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 0, y: 100)])),
        ])
        #expect(hit(views, 50, 50) == "dial")
        #expect(hit(views, 5, 5) == "root")          // the square's corner, outside the circle
        #expect(hit(views, 210, 10) == "wedge")
        #expect(hit(views, 290, 90) == "root")       // below the diagonal
    }

    @Test func omittedFrameFillsTheParent() {
        let views = [ViewSpec(id: "root", subviews: [ViewSpec(id: "fill")])]
        #expect(hit(views, 999, 999) == "fill")
    }
}
