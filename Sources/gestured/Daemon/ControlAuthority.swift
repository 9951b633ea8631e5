import GesturedCore
import GesturedIO
import Glibc

/// Decides which socket peers may send control requests (`hide`, `layout`, `rotate`…): root, the
/// daemon's own user, and the uids and groups of the configuration's `control` key. Everyone who
/// may connect to the socket (its mode and group) may listen.
struct ControlAuthority {
    let uids: [UInt32]
    let groupIDs: [UInt32]
    let daemonUID = UInt32(geteuid())

    /// Resolves group names now; an unknown group is logged and ignored (it can authorize nobody).
    init(_ policy: ControlPolicy) {
        uids = policy.uids
        var ids: [UInt32] = []
        for group in policy.groups {
            switch group {
            case .id(let gid): ids.append(gid)
            case .name(let name):
                if let entry = getgrnam(name) { ids.append(entry.pointee.gr_gid) } else {
                    Log.warning("control: no group named \(name), ignoring it")
                }
            }
        }
        groupIDs = ids
    }

    func allows(_ peer: PeerCredentials?) -> Bool {
        guard let peer else { return false }
        return ControlPolicy.allows(uid: peer.uid, peerGroups: peer.groups, daemonUID: daemonUID, uids: uids,
                                    groupIDs: groupIDs)
    }
}
