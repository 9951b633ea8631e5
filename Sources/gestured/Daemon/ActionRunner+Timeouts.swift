import GesturedCore
import GesturedIO
import Glibc

/// The actions' timer and the end of the loop: timeouts (SIGTERM, then SIGKILL, to the whole
/// process group), the looks at groups that outlive their leader, and stopping.
extension ActionRunner {
    /// The actions' timer fired: groups that outlived their leader are looked at again when
    /// due; at its timeout an action's group gets SIGTERM, and SIGKILL `GestureAction.killGrace`
    /// later if anything of it is still there.
    func timeouts(now: Instant) {
        _ = try? timer.acknowledge()
        armed = nil
        for key in running.keys.sorted() {
            guard var item = running[key] else { continue }
            let looked = item.deadline <= now || (item.recheck.map { $0 <= now } ?? false)
            if item.leaderStatus != nil, looked, item.child.groupIsEmpty { end(key, now: now); continue }
            if let recheck = item.recheck, recheck <= now {
                item.recheckInterval = min(Interval(microseconds: item.recheckInterval.microseconds * 2), Self.groupRecheck.longest)
                item.recheck = now + item.recheckInterval
            }
            if item.deadline <= now {
                if item.terminated {
                    Log.warning("action \(item.gesture) (pid \(item.child.pid)): still running \(GestureAction.killGrace.seconds) s after SIGTERM, sending SIGKILL")
                    item.child.signalGroup(SIGKILL)
                    item.killed = true
                } else {
                    Log.warning("action \(item.gesture) (pid \(item.child.pid)): timed out, sending SIGTERM")
                    item.child.signalGroup(SIGTERM)
                    item.terminated = true
                }
                item.deadline = now + GestureAction.killGrace
            }
            running[key] = item
            // SIGKILL cannot be refused: with the leader reaped, nothing of the group is left
            // but zombies for their reaper.
            if item.killed, item.leaderStatus != nil { end(key, now: now) }
        }
        armTimer()
    }

    func armTimer() {
        var next: Instant?
        for item in running.values {
            for d in [item.deadline, item.recheck] { if let d, next.map({ d < $0 }) ?? true { next = d } }
        }
        guard next != armed else { return }
        do { try timer.arm(at: next); armed = next } catch {
            Log.limited(.error, key: "action timer", "cannot arm the action timer: \(error)")
        }
    }

    /// Stopping: SIGTERM to every running action's group, a wait of at most
    /// `GestureAction.killGrace` for the leaders to exit, SIGKILL for the rest and for the
    /// groups still there then; each leader is reaped and its status logged, so none is left
    /// behind as an orphan. Blocking is fine here: the loop is over.
    func stop() {
        stopping = true
        guard !running.isEmpty else { return }
        for item in running.values { item.child.signalGroup(SIGTERM) }
        let limit = MonotonicClock.now() + GestureAction.killGrace
        while true {
            let keys = running.keys.sorted().filter { running[$0]!.leaderStatus == nil }
            if keys.isEmpty { break }
            var fds = keys.map { pollfd(fd: running[$0]!.child.pidfd.rawValue, events: Int16(POLLIN), revents: 0) }
            let remaining = (limit - MonotonicClock.now()).microseconds / 1000
            if remaining <= 0 { break }
            do { try pollOnce(&fds, timeout: Int32(remaining)) } catch {
                Log.warning("actions: poll: \(error); stopping them at once")
                break
            }
            for (key, fd) in zip(keys, fds) where fd.revents != 0 { reap(key, now: MonotonicClock.now()) }
        }
        // No event says when a group empties, and the loop is over: what is left is killed.
        for key in running.keys.sorted() {
            guard var item = running[key] else { continue }
            item.child.signalGroup(SIGKILL)
            item.killed = true
            running[key] = item
            if item.leaderStatus == nil { reap(key, now: MonotonicClock.now(), blocking: true) } else { end(key, now: MonotonicClock.now()) }
        }
    }
}
