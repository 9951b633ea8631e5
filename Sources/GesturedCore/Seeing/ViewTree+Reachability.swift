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
    public func unreachable(_ view: Index) -> Unreachable? {
        guard acceptsTouches(view) else { return nil }
        let siblings = nodes[view].parent.map { nodes[$0].children } ?? roots
        let box = hitBounds(view)
        if let position = siblings.firstIndex(of: view) {
            for front in siblings[(position + 1)...] where acceptsTouches(front) && nodes[front].hitShape == nil {
                let area = hitBounds(front)
                if area.minX <= box.minX, area.minY <= box.minY, area.maxX >= box.maxX, area.maxY >= box.maxY,
                   box.minX < box.maxX, box.minY < box.maxY { return .covered(by: front) }
            }
        }
        return reachableArea(view) == nil ? .offScreen : nil
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
