import GesturedCore

/// `gestured explain X Y`: the hit-test walk for one point, view by view, with why each view
/// was skipped, the view that wins, and the recognizers a touch there reaches.
///
/// The walk is `ViewTree.hitTest`'s rules (UIKit's) done step by step and written down; a test
/// checks that its winner is always `hitTest`'s.
public struct HitTestExplanation: Hashable, Sendable {
    /// Why the walk did not go into a view.
    public enum SkipReason: Hashable, Sendable {
        case hidden
        case interactionDisabled
        case transparent(alpha: Double)
        /// The point, in the view's coordinates, is outside its hit area.
        case outsideHitArea(Point)
        /// A sibling in front of it (this one) took the point first.
        case coveredBy(ViewTree.Index)
    }

    public enum Step: Hashable, Sendable {
        /// The point (in the view's coordinates) is in its hit area: its subviews are asked,
        /// front to back.
        case entered(ViewTree.Index, Point)
        case skipped(ViewTree.Index, SkipReason)
    }

    public var point: Point
    /// In walk order, each with its depth (0: top-level views).
    public var steps: [(depth: Int, step: Step)]
    /// The view a touch at `point` goes to, nil for none.
    public var winner: ViewTree.Index?

    public static func == (a: Self, b: Self) -> Bool {
        a.point == b.point && a.winner == b.winner && a.steps.map(\.depth) == b.steps.map(\.depth)
            && a.steps.map(\.step) == b.steps.map(\.step)
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(point); hasher.combine(winner) }
}

extension ViewTree {
    /// The hit-test walk for `point` (screen coordinates), written down.
    public func explainHitTest(_ point: Point) -> HitTestExplanation {
        var steps: [(depth: Int, step: HitTestExplanation.Step)] = []
        let winner = explainAmong(roots, point, depth: 0, into: &steps)
        return HitTestExplanation(point: point, steps: steps, winner: winner)
    }

    /// Children back to front, the point in their parent's coordinates.
    private func explainAmong(_ children: [Index], _ point: Point, depth: Int,
                              into steps: inout [(depth: Int, step: HitTestExplanation.Step)]) -> Index? {
        let frontToBack = Array(children.reversed())
        for (position, child) in frontToBack.enumerated() {
            let local = Self.local(point, in: nodes[child].frame)
            guard let hit = explain(child, local, depth: depth, into: &steps) else { continue }
            // The siblings behind that would have taken the point: covered by this one.
            for behind in frontToBack[(position + 1)...] where hitTest(behind, Self.local(point, in: nodes[behind].frame)) != nil {
                steps.append((depth, .skipped(behind, .coveredBy(child))))
            }
            return hit
        }
        return nil
    }

    private func explain(_ view: Index, _ point: Point, depth: Int,
                         into steps: inout [(depth: Int, step: HitTestExplanation.Step)]) -> Index? {
        let node = nodes[view]
        let reason: HitTestExplanation.SkipReason? =
            node.isHidden ? .hidden
            : !node.isUserInteractionEnabled ? .interactionDisabled
            : node.alpha < Self.minimumHitTestAlpha ? .transparent(alpha: node.alpha)
            : !pointInside(view, point) ? .outsideHitArea(point) : nil
        if let reason {
            steps.append((depth, .skipped(view, reason)))
            return nil
        }
        steps.append((depth, .entered(view, point)))
        return explainAmong(node.children, point, depth: depth + 1, into: &steps) ?? view
    }

    private static func local(_ point: Point, in frame: Rect) -> Point {
        Point(x: point.x - frame.minX, y: point.y - frame.minY)
    }

    /// The hit area in words: `0…48 × 0…48 (frame with insets)`, `circle around 28, 28 of
    /// radius 28`, `polygon of 3 points`.
    public func hitAreaText(_ view: Index) -> String {
        let n = { (v: Double) in FailReason.number(v) }
        switch nodes[view].hitShape {
        case .circle(let c, let r)?: return "circle around \(n(c.x)), \(n(c.y)) of radius \(n(r))"
        case .polygon(let vertices)?: return "polygon of \(vertices.count) points"
        case nil:
            let size = nodes[view].frame.size
            let area = Rect(x: 0, y: 0, width: size.width, height: size.height).inset(by: nodes[view].hitTestInsets)
            let insets = nodes[view].hitTestInsets == .zero ? "" : " (bounds with hitTestInsets)"
            return "x \(n(area.minX))…\(n(area.maxX)), y \(n(area.minY))…\(n(area.maxY))\(insets)"
        }
    }
}

extension HitTestExplanation {
    /// The explanation in lines: the walk (indented by depth), the winner, then `route` (the
    /// recognizers in winning order), then what the application gets of a touch there
    /// (`application: forwarded|held IDS|never|direct|never (grabbed, not forwarded)`,
    /// CONTRACT.md §5 and §6), and last `view ID` or `view none` (CONTRACT.md §4).
    public func lines(tree: ViewTree, route: [GestureEngine.RouteEntry], application: ApplicationDelivery? = nil) -> [String] {
        var lines = walkLines(tree: tree, route: route)
        if let application { lines.insert("application: \(application)", at: lines.count - 1) }
        return lines
    }

    private func walkLines(tree: ViewTree, route: [GestureEngine.RouteEntry]) -> [String] {
        let n = { (v: Double) in FailReason.number(v) }
        var lines = ["touch at \(n(point.x)), \(n(point.y)) on the \(n(tree.screen.width))×\(n(tree.screen.height)) screen"]
        for (depth, step) in steps {
            let indent = String(repeating: "  ", count: depth + 1)
            switch step {
            case .entered(let view, let local):
                lines.append("\(indent)\(tree.nodes[view].id): in its hit area (\(n(local.x)), \(n(local.y)) in its coordinates; \(tree.hitAreaText(view)))")
            case .skipped(let view, let reason):
                let why = switch reason {
                case .hidden: "hidden (isHidden)"
                case .interactionDisabled: "interaction disabled (isUserInteractionEnabled: false)"
                case .transparent(let alpha):
                    "alpha \(FailReason.number(alpha, decimals: 4)) < \(FailReason.number(ViewTree.minimumHitTestAlpha, decimals: 4))"
                case .outsideHitArea(let local):
                    "outside its hit area (\(n(local.x)), \(n(local.y)) in its coordinates; \(tree.hitAreaText(view)))"
                case .coveredBy(let front): "covered by its sibling \(tree.nodes[front].id), in front, which took the touch"
                }
                lines.append("\(indent)\(tree.nodes[view].id): skipped: \(why)")
            }
        }
        guard let winner else {
            lines.append("no view takes a touch here: it starts no gesture")
            lines.append("view none")
            return lines
        }
        let local = tree.convert(point, to: winner)
        lines.append("winner: \(tree.nodes[winner].id) (\(n(local.x)), \(n(local.y)) in its coordinates)")
        if route.isEmpty {
            lines.append("route: no recognizer on \(tree.nodes[winner].id) or its ancestors")
        } else {
            lines.append("route, in winning order (deepest view first, then config order):")
            for (i, entry) in route.enumerated() {
                var line = "  \(i + 1). \(entry.name) (\(entry.type) on \(entry.view))"
                if !entry.requireToFail.isEmpty { line += "; waits for \(entry.requireToFail.joined(separator: ", ")) to fail (requireToFail)" }
                if !entry.simultaneous.isEmpty { line += "; recognizes simultaneously with \(entry.simultaneous.joined(separator: ", "))" }
                lines.append(line)
            }
        }
        lines.append("view \(tree.nodes[winner].id)")
        return lines
    }
}
