import GesturedCore
import GesturedIO
import Glibc

/// The rights of socket peers (`RightsPolicy`, the decision): the configuration's `control` and
/// `permissions` with their group names resolved now, and the daemon's own uid. Everyone who may
/// connect to the socket (its mode and group) may listen.
struct ControlAuthority {
    let policy: RightsPolicy

    /// Resolves group names now; an unknown group is logged and ignored (it can authorize nobody).
    init(_ configuration: Configuration) {
        policy = RightsPolicy(control: configuration.control, permissions: configuration.permissions,
                              daemonUID: UInt32(geteuid()), groupID: { getgrnam($0)?.pointee.gr_gid })
        for unknown in policy.unknownGroups { Log.warning("\(unknown), ignoring it") }
    }

    func rights(of peer: PeerCredentials?) -> Set<Right> {
        guard let peer else { return [] }
        return policy.rights(uid: peer.uid, groups: peer.groups)
    }
}
