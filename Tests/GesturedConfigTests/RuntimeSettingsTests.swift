import Testing
import GesturedConfig
import GesturedCore

/// `layouts`, `control`, `socket` and gesture `action`: what they become, and their diagnostics.
@Suite struct RuntimeSettingsTests {
    static let views = """
        views: [{ id: "root", gestures: [{ id: "t", type: "tap" }], subviews: [{ id: "button" }, { id: "map" }] }]
        """

    @Test func layoutsControlAndSocket() throws {
        let configuration = try #require(parsed("""
            { \(Self.views),
              layouts: {
                night: { map: { isHidden: true }, button: { frame: [0, 0, 10, 10], isUserInteractionEnabled: false } },
                day: {},
              },
              control: { uids: [1000], groups: ["kiosk", 1001] },
              socket: { mode: "0600", group: null, maxClients: 8, maxClientsPerUser: 2, maxQueuedBytes: 65536, readTimeout: 0 },
            }
            """))
        #expect(configuration.layouts == [
            "night": Layout(entries: [
                .init(view: "button", changes: [.userInteractionEnabled(false), .frame(Rect(x: 0, y: 0, width: 10, height: 10))]),
                .init(view: "map", changes: [.hidden(true)]),
            ]),
            "day": Layout(),
        ])
        #expect(configuration.control == ControlPolicy(uids: [1000], groups: [.name("kiosk"), .id(1001)]))
        var socket = SocketSettings()
        socket.mode = 0o600; socket.group = nil; socket.maximumClients = 8; socket.maximumQueuedBytes = 65536
        socket.maximumClientsPerUser = 2; socket.readTimeout = nil
        #expect(configuration.socket == socket)
        #expect(configuration.socket.connectionPolicy == ConnectionPolicy(maximumClients: 8, maximumPerUser: 2))
    }

    /// `permissions`: one right per key, each taking what `control` takes (finding 5 of the
    /// third security review).
    @Test func permissions() throws {
        let configuration = try #require(parsed("""
            { \(Self.views),
              control: { uids: [0] },
              permissions: { screen: { uids: [1000] }, lock: { groups: ["cleaning", 1002] }, views: { uids: [] }, touches: null },
            }
            """))
        #expect(configuration.permissions == [.screen: ControlPolicy(uids: [1000]),
                                              .lock: ControlPolicy(groups: [.name("cleaning"), .id(1002)]),
                                              .views: ControlPolicy()])
        #expect(try #require(parsed("{ \(Self.views) }")).permissions.isEmpty)
    }

    /// An unknown right is an error at its key, with the rights and the nearest one; a bad uid
    /// or group, and a key `control` does not know, as under `control`.
    @Test func permissionsDiagnostics() {
        #expect(GesturedConfigTests.diagnostics("""
            { \(Self.views),
              permissions: { scren: { uids: [1000] }, lock: { uids: [-1, 4294967295], groups: [true] },
                             touches: { uid: [1] }, everything: {}, views: [] },
            }
            """) == [
            "test.json5:2:18: permissions.scren: unknown key \"scren\": not a right (views, screen, lock, touches); did you mean \"screen\"?",
            "test.json5:2:58: permissions.lock.uids[0]: must be at least 0, found -1",
            "test.json5:2:62: permissions.lock.uids[1]: must be a uid below 4294967295, found 4294967295",
            "test.json5:2:84: permissions.lock.groups[0]: expected a string, found a boolean",
            "test.json5:3:29: permissions.touches.uid: unknown key \"uid\"; did you mean \"uids\"?",
            "test.json5:3:41: permissions.everything: unknown key \"everything\": not a right (views, screen, lock, touches)",
            "test.json5:3:64: permissions.views: expected an object, found an array",
        ])
    }

    @Test func defaults() throws {
        let configuration = try #require(parsed("{ \(Self.views) }"))
        #expect(configuration.layouts.isEmpty && configuration.control == ControlPolicy())
        #expect(configuration.socket.mode == 0o660 && configuration.socket.group == "gestured")
        #expect(configuration.socket.maximumClients == 64 && configuration.socket.maximumQueuedBytes == 262144)
        #expect(configuration.socket.maximumClientsPerUser == 16 && configuration.socket.readTimeout == Interval(seconds: 30))
        #expect(configuration.views[0].gestures[0].action == nil)
    }

    /// The per-user cap is clamped to maxClients when it exceeds it (a cap above the total
    /// means none); a negative read timeout is an error, 0 turns it off.
    @Test func connectionLimits() throws {
        let clamped = try #require(parsed("{ \(Self.views), socket: { maxClients: 4, maxClientsPerUser: 10 } }"))
        #expect(clamped.socket.connectionPolicy == ConnectionPolicy(maximumClients: 4, maximumPerUser: 4))
        #expect(GesturedConfigTests.diagnostics("""
            { \(Self.views), socket: { maxClientsPerUser: 0, readTimeout: -1 } }
            """).map { String($0.drop { $0 != " " }.dropFirst()) } == [
            "socket.maxClientsPerUser: must be at least 1, found 0",
            "socket.readTimeout: must be between 0 and 86400, found -1",
        ])
    }

    @Test func gestureAction() throws {
        let gestures = gestures("""
            { views: [{ id: "v", gestures: [
                { id: "a", type: "tap", action: { run: ["/bin/true"] } },
                { id: "b", type: "pan", action: { on: "began", run: ["systemctl", "restart", "kiosk"], timeout: 2.5 } },
            ] }] }
            """)
        #expect(gestures.map(\.action) == [
            GestureAction(state: .ended, run: ["/bin/true"], timeout: GestureAction.defaultTimeout),
            GestureAction(state: .began, run: ["systemctl", "restart", "kiosk"], timeout: Interval(seconds: 2.5)),
        ])
    }

    @Test func diagnostics() {
        #expect(GesturedConfigTests.diagnostics("""
            { \(Self.views),
              layouts: { night: { mapp: { isHidden: 1 } } },
              control: { uids: [-1], group: [] },
              socket: { mode: "660x", maxClients: 0, maxQueuedBytes: 100000000 },
            }
            """) == [
            "test.json5:2:23: layouts.night.mapp: no view has the id \"mapp\"; did you mean \"map\"?",
            "test.json5:2:41: layouts.night.mapp.isHidden: expected a boolean, found a number",
            "test.json5:3:21: control.uids[0]: must be at least 0, found -1",
            "test.json5:3:26: control.group: unknown key \"group\"; did you mean \"groups\"?",
            "test.json5:4:19: socket.mode: expected an octal mode such as \"0660\", found \"660x\"",
            "test.json5:4:39: socket.maxClients: must be at least 1, found 0",
            "test.json5:4:58: socket.maxQueuedBytes: must be at most 67108864 (64 MiB), found 100000000",
        ])
        #expect(GesturedConfigTests.diagnostics("""
            { views: [{ id: "v", gestures: [{ id: "a", type: "tap", action: { on: "done", run: [], timeout: 0 } }] }] }
            """) == [
            "test.json5:1:71: views[0].gestures[0].action.on: must be one of began, changed, ended, cancelled, failed, found \"done\"",
            "test.json5:1:84: views[0].gestures[0].action.run: must name a program: [\"/path/to/program\", arguments…]",
            "test.json5:1:97: views[0].gestures[0].action.timeout: must be greater than 0",
        ])
        #expect(GesturedConfigTests.diagnostics("""
            { \(Self.views), control: { uids: [4294967295], groups: [4294967295, -2] } }
            """) == [
            "test.json5:1:129: control.uids[0]: must be a uid below 4294967295, found 4294967295",
            "test.json5:1:151: control.groups[0]: must be a gid below 4294967295, found 4294967295",
            "test.json5:1:163: control.groups[1]: must be at least 0, found -2",
        ])
    }
}
