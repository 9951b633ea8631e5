import GesturedCore
import GesturedIO

/// What carries a batch out: the daemon's `Shell`, or a recorder in tests.
protocol BatchCarrying: AnyObject {
    func carryOut(_ batch: Batch, requester: ClientID?)
}

/// Carries out what the pipeline decided (`Batch`), in its one fixed order, the order `gestured
/// replay` prints it in: the trace and the recognizer bugs to the log, the step's lines queued
/// for each client as the core numbered and encoded them (`Batch.delivery`: trace lines, a
/// control request's answer to its sender, touch, gesture, kiosk and device lines), the actions
/// of those lines (with their numbers and, for the wake action, its variables), what the clones of
/// pass-through devices receive, and the faults the devices' decoders survived (logged,
/// rate-limited). The panels to grab or let go for the kiosk policy are `DeviceHub`'s, handed
/// to it by the loop (`LivePipeline.takeGrabs`): the shell calls into no other part. Lines and clone events are queued here and written once per loop iteration
/// (`ClientHub.flush`, `CloneSinks.flush`).
final class Shell: BatchCarrying {
    private let clients: ClientHub
    private let actions: ActionRunner
    private let clones: CloneSinks
    /// The gestures' input actions (`gestured input`), apart from the commands.
    private let inputs: InputSink
    private let clock: any Clock

    init(clients: ClientHub, actions: ActionRunner, clones: CloneSinks, inputs: InputSink, clock: any Clock) {
        self.clients = clients
        self.actions = actions
        self.inputs = inputs
        self.clones = clones
        self.clock = clock
    }

    func carryOut(_ batch: Batch, requester: ClientID?) {
        clients.logTrace(batch.trace, bugs: batch.bugs)
        clients.deliver(batch.delivery, reply: batch.reply, to: requester)
        // Debug lines only with --verbose: the outputs are not walked a second time per frame otherwise.
        if Log.verbose { for case .gesture(let g) in batch.outputs { Log.debug("\(g.name): \(g.state.rawValue)") } }
        if !batch.actions.isEmpty {
            let now = clock.now()
            for request in batch.actions {
                switch batch.outputs[request.output] {
                case .gesture(let event):
                    if let input = request.action.input {
                        inputs.send(input, for: event, now: now)
                    } else {
                        actions.run(request.action, for: event, seq: request.seq, now: now)
                    }
                case .kiosk:   // the wake action: the `wake` line's variables
                    actions.run(request.action, name: PowerPolicy.wakeActionName,
                                variables: request.variables.map { ($0.name, $0.value) }, now: now)
                case .touch: break
                }
            }
        }
        if !batch.forwarded.isEmpty { clones.enqueue(batch.forwarded) }
        for fault in batch.faults {
            Log.limited(.warning, key: "\(fault.sysname) \(fault.anomaly.rawValue)",
                        "\(fault.sysname): \(fault.anomaly)\(fault.count > 1 ? " (\(fault.count) times)" : "")")
        }
    }

}
