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
    /// cell, children × cells entries (memory quadratic in the views, docs/RELIABILITY.md). Such a view
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
