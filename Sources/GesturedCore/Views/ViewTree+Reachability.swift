/// Views that can never take a touch although they are shown and enabled: covered entirely by a
/// sibling in front, or with no part of their hit area on the screen (inside every ancestor's
/// hit area). `gestured draw` marks them; `check-config` warns about them.
///
/// Hidden, disabled and transparent views are not here: they take no touches by design (and a
/// layout or a control request may show them).
extension ViewTree {
    public enum Unreachable: Hashable, Sendable {
        /// A sibling in front (this one), shown and enabled, whose hit area contains all of it.
        case covered(by: Index)
        /// No part of its hit area lies on the screen inside its ancestors' hit areas.
        case offScreen
    }

    /// Why `view` can never be hit, or nil when some point reaches it (or it is hidden,
    /// disabled or transparent on purpose).
    ///
    /// Cost independent of the number of siblings (check-config asks it of every view, so
    /// scanning every sibling in front would be quadratic in the views): the siblings asked are those
    /// in front of it, nearest first, that can be hit at its centre (the parent's `ChildGrid`
    /// cell, when it has one), and at most `maximumCoverChecks` of them; a view covered only by
    /// a sibling further away than that is not reported.
    public func unreachable(_ view: Index) -> Unreachable? {
        guard acceptsTouches(view) else { return nil }
        let box = hitBounds(view)
        if box.minX < box.maxX, box.minY < box.maxY, let front = coveringSibling(view, box) { return .covered(by: front) }
        return reachableArea(view) == nil ? .offScreen : nil
    }

    /// How many siblings in front of a view `unreachable` asks whether they cover it.
    static let maximumCoverChecks = 256

    /// The nearest sibling in front of `view`, shown and enabled, whose hit area (a rectangle)
    /// contains `box` (its own, non-empty).
    private func coveringSibling(_ view: Index, _ box: Rect) -> Index? {
        let position = nodes[view].position
        func covers(_ front: Index) -> Bool {
            guard acceptsTouches(front), nodes[front].hitShape == nil else { return false }
            let area = hitBounds(front)
            return area.minX <= box.minX && area.minY <= box.minY && area.maxX >= box.maxX && area.maxY >= box.maxY
        }
        let grid = nodes[view].parent.map { nodes[$0].childGrid } ?? rootGrid
        let center = Point(x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2)
        if let grid, let cell = grid.cell(of: center) {
            // The cell lists its children front to back: those in front of `view` come first.
            let candidates = grid.candidates[cell]
            var low = candidates.startIndex, high = candidates.endIndex
            while low < high {
                let mid = (low + high) / 2
                if nodes[candidates[mid]].position > position { low = mid + 1 } else { high = mid }
            }
            for front in candidates[candidates.startIndex..<low].reversed().prefix(Self.maximumCoverChecks) where covers(front) {
                return front
            }
            return nil
        }
        let siblings = nodes[view].parent.map { nodes[$0].children } ?? roots
        for front in siblings[(position + 1)...].prefix(Self.maximumCoverChecks) where covers(front) { return front }
        return nil
    }

    /// The part of the screen where `view` may be hit (its hit area's bounding box clipped by
    /// every ancestor's and by the screen), in screen coordinates; nil when empty.
    public func reachableArea(_ view: Index) -> Rect? {
        var clip = Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        for v in path(from: view).reversed() {
            let b = hitBounds(v)   // in the parent's coordinates
            let o = nodes[v].parent.map { convert(.zero, to: $0) } ?? .zero   // minus the parent's origin on the screen
            let (minX, minY) = (max(clip.minX, b.minX - o.x), max(clip.minY, b.minY - o.y))
            let (maxX, maxY) = (min(clip.maxX, b.maxX - o.x), min(clip.maxY, b.maxY - o.y))
            guard minX < maxX, minY < maxY else { return nil }
            clip = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        }
        return clip
    }

    /// Shown, enabled and opaque enough, with all its ancestors: it may take touches.
    public func acceptsTouches(_ view: Index) -> Bool {
        path(from: view).allSatisfy {
            !nodes[$0].isHidden && nodes[$0].isUserInteractionEnabled && nodes[$0].alpha >= Self.minimumHitTestAlpha
        }
    }

    /// The bounding box of the hit area in the parent's coordinates (no padding).
    public func hitBounds(_ view: Index) -> Rect {
        let origin = nodes[view].frame.origin
        let (minX, minY, maxX, maxY): (Double, Double, Double, Double)
        switch nodes[view].hitShape {
        case .circle(let c, let r)?: (minX, minY, maxX, maxY) = (c.x - r, c.y - r, c.x + r, c.y + r)
        case .polygon(let vertices)?:
            (minX, minY) = (vertices.map(\.x).min() ?? 0, vertices.map(\.y).min() ?? 0)
            (maxX, maxY) = (vertices.map(\.x).max() ?? 0, vertices.map(\.y).max() ?? 0)
        case nil:
            let size = nodes[view].frame.size
            let a = Rect(x: 0, y: 0, width: size.width, height: size.height).inset(by: nodes[view].hitTestInsets)
            (minX, minY, maxX, maxY) = (a.minX, a.minY, a.maxX, a.maxY)
        }
        return Rect(x: origin.x + minX, y: origin.y + minY, width: maxX - minX, height: maxY - minY)
    }
}
