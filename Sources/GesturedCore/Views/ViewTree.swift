/// The region map: views with frames, flags and hit areas, flattened into an array.
///
/// Hit-testing follows UIKit's `hitTest(_:with:)` exactly (SEMANTICS.md):
/// 1. a hidden view, one with interaction disabled, or one with alpha < 0.01 returns nothing,
///    even for a point inside it;
/// 2. a point outside the view's hit area (`point(inside:)`) returns nothing, so a subview's part
///    outside its parent's hit area is unreachable;
/// 3. subviews are asked frontmost first (reverse order), with the point in their coordinates;
/// 4. with no subview answering, the view itself is the result.
/// Top-level views sit in a window that covers the screen and has no recognizers.
public struct ViewTree: Sendable {
    /// Index of a view in the tree.
    public typealias Index = Int

    public struct Node: Sendable {
        public var id: String
        public var frame: Rect
        public var isUserInteractionEnabled: Bool
        public var isHidden: Bool
        public var alpha: Double
        public var hitTestInsets: EdgeInsets
        public var hitShape: HitShape?
        public var parent: Index?
        /// Back to front.
        public var children: [Index]
        /// 0 for top-level views.
        public var depth: Int
        /// The recognizers attached, in config order.
        public var gestures: [GestureSpec]
        /// Whether touches that begin here reach the application behind a pass-through device:
        /// false when this view or an ancestor says `forwardsTouches: false`.
        public var forwardsTouches: Bool = true
        /// With many children: where each can be hit (`ChildGrid`).
        var childGrid: ChildGrid?
        /// Its place among its siblings (`children` of its parent, or `roots`), back to front.
        var position = 0
    }

    /// UIKit ignores views whose alpha is below this (`hitTest(_:with:)` documentation).
    public static let minimumHitTestAlpha = 0.01

    /// From how many children a view gets a `ChildGrid`. Below it, asking every child is about
    /// as quick as finding the cell (docs/PERFORMANCE.md, "Hit-testing").
    static let childGridThreshold = 16

    public private(set) var nodes: [Node] = []
    /// Top-level views, back to front.
    public private(set) var roots: [Index] = []
    /// The top-level views' grid over the screen, when there are many.
    private(set) var rootGrid: ChildGrid?
    public let screen: Size
    private let childGridThreshold: Int

    public init(views: [ViewSpec], screen: Size) {
        self.init(views: views, screen: screen, childGridThreshold: Self.childGridThreshold)
    }

    /// - Parameter childGridThreshold: from how many children a view gets a grid (tests compare
    ///   trees with and without grids).
    init(views: [ViewSpec], screen: Size, childGridThreshold: Int) {
        self.screen = screen
        self.childGridThreshold = childGridThreshold
        let bounds = Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        for view in views {
            let root = add(view, parent: nil, parentBounds: bounds, depth: 0)
            nodes[root].position = roots.count
            roots.append(root)
        }
        for index in nodes.indices { rebuildGrid(of: index) }
        rebuildRootGrid()
    }

    private mutating func add(_ spec: ViewSpec, parent: Index?, parentBounds: Rect, depth: Int) -> Index {
        let index = nodes.count
        let frame = spec.frame ?? parentBounds
        nodes.append(Node(id: spec.id, frame: frame, isUserInteractionEnabled: spec.isUserInteractionEnabled,
                          isHidden: spec.isHidden, alpha: spec.alpha, hitTestInsets: spec.hitTestInsets,
                          hitShape: spec.hitShape, parent: parent, children: [], depth: depth,
                          gestures: spec.gestures,
                          forwardsTouches: spec.forwardsTouches && (parent.map { nodes[$0].forwardsTouches } ?? true)))
        let bounds = Rect(x: 0, y: 0, width: frame.size.width, height: frame.size.height)
        for sub in spec.subviews {
            let child = add(sub, parent: index, parentBounds: bounds, depth: depth + 1)
            nodes[child].position = nodes[index].children.count
            nodes[index].children.append(child)
        }
        return index
    }

    /// A runtime change to one view (socket control, layouts): the flags and frame a kiosk app
    /// moves as its screen changes. Everything else about a view is fixed by the configuration.
    public enum Change: Hashable, Sendable {
        case hidden(Bool)
        case userInteractionEnabled(Bool)
        case frame(Rect)
    }

