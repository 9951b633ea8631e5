import GesturedCore
import GesturedIO
import Glibc

/// The client hub's inputs, bounded per wakeup (docs/RELIABILITY.md, "Hostile clients and
/// configurations"): connections accepted (at most `acceptsPerWakeup`; the listener stays
/// readable for the rest), bytes read from a client (at most `RequestLimits.bytesPerRead`, and
/// none while its lines wait), request lines served (`RequestScheduler`: a few per client per
/// wakeup, round-robin, a budget over time past which the client is disconnected).
extension ClientHub {
    /// Connections accepted per wakeup: a connect/close loop cannot hold the loop in `accept`
    /// (docs/RELIABILITY.md, "Hostile clients and configurations", has what one did without the bound).
    static let acceptsPerWakeup = 32

    /// A client's request lines for this wakeup, with who sent them and what it had subscribed
    /// to when it sent them: requests still apply when the client hung up right after sending
    /// them (`echo "hide map" | socat - UNIX-CONNECT:...`).
    struct Requests {
        var client: ClientID
        var peer: PeerCredentials?
        var subscription: ClientSubscription
        var items: [RequestFramer.Item]
    }

    /// Whether request lines wait to be served: the loop then polls without waiting.
    var hasPendingRequests: Bool { scheduler.hasWaiting }

    /// Accepts up to `acceptsPerWakeup` pending connections the policy admits, and greets them.
    func accept() {
        for _ in 0..<Self.acceptsPerWakeup {
            let event: ServerEvent?
            do { event = try server.accept() } catch {
                if error.isResourceShortage { pauseAccepting(error, now: clock.now()) } else {
                    Log.limited(.warning, key: "accept", "accept failed: \(error)")
                }
                return
            }
            guard let event else { return }
            guard case .accepted(let id) = event, let fd = server.descriptor(of: id) else { report(event); continue }
            var state = ClientState()
            do { state.peer = try PeerCredentials.of(fd) } catch {
                Log.limited(.warning, key: "peer credentials", "\(id): \(error); it may listen but not control")
            }
            state.connection = ConnectionPolicy.Peer(uid: state.peer?.uid, mayControl: RightsPolicy.mayControl(authority.rights(of: state.peer)))
            if let refusal = policy.admit(state.connection, connected: clients.values.lazy.filter(\.connected).map(\.connection)) {
                Log.limited(.warning, key: "client refused", "client refused (\(state.peer.map { "\($0)" } ?? "unknown peer")): \(refusal)")
                server.disconnect(id)
                continue
            }
            let now = clock.now()
            for line in connectionLog.summaries(now: now) { Log.info(line) }
            state.logged = connectionLog.connected(uid: state.peer?.uid, now: now)
            if state.logged { report(event) }
            do { try poller.add(fd, token: LoopToken.token(of: id), events: .readable) } catch {
                Log.limited(.warning, key: "client watch", "\(id): cannot watch: \(error), disconnecting")
                server.disconnect(id)
                continue
            }
            if let peer = state.peer { Log.debug("\(id): \(peer)") }
            clients[id] = state
            subscriptionChanges.append(SubscriptionChange(client: id, subscription: state.subscription))
            send(Array(LineEncoder.hello(format: .text).utf8), to: id)
        }
    }

    /// Serves a client's readiness: writes what waits for it, reads what it sent (at most
    /// `bytesPerRead`, and nothing while its earlier lines wait to be served). Complete lines
    /// wait in the scheduler for `serveRequests`.
    func service(_ id: ClientID, events ready: PollEvents) {
        if ready.contains(.writable), let event = server.flush(id) { report(event); return }
        let readable: PollEvents = [.readable, .hangup, .error, .peerClosed]
        if !ready.isDisjoint(with: readable), !scheduler.isWaiting(id) {
            var received: [UInt8] = []
            let event = server.receive(from: id, into: &received, limit: scheduler.limits.bytesPerRead)
            if !received.isEmpty, clients[id] != nil { scheduler.received(received, from: id, now: clock.now()) }
            if let event { report(event); return }
        }
        updateInterest(id)
    }

    /// This wakeup's request lines (`RequestScheduler.turns`), each client's in order, for the
    /// loop to hand to `ClientRequests`. A client past its budget is disconnected instead; a
    /// client served all its lines is read again (or forgotten, when it has gone).
    func serveRequests() -> [Requests] {
        guard scheduler.hasWaiting else { return [] }
        var served: [Requests] = []
        for turn in scheduler.turns(now: clock.now()) {
            let id = turn.client
            guard let state = clients[id] else { scheduler.remove(id); continue }
            if turn.overBudget {
                let who = ConnectionLog.key(uid: state.peer?.uid)
                let limits = scheduler.limits
                Log.limited(.warning, key: "\(who) request budget",
                            "\(id) (\(who)): sent requests past its budget (\(limits.burst / 1024) KiB at once, "
                            + "\(limits.rate / 1024) KiB/s, \(RequestLimits.lineCost) bytes a line "
                            + "more), disconnected")
                scheduler.remove(id)
                if server.disconnect(id) { dropped(id) } else { clients[id] = nil }
                continue
            }
            served.append(Requests(client: id, peer: state.peer, subscription: state.subscription, items: turn.items))
        }
        for requests in served where !scheduler.isWaiting(requests.client) {
            if clients[requests.client]?.connected == false {
                clients[requests.client] = nil
                scheduler.remove(requests.client)
            } else {
                updateInterest(requests.client)
            }
        }
        return served
    }
}
