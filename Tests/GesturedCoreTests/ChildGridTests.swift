import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// Views with many children are hit-tested through a grid of where each child can be hit
/// (`ViewTree.ChildGrid`). These trees are built twice, with grids from one child up and with
/// none, and must answer every point alike: the grid may only skip children that cannot be hit.
struct ChildGridTests {
    static let screen = Size(width: 800, height: 600)

    static func randomView(_ rng: inout SplitMix64, id: inout Int, in bounds: Size, depth: Int) -> ViewSpec {
        id += 1
        let width = rng.uniform(0, bounds.width * 0.6), height = rng.uniform(0, bounds.height * 0.6)
        // Frames mostly inside the parent, some overlapping its edges or outside it.
        let frame = Rect(x: rng.uniform(-0.2 * bounds.width, bounds.width), y: rng.uniform(-0.2 * bounds.height, bounds.height),
                         width: width, height: height)
        var view = ViewSpec(id: "v\(id)", frame: rng.next() % 8 == 0 ? nil : frame)
        switch rng.next() % 10 {
        case 0: view.isHidden = true
        case 1: view.isUserInteractionEnabled = false
        case 2: view.alpha = 0.005
        default: break
        }
        switch rng.next() % 6 {
        case 0: view.hitTestInsets = EdgeInsets(top: rng.uniform(-30, 30), left: rng.uniform(-30, 30),
                                                bottom: rng.uniform(-30, 30), right: rng.uniform(-30, 30))
        case 1: view.hitShape = .circle(center: Point(x: rng.uniform(-10, width + 10), y: rng.uniform(-10, height + 10)),
                                         radius: rng.uniform(-5, 80))
        case 2: view.hitShape = .polygon((0..<Int(rng.next() % 6)).map { _ in
                    Point(x: rng.uniform(-20, width + 20), y: rng.uniform(-20, height + 20)) })
        default: break
        }
        if depth < 2 {
            let count = rng.next() % 3 == 0 ? Int(rng.next() % 60) : Int(rng.next() % 4)
            let size = view.frame?.size ?? bounds
            for _ in 0..<count { view.subviews.append(randomView(&rng, id: &id, in: size, depth: depth + 1)) }
        }
        return view
    }

    static func randomPoint(_ rng: inout SplitMix64, _ tree: ViewTree) -> Point {
        if rng.next() % 4 == 0, !tree.nodes.isEmpty {
            // On an edge of some view's frame, where rounding and half-open edges matter.
            let index = Int(rng.next() % UInt64(tree.nodes.count))
            let node = tree.nodes[index]
            let origin = tree.convert(.zero, to: index)   // the screen's origin in the view's coordinates
            let p = Point(x: -origin.x, y: -origin.y)     // the view's origin on the screen
            return Point(x: rng.next() % 2 == 0 ? p.x : p.x + node.frame.size.width,
                         y: rng.next() % 2 == 0 ? p.y : p.y + node.frame.size.height)
        }
        return Point(x: rng.uniform(-50, screen.width + 50), y: rng.uniform(-50, screen.height + 50))
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func gridsAnswerAsTheLinearScanDoes(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var id = 0
        var views: [ViewSpec] = []
        for _ in 0..<(rng.next() % 2 == 0 ? 40 : 3) { views.append(Self.randomView(&rng, id: &id, in: Self.screen, depth: 0)) }
        var gridded = ViewTree(views: views, screen: Self.screen, childGridThreshold: 1)
        var scanned = ViewTree(views: views, screen: Self.screen, childGridThreshold: .max)
        var hits = 0
        for round in 0..<20 {
            for _ in 0..<500 {
                let p = Self.randomPoint(&rng, scanned)
                let expected = scanned.hitTest(p)
                #expect(gridded.hitTest(p) == expected, "seed \(seed) round \(round) point \(p)")
                if expected != nil { hits += 1 }
            }
            // A runtime change, applied to both: grids are rebuilt where frames move.
            let view = Int(rng.next() % UInt64(scanned.nodes.count))
            let change: ViewTree.Change = switch rng.next() % 3 {
            case 0: .frame(Rect(x: rng.uniform(-100, 700), y: rng.uniform(-100, 500), width: rng.uniform(0, 400), height: rng.uniform(0, 300)))
            case 1: .hidden(rng.next() % 2 == 0)
            default: .userInteractionEnabled(rng.next() % 2 == 0)
            }
            gridded.apply(change, to: view)
            scanned.apply(change, to: view)
        }
        #expect(hits > 200, "the random trees must be hit often enough to mean something (\(hits))")
    }

    /// The benchmark's shape: 256 leaves side by side in one root, each hit where it is.
    @Test func aRootWith256LeavesHasAGridAndFindsEachLeaf() {
        var root = ViewSpec(id: "root")
        for i in 0..<256 {
            root.subviews.append(ViewSpec(id: "leaf\(i)", frame: Rect(x: Double(i % 16) * 50, y: Double(i / 16) * 37.5, width: 50, height: 37.5)))
        }
        let tree = ViewTree(views: [root], screen: Self.screen)
        #expect(tree.nodes[0].childGrid != nil)
        for i in 0..<256 {
            let p = Point(x: Double(i % 16) * 50 + 25, y: Double(i / 16) * 37.5 + 1)
            #expect(tree.hitTest(p).map { tree.nodes[$0].id } == "leaf\(i)")
        }
    }
}

/// Building the grids costs memory linear in the views, whatever their frames (security review,
/// round two: 5,000 views without frames took 646 MB, 20,000 died at 3.3 GB, each listed in every
/// cell of its parent's grid). Counted in grid entries, not timed.
struct ChildGridGrowthTests {
    static func entries(children: Int, frame: (Int) -> Rect?) -> Int {
        let parent = ViewSpec(id: "root", subviews: (0..<children).map { ViewSpec(id: "v\($0)", frame: frame($0)) })
        let tree = ViewTree(views: [parent], screen: Size(width: 1000, height: 1000))
        return tree.nodes.reduce(0) { total, node in
            total + (node.childGrid.map { $0.candidates.count + $0.start.count } ?? 0)
        }
    }

    @Test(arguments: ["frameless", "full-size", "half-size", "small"])
    func twiceTheChildrenCostAtMostAboutTwiceTheEntries(shape: String) {
        func frame(_ index: Int) -> Rect? {
            switch shape {
            case "frameless": nil
            case "full-size": Rect(x: 0, y: 0, width: 1000, height: 1000)
            case "half-size": Rect(x: Double(index % 2) * 500, y: 0, width: 500, height: 1000)
            default: Rect(x: Double(index % 100) * 10, y: Double(index / 100 % 100) * 10, width: 8, height: 8)
            }
        }
        let single = Self.entries(children: 2_000, frame: frame), double = Self.entries(children: 4_000, frame: frame)
        // Small views cover one to four cells each, more of them as the cells shrink: within the
        // budget per child, not exactly twice.
        #expect(shape == "small" || double <= single * 2 + 64, "\(shape): \(single) entries for 2,000 children, \(double) for 4,000")
        #expect(single <= 2_000 * (ViewTree.ChildGrid.entryBudget + 2), "\(shape): \(single) entries")
        #expect(double <= 4_000 * (ViewTree.ChildGrid.entryBudget + 2), "\(shape): \(double) entries")
    }
}
