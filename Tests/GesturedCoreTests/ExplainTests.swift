import GesturedSeeing
import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// `gestured explain`: the hit-test walk written down, one test per rule, and the route.
struct ExplainTests {
    /// Back to front: `map` fills the screen below `bar`; `hidden`, `disabled` and `ghost` are
    /// in front of it but take no touches; `button` has a larger target than its frame.
    private let views = [
        ViewSpec(id: "root", gestures: [gesture("flick", .swipe(SwipeParameters()), requireToFail: ["edge"]),
                                        edgePan("edge", [.left])], subviews: [
            ViewSpec(id: "map", frame: frame(0, 100, 1000, 900), gestures: [
                pinch("zoom", simultaneous: ["spin"]), rotation("spin")]),
            ViewSpec(id: "bar", frame: frame(0, 0, 1000, 100), subviews: [
                ViewSpec(id: "button", frame: frame(10, 10, 40, 40), hitTestInsets: EdgeInsets(top: -10, left: -10, bottom: -10, right: -10),
                         gestures: [tap("press")]),
            ]),
            ViewSpec(id: "hidden", frame: frame(0, 500, 200, 200), isHidden: true),
            ViewSpec(id: "disabled", frame: frame(0, 500, 200, 200), isUserInteractionEnabled: false),
            ViewSpec(id: "ghost", frame: frame(0, 500, 200, 200), alpha: 0.005),
        ]),
    ]

    private func explain(_ x: Double, _ y: Double) throws -> [String] {
        let engine = try GestureEngine(views: views, screen: Size(width: 1000, height: 1000))
        let explanation = engine.tree.explainHitTest(Point(x: x, y: y))
        return explanation.lines(tree: engine.tree, route: explanation.winner.map { engine.route(of: $0) } ?? [])
    }

    @Test func hiddenDisabledAndTransparentViewsAreSkippedWithTheirReason() throws {
        #expect(try explain(100, 600) == [
            "touch at 100, 600 on the 1000×1000 screen",
            "  root: in its hit area (100, 600 in its coordinates; x 0…1000, y 0…1000)",
            "    ghost: skipped: alpha 0.005 < 0.01",
            "    disabled: skipped: interaction disabled (isUserInteractionEnabled: false)",
            "    hidden: skipped: hidden (isHidden)",
            "    bar: skipped: outside its hit area (100, 600 in its coordinates; x 0…1000, y 0…100)",
            "    map: in its hit area (100, 500 in its coordinates; x 0…1000, y 0…900)",
            "winner: map (100, 500 in its coordinates)",
            "route, in winning order (deepest view first, then config order):",
            "  1. zoom (pinch on map); recognizes simultaneously with spin",
            "  2. spin (rotation on map); recognizes simultaneously with zoom",
            "  3. flick (swipe on root); waits for edge to fail (requireToFail)",
            "  4. edge (screenEdgePan on root)",
            "view map",
        ])
    }

    @Test func aSiblingInFrontThatTakesThePointCoversTheOnesBehind() throws {
        // bar's hit area and map's overlap nowhere; the button's enlarged target reaches below
        // bar's frame, but bar (its parent) does not take the point: rule 2.
        let lines = try explain(20, 105)
        #expect(lines.contains("    bar: skipped: outside its hit area (20, 105 in its coordinates; x 0…1000, y 0…100)"))
        #expect(lines.last == "view map")
        // Two siblings both containing the point: the one behind is covered.
        let stacked = [ViewSpec(id: "back", frame: frame(0, 0, 500, 500)), ViewSpec(id: "front", frame: frame(100, 100, 500, 500))]
        let engine = try GestureEngine(views: stacked, screen: Size(width: 1000, height: 1000))
        let explanation = engine.tree.explainHitTest(Point(x: 200, y: 200))
        #expect(explanation.lines(tree: engine.tree, route: []) == [
            "touch at 200, 200 on the 1000×1000 screen",
            "  front: in its hit area (100, 100 in its coordinates; x 0…500, y 0…500)",
            "  back: skipped: covered by its sibling front, in front, which took the touch",
            "winner: front (100, 100 in its coordinates)",
            "route: no recognizer on front or its ancestors",
            "view front",
        ])
    }

    @Test func insetsEnlargeTheTargetAndTheRouteIncludesAncestors() throws {
        #expect(try explain(5, 5) == [
            "touch at 5, 5 on the 1000×1000 screen",
            "  root: in its hit area (5, 5 in its coordinates; x 0…1000, y 0…1000)",
            "    ghost: skipped: alpha 0.005 < 0.01",
            "    disabled: skipped: interaction disabled (isUserInteractionEnabled: false)",
            "    hidden: skipped: hidden (isHidden)",
            "    bar: in its hit area (5, 5 in its coordinates; x 0…1000, y 0…100)",
            "      button: in its hit area (-5, -5 in its coordinates; x -10…50, y -10…50 (bounds with hitTestInsets))",
            "winner: button (-5, -5 in its coordinates)",
            "route, in winning order (deepest view first, then config order):",
            "  1. press (tap on button)",
            "  2. flick (swipe on root); waits for edge to fail (requireToFail)",
            "  3. edge (screenEdgePan on root)",
            "view button",
        ])
    }

    @Test func aPointOffTheScreenGoesNowhere() throws {
        #expect(try explain(-1, 500) == [
            "touch at -1, 500 on the 1000×1000 screen",
            "  root: skipped: outside its hit area (-1, 500 in its coordinates; x 0…1000, y 0…1000)",
            "no view takes a touch here: it starts no gesture",
            "view none",
        ])
    }

    @Test func theWalkAlwaysAgreesWithHitTest() throws {
        let engine = try GestureEngine(views: views, screen: Size(width: 1000, height: 1000))
        var random = SplitMix64(seed: 15)
        for _ in 0..<2000 {
            let p = Point(x: Double(random.next() % 1100) - 50, y: Double(random.next() % 1100) - 50)
            #expect(engine.tree.explainHitTest(p).winner == engine.tree.hitTest(p))
        }
    }
}
