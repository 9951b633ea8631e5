import GesturedConfig
import GesturedCore
import GesturedIO

/// Client requests: each line answered (`ControlDesk.answer`), in the client's format; a request
/// that changes what a client receives changes its subscription in the client hub; a control
/// request (`hide`, `show`, `frame`, `layout`, `rotate`) from a peer that may send it
/// (`ControlAuthority`) goes to the pipeline with the layouts in force, and its batch answers it
/// ahead of the lines it causes.
final class ClientRequests {
    private let clients: ClientHub
    private let live: LivePipeline
    private let clock: any Clock
    /// Who may send control requests; rebuilt on reload.
    private var authority: ControlAuthority
    private var layouts: [ControlDesk.ScreenLayouts]

    init(clients: ClientHub, live: LivePipeline, clock: any Clock, configuration: Configuration, authority: ControlAuthority) {
        self.clients = clients
        self.live = live
        self.clock = clock
        self.authority = authority
        layouts = ControlDesk.layouts(of: configuration)
    }

    /// Takes up a reloaded configuration's control policy and layouts.
    func configure(_ configuration: Configuration, authority: ControlAuthority) {
        self.authority = authority
        layouts = ControlDesk.layouts(of: configuration)
    }

    /// Answers a client's request lines, in order.
    func handle(_ requests: ClientHub.Requests) {
        let id = requests.client
        var subscription = requests.subscription
        for item in requests.items {
            let outcome = ControlDesk.answer(item, subscription: &subscription,
                                             control: { control($0, from: id, peer: requests.peer, format: $1) },
                                             stats: clients.statsLine(format:))
            // Stored before the next line: a control request's batch reaches this client in the
            // format it asked for just before.
            clients.setSubscription(subscription, of: id)
            live.setReporting(clients.reporting)
            if let line = outcome.accepted { Log.debug("\(id): \(line)") }
            if let message = outcome.badRequest { Log.limited(.info, key: "\(id) bad request", "\(id): bad request: \(message)") }
            if let answer = outcome.answer { clients.reply(answer, to: id) }
        }
    }

    /// A control request: why the peer may not send it (nothing changed then), or nil once the
    /// pipeline has applied it and its batch has answered it.
    private func control(_ request: ControlRequest, from id: ClientID, peer: PeerCredentials?, format: LineFormat) -> String? {
        guard authority.allows(peer) else {
            Log.limited(.warning, key: "\(id) control refused",
                        "\(id) (\(peer.map { "\($0)" } ?? "unknown peer")): \(request.command) refused, not authorized to control")
            return "not authorized to control (uid \(peer.map { String($0.uid) } ?? "unknown")): only root, the daemon's user and the config's control uids and groups may"
        }
        if live.control(request, from: id, format: format, layouts: layouts, now: clock.now()) == nil {
            Log.info("\(id) (uid \(peer?.uid ?? 0)): \(request.command) \(ControlDesk.describe(request))")
        }
        return nil
    }
}
