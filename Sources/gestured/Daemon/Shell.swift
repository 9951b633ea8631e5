import GesturedCore
import GesturedIO

/// What carries a batch out: the daemon's `Shell`, or a recorder in tests.
protocol BatchCarrying: AnyObject {
    func carryOut(_ batch: Batch, requester: ClientID?)
}

/// Carries out what the pipeline decided (`Batch`), in its one fixed order, the order `gestured
/// replay` prints it in: the trace and the recognizer bugs (to the log and the clients that
/// subscribe to the trace, before the lines it explains), a control request's answer to its
/// sender, the lines for clients (numbered as they are sent), the actions of those lines (with
/// their numbers), device lines (to every client), what the clones of
/// pass-through devices receive, the panels to grab or let go for the kiosk policy, and the faults the devices' decoders survived (logged,
/// rate-limited). Lines and clone events are queued here and written once per loop iteration
/// (`ClientHub.flush`, `CloneSinks.flush`).
final class Shell: BatchCarrying {
    private let clients: ClientHub
    private let actions: ActionRunner
    private let clones: CloneSinks
    private let clock: any Clock
    /// Grabs (true) or lets go of a panel for the kiosk policy's claims (`DeviceHub`'s, set
    /// once it exists).
    var grabPanel: (GesturePipeline.DeviceID, Bool) -> Void = { _, _ in }

    init(clients: ClientHub, actions: ActionRunner, clones: CloneSinks, clock: any Clock) {
        self.clients = clients
        self.actions = actions
        self.clones = clones
        self.clock = clock
    }

    func carryOut(_ batch: Batch, requester: ClientID?) {
        clients.publishTrace(batch.trace, bugs: batch.bugs)
        if let reply = batch.reply, let requester { clients.reply(reply, to: requester) }
        if !batch.outputs.isEmpty {
            var next = 0   // the next action, by output index
            let now = clock.now()
            clients.publish(batch.outputs) { index, seq in
                while next < batch.actions.count, batch.actions[next].output == index {
                    let request = batch.actions[next]
                    switch batch.outputs[index] {
                    case .gesture(let event): actions.run(request.action, for: event, seq: seq, now: now)
                    case .kiosk:   // the wake action: the `wake` line's variables
                        let line = LineEncoder.output(batch.outputs[index], seq: seq, format: .text)
                        actions.run(request.action, name: PowerPolicy.wakeActionName,
                                    variables: KioskEnvironment.variables(ofTextLine: line) ?? [], now: now)
                    case .touch: break
                    }
                    next += 1
                }
            }
        }
        for line in batch.deviceLines {
            clients.broadcast { seq, format in
                LineEncoder.device(added: line.added, sysname: line.sysname, name: line.name, seq: seq, format: format)
            }
        }
        if !batch.forwarded.isEmpty { clones.enqueue(batch.forwarded) }
        for grab in batch.grabs { grabPanel(grab.device, grab.exclusive) }
        for fault in batch.faults {
            Log.limited(.warning, key: "\(fault.sysname) \(fault.anomaly.rawValue)",
                        "\(fault.sysname): \(fault.anomaly)\(fault.count > 1 ? " (\(fault.count) times)" : "")")
        }
    }

}
