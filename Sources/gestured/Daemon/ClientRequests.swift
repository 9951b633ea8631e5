import GesturedConfig
import GesturedCore
import GesturedIO

/// Client requests: each line answered (`ControlDesk.answer`), in the client's format; a request
/// that changes what a client receives changes its subscription in the client hub; a request
/// that needs a right (`ClientRequest.right`) is refused unless the peer holds it
/// (`ControlAuthority`); a control request goes to the pipeline with the layouts in force, and
/// its batch answers it ahead of the lines it causes.
final class ClientRequests {
    private let clients: ClientHub
    private let live: LivePipeline
    private let clock: any Clock
    /// Who holds which rights; rebuilt on reload.
    private var authority: ControlAuthority
    private var layouts: [ControlDesk.ScreenLayouts]

    init(clients: ClientHub, live: LivePipeline, clock: any Clock, configuration: Configuration, authority: ControlAuthority) {
        self.clients = clients
        self.live = live
        self.clock = clock
        self.authority = authority
        layouts = ControlDesk.layouts(of: configuration)
    }

    /// Takes up a reloaded configuration's rights and layouts.
    func configure(_ configuration: Configuration, authority: ControlAuthority) {
        self.authority = authority
        layouts = ControlDesk.layouts(of: configuration)
    }

    /// Answers a client's request lines, in order.
    func handle(_ requests: ClientHub.Requests) {
        let id = requests.client
        var subscription = requests.subscription
        let caller = ControlDesk.Caller(uid: requests.peer?.uid, rights: authority.rights(of: requests.peer))
        for item in requests.items {
            let outcome = ControlDesk.answer(item, subscription: &subscription, caller: caller,
                                             control: { control($0, from: id, peer: requests.peer, format: $1) },
                                             stats: clients.statsLine(format:))
            // Stored before the next line: a control request's batch reaches this client in the
            // format it asked for just before.
            clients.setSubscription(subscription, of: id)
            live.apply(clients.takeSubscriptionChanges())
            live.setReporting(clients.reporting)
            if let line = outcome.accepted { Log.debug("\(id): \(line)") }
            if let message = outcome.badRequest { Log.limited(.info, key: "\(id) bad request", "\(id): bad request: \(message)") }
            if let right = outcome.refused, case .line(let line) = item {
                let verb = line.split(separator: " ").prefix(2).joined(separator: " ")
                Log.limited(.warning, key: "\(id) refused",
                            "\(id) (\(requests.peer.map { "\($0)" } ?? "unknown peer")): \(verb) refused, "
                            + "no \(right.rawValue) right")
            }
            if let answer = outcome.answer { clients.reply(answer, to: id) }
        }
    }

    /// A control request of a peer that holds its right: the pipeline applies it and its batch
    /// answers it.
    private func control(_ request: ControlRequest, from id: ClientID, peer: PeerCredentials?, format: LineFormat) {
        if live.control(request, from: id, format: format, layouts: layouts, now: clock.now()) == nil {
            Log.info("\(id) (uid \(peer?.uid ?? 0)): \(request.command) \(ControlDesk.describe(request))")
        }
    }
}
