import GesturedCore
import GesturedSeeing

/// `gestured explain X Y`: the hit-test walk, the winner and its route; what the application
/// behind the daemon gets of a touch there (`application: ...`, CONTRACT.md §5 and §6), always;
/// for each gesture there that sends input, what it sends and what the application sees of its
/// touches (`input: …`); the last line is `view ID` or `view none` (§4). Says on stderr which configuration it read
/// (`ConfigChoice`).
enum ExplainCommand {
    static func run(config: String?, screen: String?, layout: String?, x: Double, y: Double) throws(CommandFailure) {
        let choice = ConfigChoice.resolve(given: config)
        let configuration = try loadConfiguration(choice.path, screen: screen, layout: layout)
        choice.announce(assumedScreen: configuration.screen == nil)
        let engine: GestureEngine
        do { engine = try GestureEngine(views: configuration.views, screen: ScreenSizing.size(configured: configuration.screen)) } catch {
            throw CommandFailure(ExitStatus.config, "\(choice.path ?? "<default configuration>"): \(error)")
        }
        let point = Point(x: x, y: y)
        let explanation = engine.tree.explainHitTest(point)
        let route = explanation.winner.map { engine.route(of: $0) } ?? []
        let application = engine.applicationDelivery(at: point, path: configuration.applicationPath)
        var lines = explanation.lines(tree: engine.tree, route: route, application: application)
        // What the application sees of the gestures here that send input, before its own line.
        let notes = route.compactMap { entry in configuration.gesture(id: entry.name).flatMap(configuration.inputNote(for:)) }
        lines.insert(contentsOf: notes.map { "input: " + $0 }, at: lines.count - 2)
        for line in lines { print(line) }
    }
}
