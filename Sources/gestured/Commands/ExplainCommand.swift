import GesturedCore

/// `gestured explain X Y`: the hit-test walk, the winner and its route; when the configuration
/// passes a device through, what the application behind it gets of a touch there
/// (`application: ...`, CONTRACT.md §5); the last line is `view ID` or `view none` (§4).
enum ExplainCommand {
    static func run(config: String?, screen: String?, layout: String?, x: Double, y: Double) throws(CommandFailure) {
        let configuration = try loadConfiguration(config, screen: screen, layout: layout)
        let engine: GestureEngine
        do { engine = try GestureEngine(views: configuration.views, screen: configuration.screen ?? DeviceGeometry.fallbackScreen) } catch {
            throw CommandFailure(ExitStatus.config, "\(config ?? "<default configuration>"): \(error)")
        }
        let explanation = engine.tree.explainHitTest(Point(x: x, y: y))
        let route = explanation.winner.map { engine.route(of: $0) } ?? []
        let passesThrough = configuration.devices.contains { $0.passThrough }
        let application = passesThrough ? engine.applicationDelivery(at: Point(x: x, y: y)) : nil
        for line in explanation.lines(tree: engine.tree, route: route, application: application) { print(line) }
    }
}
