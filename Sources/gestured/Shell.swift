import GesturedCore
import GesturedIO

/// Carries out what the pipeline decided (`Batch`), in its one fixed order, the order `gestured
/// replay` prints it in: the trace (to the log and the clients that subscribe to it, before the
/// lines it explains), a control request's answer to its sender, the lines for clients (numbered
/// as they are sent), the actions of those
/// lines (with their numbers), what the clones of pass-through devices receive, and the faults
/// the devices' decoders survived (logged, rate-limited). Lines and clone events are queued
/// here and written once per loop iteration (`ClientHub.flush`, `DeviceHub.writeForwarded`).
final class Shell {
    private let clients: ClientHub
    private let actions: ActionRunner
    private let devices: () -> DeviceHub?
    private let live: LivePipeline

    init(clients: ClientHub, actions: ActionRunner, live: LivePipeline, devices: @escaping () -> DeviceHub?) {
        self.clients = clients
        self.actions = actions
        self.live = live
        self.devices = devices
    }

    func carryOut(_ batch: Batch, requester: ClientID?) {
        clients.publishTrace(batch.trace)
        if let reply = batch.reply, let requester { clients.reply(reply, to: requester) }
        if !batch.outputs.isEmpty {
            var next = 0   // the next action, by output index
            let now = MonotonicClock.now()
            clients.publish(batch.outputs) { index, seq in
                while next < batch.actions.count, batch.actions[next].output == index {
                    actions.run(batch.actions[next].action, for: batch.actions[next].event(in: batch), seq: seq, now: now)
                    next += 1
                }
            }
        }
        if !batch.forwarded.isEmpty { devices()?.enqueueForwarded(batch.forwarded) }
        for fault in batch.faults {
            let sysname = live.pipeline.sysname(of: fault.device) ?? "device \(fault.device.value)"
            Log.limited(.warning, key: "\(sysname) \(fault.anomaly.rawValue)",
                        "\(sysname): \(fault.anomaly)\(fault.count > 1 ? " (\(fault.count) times)" : "")")
        }
    }
}
