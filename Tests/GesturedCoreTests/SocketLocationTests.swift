import GesturedCore
import Testing

/// Where clients look for the daemon (security review 3, finding 6): the installed service's
/// socket before the per-user one, as root or not; every path tried named when none answers.
@Suite struct SocketLocationTests {
    static func resolve(option: String? = nil, _ environment: [String: String], systemExists: Bool) -> SocketLocation.Resolution {
        SocketLocation.resolve(option: option, environment: { environment[$0] }, exists: { $0 == SocketLocation.system && systemExists })
    }

    @Test func theOrder() {
        let user = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        // --socket, then $GESTURED_SOCKET: taken as given, nothing else looked at.
        #expect(Self.resolve(option: "/tmp/a.sock", user.merging(["GESTURED_SOCKET": "/tmp/b.sock"]) { $1 }, systemExists: true)
                == .init(path: "/tmp/a.sock", tried: [.option("/tmp/a.sock")]))
        #expect(Self.resolve(user.merging(["GESTURED_SOCKET": "/tmp/b.sock"]) { $1 }, systemExists: true)
                == .init(path: "/tmp/b.sock", tried: [.variable("/tmp/b.sock")]))
        // The service's socket when it exists, for a user with a runtime directory too.
        #expect(Self.resolve(user, systemExists: true) == .init(path: "/run/gestured/gestured.sock",
                                                                 tried: [.system("/run/gestured/gestured.sock")]))
        #expect(Self.resolve([:], systemExists: true).path == "/run/gestured/gestured.sock")
        // Else the user's own daemon; an empty variable is unset.
        #expect(Self.resolve(user.merging(["GESTURED_SOCKET": ""]) { $1 }, systemExists: false)
                == .init(path: "/run/user/1000/gestured.sock",
                         tried: [.system("/run/gestured/gestured.sock"), .runtime("/run/user/1000/gestured.sock")]))
        #expect(Self.resolve([:], systemExists: false) == .init(path: nil, tried: [.system("/run/gestured/gestured.sock")]))
    }

    @Test func aFailureNamesEveryPathTried() {
        let user = Self.resolve(["XDG_RUNTIME_DIR": "/tmp/x"], systemExists: false)
        #expect(user.failure("connect: No such file or directory (ENOENT)")
                == "cannot reach the daemon: /run/gestured/gestured.sock: does not exist; /tmp/x/gestured.sock ($XDG_RUNTIME_DIR): "
                + "connect: No such file or directory (ENOENT) (give the socket's path with --socket PATH or $GESTURED_SOCKET)")
        #expect(Self.resolve([:], systemExists: false).failure("")
                == "cannot reach the daemon: /run/gestured/gestured.sock: does not exist; $XDG_RUNTIME_DIR is not set "
                + "(give the socket's path with --socket PATH or $GESTURED_SOCKET)")
        #expect(Self.resolve([:], systemExists: true).failure("connect: Permission denied (EACCES)")
                == "cannot reach the daemon: /run/gestured/gestured.sock: connect: Permission denied (EACCES) "
                + "(give the socket's path with --socket PATH or $GESTURED_SOCKET)")
        #expect(Self.resolve(option: "/p", [:], systemExists: true).failure("connect: x") == "cannot reach the daemon: /p (--socket): connect: x")
    }
}

/// `gestured listen`'s start-up exchange and its reconnection waits (CONTRACT.md §7).
@Suite struct ListenSessionTests {
    /// The exchange is recognized by kind: a kiosk line before the answer is an event, not the
    /// answer; an `error` answering a request is a refusal; text or JSON.
    @Test func theHandshakeTakesTheAnswersNotTheFirstLines() {
        var handshake = ListenHandshake(requests: 2)
        let lines = ["hello version=1 daemon=gestured", "idle seconds=120 time=1.000000 seq=1", "ok command=subscribe",
                     "{\"event\":\"ok\",\"command\":\"format\"}", "ok command=ping"]
        #expect(!handshake.isGreeted)
        #expect(lines.map { handshake.classify($0[...]) } == [.exchange, .event, .exchange, .exchange, .event])
        #expect(handshake.isGreeted)
        #expect(handshake.isComplete)
        var refused = ListenHandshake(requests: 1)
        #expect(["{\"event\":\"hello\",\"version\":1}", "wake x=1", "error command=filter message=\"x\""].map { refused.classify($0[...]) }
                == [.exchange, .event, .refused])
        var none = ListenHandshake(requests: 0)
        #expect(none.classify("hello version=1") == .exchange && none.isComplete && none.classify("hello again") == .event)
    }

    @Test func theBackoffDoublesFromATenthToFiveSeconds() {
        var backoff = ReconnectBackoff()
        let delays = (0..<9).map { _ in backoff.delay().microseconds / 1000 }
        #expect(delays == [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000])
        backoff.reset()
        #expect(backoff.delay() == .milliseconds(100))
    }
}
