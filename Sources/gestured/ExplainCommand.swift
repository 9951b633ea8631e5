import GesturedCore

/// The engine as a configuration (and optionally one of its layouts) sets it up, on the
/// configuration's screen (or the fallback size): what `explain` and `draw` look at.
func engine(for configuration: Configuration, layout: String?, configPath: String?) throws(CommandFailure) -> GestureEngine {
    var engine: GestureEngine
    do { engine = try GestureEngine(views: configuration.views, screen: configuration.screen ?? DeviceGeometry.fallbackScreen) } catch {
        throw CommandFailure(ExitStatus.config, "\(configPath ?? "<default configuration>"): \(error)")
    }
    guard let layout else { return engine }
    guard let entries = configuration.layouts[layout]?.entries else {
        let known = configuration.layouts.keys.sorted()
        throw CommandFailure(ExitStatus.usage, "--layout: no layout '\(layout)' in \(configPath ?? "<default configuration>")"
                             + (known.isEmpty ? " (it has none)" : "; it has \(known.joined(separator: ", "))"))
    }
    var discarded: [GestureEvent] = []
    for entry in entries {
        guard let view = engine.tree.index(of: entry.view) else { continue }
        for change in entry.changes { engine.change(change, of: view, now: .zero, into: &discarded) }
    }
    return engine
}

/// `gestured explain X Y`: the hit-test walk, the winner and its route; the last line is
/// `view ID` or `view none` (CONTRACT.md §4).
enum ExplainCommand {
    static func run(config: String?, layout: String?, x: Double, y: Double) throws(CommandFailure) {
        let engine = try engine(for: loadConfiguration(config), layout: layout, configPath: config)
        let explanation = engine.tree.explainHitTest(Point(x: x, y: y))
        let route = explanation.winner.map { engine.route(of: $0) } ?? []
        for line in explanation.lines(tree: engine.tree, route: route) { print(line) }
    }
}
