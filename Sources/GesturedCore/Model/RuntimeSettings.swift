/// The parts of the configuration that concern the socket and its clients rather than touches:
/// named layouts that control requests switch between, who may control, the socket's limits, and
/// the commands gestures run (docs/CONFIG.md).

/// A named set of view changes, applied together by the `layout NAME` request. Views a layout
/// does not name keep their current state; a key a layout leaves out keeps its current value.
public struct Layout: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        /// A view id of the configuration.
        public var view: String
        /// In the order flags, then frame.
        public var changes: [ViewTree.Change]
        public init(view: String, changes: [ViewTree.Change]) { self.view = view; self.changes = changes }
    }

    /// Sorted by view id, so that a layout applies the same way every time.
    public var entries: [Entry]
    public init(entries: [Entry] = []) { self.entries = entries }
}

/// uids and groups: `control`'s, which hold every right, or one entry of `permissions`, which
/// hold one (`RightsPolicy` decides from them). Root and the daemon's own user hold every right;
/// everyone who may connect to the socket may listen.
public struct ControlPolicy: Hashable, Sendable {
    /// A group, by name (resolved when the daemon starts) or by number.
    public enum Group: Hashable, Sendable {
        case name(String)
        case id(UInt32)
    }

    public var uids: [UInt32]
    public var groups: [Group]

    public init(uids: [UInt32] = [], groups: [Group] = []) { self.uids = uids; self.groups = groups }
}

/// The listening socket's file mode and group and its limits on clients.
public struct SocketSettings: Hashable, Sendable {
    /// Owner and group read and write (connecting needs write); nobody else: touch positions can
    /// reveal what is typed on an on-screen keyboard.
    public static let defaultMode: UInt32 = 0o660
    /// The dedicated group the install step creates.
    public static let defaultGroup = "gestured"
    public static let defaultMaximumClients = 64
    /// The most clients a configuration may allow: each costs a descriptor and a queue
    /// (gestured.service's LimitNOFILE has room for them).
    public static let maximumClientsLimit = 1024
    /// A quarter of the default `maximumClients`: one user (a script gone wrong, or someone
    /// holding connections open on purpose) cannot take them all; peers that may control are
    /// exempt and have their own reserve (`ConnectionPolicy`). D-Bus caps connections per user
    /// the same way (`max_connections_per_user`).
    public static let defaultMaximumClientsPerUser = 16
    /// Per client: about a thousand gesture lines, several seconds of a busy stream.
    public static let defaultMaximumQueuedBytes = 256 << 10
    /// How long a client may leave what it was sent unread (`StallWatch`): long enough for a
    /// script busy with a slow command, short enough that connections that never read (which
    /// only hold a slot) do not pile up.
    public static let defaultReadTimeout = Interval(seconds: 30)

    public var mode: UInt32 = SocketSettings.defaultMode
    /// nil: the socket keeps the daemon's group.
    public var group: String? = SocketSettings.defaultGroup
    public var maximumClients = SocketSettings.defaultMaximumClients
    public var maximumClientsPerUser = SocketSettings.defaultMaximumClientsPerUser
    public var maximumQueuedBytes = SocketSettings.defaultMaximumQueuedBytes
    /// nil: a client may leave its lines unread forever (only its queue's limit applies).
    public var readTimeout: Interval? = SocketSettings.defaultReadTimeout

    /// Who may hold a connection, from these settings.
    public var connectionPolicy: ConnectionPolicy {
        ConnectionPolicy(maximumClients: maximumClients, maximumPerUser: min(maximumClientsPerUser, maximumClients))
    }

    public init() {}
}

/// A command a gesture runs when it reaches a state, executed by the daemon without a shell.
public struct GestureAction: Hashable, Sendable {
    /// How long a command may run before it gets SIGTERM, by default.
    public static let defaultTimeout = Interval(seconds: 10)
    /// After SIGTERM, how long before SIGKILL.
    public static let killGrace = Interval(seconds: 2)

    public var state: GestureState
    /// argv; `run[0]` is looked up in `PATH` when it has no slash. Empty for an input action.
    public var run: [String]
    public var timeout: Interval
    /// Input the gesture sends instead of running a command (`input`); nil for a command.
    public var input: InputAction?

    public init(state: GestureState = .ended, run: [String], timeout: Interval = GestureAction.defaultTimeout) {
        self.state = state; self.run = run; self.timeout = timeout
    }

    /// An action that sends input (`action: { on: …, input: { … } }`).
    public init(state: GestureState = .ended, input: InputAction) {
        self.state = state; self.run = []; self.timeout = GestureAction.defaultTimeout; self.input = input
    }

    /// Whether an event in `state` reaches the action: its one state, or for a scroll every
    /// state of the gesture (it follows the translation from began to the end).
    public func fires(on state: GestureState) -> Bool {
        if let input, input.followsGesture {
            switch state {
            case .began, .changed, .ended, .cancelled: return true
            case .failed: return false
            }
        }
        return state == self.state
    }
}
