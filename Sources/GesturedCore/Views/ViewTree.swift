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
    func hitTest(_ view: Index, _ point: Point) -> Index? {
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
    func pointInside(_ view: Index, _ point: Point) -> Bool {
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

extension ViewTree {
    /// Where each child of a view with many children can be hit: a grid of about as many cells
    /// as children over the view's bounds, each cell listing, front to back, the children whose
    /// hit area's bounding box meets it (in the view's coordinates). Hit-testing a point asks only
    /// its cell's children, in the same order as the linear scan, so the answer is the same (a
    /// child outside the cell cannot contain the point; its subviews can be hit only inside its
    /// own hit area, rule 2) without visiting every sibling, whose cost grows with their number
    /// (docs/PERFORMANCE.md, "Hit-testing").
    ///
    /// Its size is bounded by `entryBudget` per child: children whose boxes cover most of the
    /// grid (views without frames are as large as their parent) would each be listed in every
    /// cell, children × cells entries (5,000 frameless views took 646 MB to load). Such a view
    /// gets no grid; its children are asked in turn, which costs no more, since every one of them
    /// can be hit almost everywhere.
    struct ChildGrid: Sendable {
        /// Cell entries allowed per child, beyond one per cell.
        static let entryBudget = 8
        let columns: Int, rows: Int
        let cellWidth: Double, cellHeight: Double
        /// Row-major: the children of cell `c` are `candidates[start[c]..<start[c + 1]]`.
        let start: [Int]
        let candidates: [Index]

        /// Nil when the bounds are empty or not finite, or the children cover too much of them
        /// (`entryBudget`): then every child is asked.
        init?(children: [Index], in size: Size, of tree: ViewTree) {
            guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else { return nil }
            let side = Int(Double(children.count).squareRoot().rounded(.up))
            columns = side; rows = side
            let (cellWidth, cellHeight) = (size.width / Double(side), size.height / Double(side))
            self.cellWidth = cellWidth; self.cellHeight = cellHeight
            // The cells each child covers, front to back (all of them for an unknown extent).
            var spans: [(child: Index, columns: ClosedRange<Int>, rows: ClosedRange<Int>)] = []
            var entries = 0
            for child in children.reversed() {
                let box = tree.hitBox(child)
                guard box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite else {
                    spans.append((child, 0...(side - 1), 0...(side - 1)))
                    entries += side * side
                    continue
                }
                // An empty or inverted box contains no point; one wholly outside the bounds can be
                // hit only at points outside the grid, which ask every child.
                guard box.minX <= box.maxX, box.minY <= box.maxY, box.maxX >= 0, box.maxY >= 0,
                      box.minX < size.width, box.minY < size.height else { continue }
                let columns = Self.cell(box.minX, cellWidth, side)...Self.cell(box.maxX, cellWidth, side)
                let rows = Self.cell(box.minY, cellHeight, side)...Self.cell(box.maxY, cellHeight, side)
                spans.append((child, columns, rows))
                entries += columns.count * rows.count
            }
            guard entries <= Self.entryBudget * children.count + side * side else { return nil }
            var cells = Array(repeating: [Index](), count: side * side)
            for (child, columns, rows) in spans {
                for r in rows { for c in columns { cells[r * side + c].append(child) } }
            }
            var start = [0]
            start.reserveCapacity(cells.count + 1)
            for cell in cells { start.append(start[start.count - 1] + cell.count) }
            self.start = start
            candidates = cells.flatMap { $0 }
        }

        /// The cell column (or row) of a coordinate, clamped to the grid (closed on both sides,
        /// so a box touching a cell's edge is listed in it).
        private static func cell(_ value: Double, _ size: Double, _ count: Int) -> Int {
            value <= 0 ? 0 : min(count - 1, Int(value / size))
        }

        /// The range of `candidates` to ask for `point` (the view's coordinates), or nil when the
        /// point is outside the grid (a hit area grown by negative insets).
        func cell(of point: Point) -> Range<Int>? {
            guard point.x >= 0, point.y >= 0, point.x < cellWidth * Double(columns), point.y < cellHeight * Double(rows) else {
                return nil
            }
            let c = min(columns - 1, Int(point.x / cellWidth)) + min(rows - 1, Int(point.y / cellHeight)) * columns
            return start[c]..<start[c + 1]
        }
    }

    /// The bounding box of where `view` can be hit, in its parent's coordinates, padded by a
    /// millionth of a point on each side so that rounding (the hit test subtracts the origin from
    /// the point, this adds it to the box) can never leave out a point the view contains.
    fileprivate func hitBox(_ view: Index) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let origin = nodes[view].frame.origin
        var (minX, minY, maxX, maxY): (Double, Double, Double, Double)
        switch nodes[view].hitShape {
        case .circle(let center, let radius)?:
            (minX, minY, maxX, maxY) = (center.x - radius, center.y - radius, center.x + radius, center.y + radius)
        case .polygon(let vertices)?:
            guard let first = vertices.first else { return (1, 1, 0, 0) }   // contains nothing
            (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
            for v in vertices { minX = min(minX, v.x); minY = min(minY, v.y); maxX = max(maxX, v.x); maxY = max(maxY, v.y) }
        case nil:
            let size = nodes[view].frame.size
            let area = Rect(x: 0, y: 0, width: size.width, height: size.height).inset(by: nodes[view].hitTestInsets)
            (minX, minY, maxX, maxY) = (area.minX, area.minY, area.maxX, area.maxY)
        }
        let pad = 1e-6
        return (origin.x + minX - pad, origin.y + minY - pad, origin.x + maxX + pad, origin.y + maxY + pad)
    }
}