    /// Applies `change` to `view`. Hit-testing of later touches sees it at once; touches already
    /// down keep the view they were hit-tested to (the caller decides what happens to their
    /// gestures: see `GestureEngine.change(_:of:now:into:)`).
    public mutating func apply(_ change: Change, to view: Index) {
        switch change {
        case .hidden(let hidden): nodes[view].isHidden = hidden
        case .userInteractionEnabled(let enabled): nodes[view].isUserInteractionEnabled = enabled
        case .frame(let frame):
            nodes[view].frame = frame
            // Its own grid spans its bounds; its parent's (or the screen's) holds where it is.
            rebuildGrid(of: view)
            if let parent = nodes[view].parent { rebuildGrid(of: parent) } else { rebuildRootGrid() }
        }
    }

    private mutating func rebuildGrid(of view: Index) {
        nodes[view].childGrid = nodes[view].children.count >= childGridThreshold
            ? ChildGrid(children: nodes[view].children, in: nodes[view].frame.size, of: self) : nil
    }

    private mutating func rebuildRootGrid() {
        rootGrid = roots.count >= childGridThreshold ? ChildGrid(children: roots, in: screen, of: self) : nil
    }

    /// Whether `view` is `ancestor` or lies below it.
    public func isDescendant(_ view: Index, of ancestor: Index) -> Bool {
        var current: Index? = view
        while let index = current {
            if index == ancestor { return true }
            current = nodes[index].parent
        }
        return false
    }

    /// The view index for an id, if any.
    public func index(of id: String) -> Index? { nodes.firstIndex { $0.id == id } }

    /// The deepest, frontmost interactive view containing `point` (screen coordinates).
    public func hitTest(_ point: Point) -> Index? {
        if let grid = rootGrid, let cell = grid.cell(of: point) { return firstHit(among: grid.candidates[cell], point) }
        return firstHit(among: roots.reversed(), point)
    }

    /// `point` is in `view`'s own coordinates.
    ///
    /// Reads the node's fields in place: a copy of a `Node` (strings, arrays, the shape) for every
    /// view visited would retain and release each of its references, per view, per touch-down.
    public func hitTest(_ view: Index, _ point: Point) -> Index? {
        guard !nodes[view].isHidden, nodes[view].isUserInteractionEnabled,
              nodes[view].alpha >= Self.minimumHitTestAlpha, pointInside(view, point) else { return nil }
        if let grid = nodes[view].childGrid, let cell = grid.cell(of: point) {
            return firstHit(among: grid.candidates[cell], point) ?? view
        }
        return firstHit(among: nodes[view].children.reversed(), point) ?? view
    }

    /// The first of `children` (front to back) that a point in their parent's coordinates hits.
    private func firstHit(among children: some Sequence<Index>, _ point: Point) -> Index? {
        for child in children {
            let origin = nodes[child].frame.origin
            if let hit = hitTest(child, Point(x: point.x - origin.x, y: point.y - origin.y)) { return hit }
        }
        return nil
    }

    /// UIKit's `point(inside:with:)`: the bounds with the hit-test insets applied, or the shape.
    public func pointInside(_ view: Index, _ point: Point) -> Bool {
        switch nodes[view].hitShape {
        case .circle(let center, let radius)?:
            return (point - center).length <= radius
        case .polygon(let vertices)?:
            return Self.evenOdd(vertices, contains: point)
        case nil:
            let size = nodes[view].frame.size
            return Rect(x: 0, y: 0, width: size.width, height: size.height)
                .inset(by: nodes[view].hitTestInsets).contains(point)
        }
    }

    private static func evenOdd(_ vertices: [Point], contains p: Point) -> Bool {
        var inside = false
        var j = vertices.count - 1
        for i in vertices.indices {
            let a = vertices[i], b = vertices[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    /// `view` and its ancestors, deepest first: the views whose recognizers see a touch.
    public func path(from view: Index) -> [Index] {
        var path = [view]
        var current = nodes[view].parent
        while let next = current { path.append(next); current = nodes[next].parent }
        return path
    }

    /// Converts a screen point into `view`'s coordinates.
    public func convert(_ point: Point, to view: Index) -> Point {
        var result = point
        var current: Index? = view
        while let index = current {
            result = result - Vector(dx: nodes[index].frame.minX, dy: nodes[index].frame.minY)
            current = nodes[index].parent
        }
        return result
    }
}
