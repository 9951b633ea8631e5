/// What a socket peer may do beyond listening (docs/CONFIG.md, "Rights"): one right per kind of
/// request, so that a kiosk hook that only reports the screen's power cannot also lock every
/// panel or rotate them, and so that touch positions (which reveal what is typed on an
/// on-screen keyboard) go only to whom the configuration names.
public enum Right: String, Hashable, Sendable, CaseIterable, Comparable {
    /// `show`, `hide`, `enable`, `disable`, `frame`, `layout`, `rotate`.
    case views
    /// `screen on|off`.
    case screen
    /// `lock`, `unlock`.
    case lock
    /// `subscribe touches`, `subscribe trace`.
    case touches

    public static func < (a: Right, b: Right) -> Bool { a.order < b.order }

    /// The order of the cases: how lists of rights are written.
    private var order: Int {
        switch self {
        case .views: 0
        case .screen: 1
        case .lock: 2
        case .touches: 3
        }
    }

    /// The answer's message when a peer without this right sends `command`: it names the right
    /// and the configuration keys that grant it.
    public func refusal(command: String, uid: UInt32?) -> String {
        "\(command) needs the \(rawValue) right, which uid \(uid.map(String.init) ?? "unknown") does not hold: "
            + "root, the daemon's user and the configuration's control or permissions.\(rawValue) uids and groups hold it"
    }
}

extension ControlRequest {
    /// The right a peer needs to send this request.
    public var right: Right {
        switch self {
        case .view, .layout, .rotate: .views
        case .screenPower: .screen
        case .lock, .unlock: .lock
        }
    }
}

extension ClientRequest {
    /// The right a peer needs to send this request; nil when anyone who may connect may send it.
    /// Unsubscribing needs none: it only ever gives something up.
    public var right: Right? {
        switch self {
        case .control(let request): request.right
        case .subscribe(.touches), .subscribe(.trace): .touches
        case .subscribe(.failed), .unsubscribe, .format, .filter, .ping, .stats: nil
        }
    }

    /// How a refusal names the request: its verb, and a subscription's stream.
    public var refusalName: String {
        if case .subscribe(let stream) = self { "subscribe \(stream.rawValue)" } else { command }
    }
}

/// Who holds which rights, with group names already resolved: the decision from a peer's
/// credentials to its rights, as data (`rights(uid:groups:)`), so it is tested without a socket.
///
/// Root and the daemon's own user hold every right; `control`'s members too; each entry of
/// `permissions` adds its one right to its members. A peer whose credentials are unknown holds
/// none.
public struct RightsPolicy: Hashable, Sendable {
    /// uids and group ids, resolved.
    public struct Members: Hashable, Sendable {
        public var uids: [UInt32]
        public var groupIDs: [UInt32]
        public init(uids: [UInt32] = [], groupIDs: [UInt32] = []) { self.uids = uids; self.groupIDs = groupIDs }

        /// `groups`: the peer's primary and supplementary groups.
        public func include(uid: UInt32, groups: [UInt32]) -> Bool {
            uids.contains(uid) || groups.contains(where: groupIDs.contains)
        }
    }

    public var daemonUID: UInt32
    /// `control`: every right.
    public var everything: Members
    /// `permissions`: one right each.
    public var single: [Right: Members]

    public init(daemonUID: UInt32, everything: Members = Members(), single: [Right: Members] = [:]) {
        self.daemonUID = daemonUID; self.everything = everything; self.single = single
    }

    /// Resolves the configuration's `control` and `permissions` with `groupID` (the shell's
    /// `getgrnam`); `unknownGroups` lists each name it could not resolve, with the key it is
    /// under (such a name grants nothing).
    public init(control: ControlPolicy, permissions: [Right: ControlPolicy], daemonUID: UInt32,
                groupID: (String) -> UInt32?) {
        var unknown: [(key: String, group: String)] = []
        func members(_ policy: ControlPolicy, key: String) -> Members {
            var ids: [UInt32] = []
            for group in policy.groups {
                switch group {
                case .id(let gid): ids.append(gid)
                case .name(let name):
                    if let gid = groupID(name) { ids.append(gid) } else { unknown.append((key, name)) }
                }
            }
            return Members(uids: policy.uids, groupIDs: ids)
        }
        self.daemonUID = daemonUID
        everything = members(control, key: "control")
        var single: [Right: Members] = [:]
        for right in Right.allCases {
            if let policy = permissions[right] { single[right] = members(policy, key: "permissions.\(right.rawValue)") }
        }
        self.single = single
        unknownGroups = unknown.map { "\($0.key): no group named \($0.group)" }
    }

    /// What `init(control:permissions:daemonUID:groupID:)` could not resolve, for the log.
    public var unknownGroups: [String] = []

    /// The rights of a peer with these credentials; `groups` are its primary and supplementary
    /// groups (`SO_PEERGROUPS`). nil `uid`: the kernel would not say, so no right.
    public func rights(uid: UInt32?, groups: [UInt32]) -> Set<Right> {
        guard let uid else { return [] }
        if uid == 0 || uid == daemonUID || everything.include(uid: uid, groups: groups) { return Set(Right.allCases) }
        return Set(single.compactMap { $0.value.include(uid: uid, groups: groups) ? $0.key : nil })
    }

    /// Whether a peer with these rights may send some control request: such peers have
    /// connections kept for them (`ConnectionPolicy`). `touches` alone only listens.
    public static func mayControl(_ rights: Set<Right>) -> Bool {
        rights.contains(.views) || rights.contains(.screen) || rights.contains(.lock)
    }
}
