import GesturedCore

/// Likely mistakes in a valid configuration, found before a user meets them: `check-config`
/// prints them (and fails with `--strict`), the daemon logs them once at start and reload.
///
/// Each names the key path of what to change (`views[0].gestures[1]`); `GesturedConfig` adds the
/// file and line:column.
public struct ConfigurationWarning: Hashable, Sendable, CustomStringConvertible {
    public var keyPath: String
    public var message: String
    public init(keyPath: String, message: String) { self.keyPath = keyPath; self.message = message }
    public var description: String { "\(keyPath): \(message)" }

    /// A requireToFail chain that can hold a gesture back longer than this feels broken.
    public static let maximumHoldBack = Interval(seconds: 1)
}

extension Configuration {
    /// Every warning: the device rules' (PassThroughChecks.swift), then in the order of the views
    /// and gestures in the file, screen by screen with `screens` (key paths `screens[k].views[...]`).
    public func warnings() -> [ConfigurationWarning] {
        let viewWarnings = screens.isEmpty ? warnings(views: views, screen: screen, prefix: "views")
            : screens.indices.flatMap { k in warnings(views: screens[k].views, screen: screens[k].size, prefix: "screens[\(k)].views") }
        return passThroughWarnings() + inputWarnings() + viewWarnings
    }

    /// The warnings of one screen's view tree; `prefix` is the key path of its `views`.
    private func warnings(views: [ViewSpec], screen: Size?, prefix: String) -> [ConfigurationWarning] {
        let tree = ViewTree(views: views, screen: ScreenSizing.size(configured: screen))
        // ViewTree numbers views in the file's order (depth first), so key paths line up.
        var viewPaths: [String] = []
        func walk(_ specs: [ViewSpec], _ prefix: String) {
            for (i, spec) in specs.enumerated() {
                viewPaths.append("\(prefix)[\(i)]")
                walk(spec.subviews, "\(prefix)[\(i)].subviews")
            }
        }
        walk(views, prefix)
        var gestures: [(spec: GestureSpec, view: ViewTree.Index, path: String)] = []
        for (view, node) in tree.nodes.enumerated() {
            for (k, spec) in node.gestures.enumerated() { gestures.append((spec, view, "\(viewPaths[view]).gestures[\(k)]")) }
        }
        let byID = Dictionary(gestures.map { ($0.spec.id, $0) }, uniquingKeysWith: { a, _ in a })
        var warnings: [ConfigurationWarning] = []
        let n = { (v: Double) in FailReason.number(v) }

        for view in tree.nodes.indices {
            let id = tree.nodes[view].id
            switch tree.unreachable(view) {
            case .covered(let front)?:
                warnings.append(.init(keyPath: viewPaths[view], message: "view \"\(id)\" can never be hit: \"\(tree.nodes[front].id)\", in front of it, covers its whole hit area"))
            case .offScreen?:
                warnings.append(.init(keyPath: viewPaths[view], message: "view \"\(id)\" can never be hit: no part of its hit area is on the \(n(tree.screen.width))×\(n(tree.screen.height)) screen inside its parents' hit areas"))
            case nil: break
            }
        }

        for (spec, view, path) in gestures {
            // A screen-edge pan must begin within edgeZoneWidth of one of its edges.
            if case .screenEdgePan(let p) = spec.kind, let area = tree.reachableArea(view) {
                let near = p.edges.filter { edge in
                    switch edge {
                    case .left: area.minX < p.edgeZoneWidth.points
                    case .top: area.minY < p.edgeZoneWidth.points
                    case .right: area.maxX > tree.screen.width - p.edgeZoneWidth.points
                    case .bottom: area.maxY > tree.screen.height - p.edgeZoneWidth.points
                    }
                }
                if near.isEmpty {
                    warnings.append(.init(keyPath: path + ".edges", message: "\"\(spec.id)\" can never begin: view \"\(tree.nodes[view].id)\" does not reach within edgeZoneWidth \(n(p.edgeZoneWidth.points)) pt of its edge\(p.edges.count == 1 ? "" : "s") (\(p.edges.map(\.rawValue).sorted().joined(separator: ", ")))"))
                }
            }
            // Taps differing in numberOfTapsRequired on the same touches, the fewer not waiting.
            if case .tap(let few) = spec.kind {
                for (other, otherView, _) in gestures {
                    guard case .tap(let many) = other.kind, many.numberOfTapsRequired > few.numberOfTapsRequired,
                          many.numberOfTouchesRequired == few.numberOfTouchesRequired,
                          tree.isDescendant(view, of: otherView) || tree.isDescendant(otherView, of: view),
                          !waits(spec.id, for: other.id, byID) else { continue }
                    warnings.append(.init(keyPath: path, message: "taps \"\(spec.id)\" (\(few.numberOfTapsRequired)) and \"\(other.id)\" (\(many.numberOfTapsRequired)) see the same touches without requireToFail: every \(many.numberOfTapsRequired)-tap also fires \"\(spec.id)\" first; add requireToFail: [\"\(other.id)\"] to \"\(spec.id)\""))
                }
            }
            // requireToFail chains that hold the gesture back too long.
            let (hold, chain) = holdBack(spec.id, byID)
            if hold > ConfigurationWarning.maximumHoldBack {
                warnings.append(.init(keyPath: path + ".requireToFail", message: "\"\(spec.id)\" may wait \(n(hold.seconds)) s for \(chain.joined(separator: " → ")) to fail (requireToFail), more than \(n(ConfigurationWarning.maximumHoldBack.seconds)) s: it will feel unresponsive"))
            }
        }
        return warnings
    }

    /// Whether `a` waits for `b` to fail, directly or through a chain.
    private func waits(_ a: String, for b: String, _ byID: [String: (spec: GestureSpec, view: ViewTree.Index, path: String)],
                       seen: Set<String> = []) -> Bool {
        guard let requires = byID[a]?.spec.requireToFail, !seen.contains(a) else { return false }
        return requires.contains(b) || requires.contains { waits($0, for: b, byID, seen: seen.union([a])) }
    }

    /// The longest a gesture may wait, after it would have recognized, for its requireToFail
    /// chain to fail, and that chain: a multi-tap waits up to maximumTapInterval per further tap,
    /// a swipe up to its maximumDuration; the others fail when their touches lift or move.
    private func holdBack(_ id: String, _ byID: [String: (spec: GestureSpec, view: ViewTree.Index, path: String)],
                          seen: Set<String> = []) -> (Interval, [String]) {
        guard let spec = byID[id]?.spec, !seen.contains(id) else { return (.zero, []) }
        var best: (Interval, [String]) = (.zero, [])
        for other in spec.requireToFail {
            guard let kind = byID[other]?.spec.kind else { continue }
            let own: Interval = switch kind {
            case .tap(let p): Interval(microseconds: p.maximumTapInterval.microseconds * Int64(max(p.numberOfTapsRequired - 1, 0)))
            case .swipe(let p): p.maximumDuration
            case .longPress(let p): Interval(microseconds: p.maximumTapInterval.microseconds * Int64(p.numberOfTapsRequired))
            case .pan, .pinch, .rotation, .screenEdgePan, .stroke: .zero
            }
            let (rest, chain) = holdBack(other, byID, seen: seen.union([id]))
            let total = Interval(microseconds: own.microseconds + rest.microseconds)
            if total > best.0 { best = (total, [other] + chain) }
        }
        return best
    }
}
