import CLinux
import Glibc

/// Who is at the other end of a Unix socket, as the kernel recorded it at `connect(2)`
/// (`SO_PEERCRED`, and `SO_PEERGROUPS` for the supplementary groups): not what the peer claims.
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// The primary group first, then the supplementary ones (empty of those when the kernel
    /// predates `SO_PEERGROUPS`, Linux 4.13).
    public var groups: [UInt32]

    public var description: String { "uid \(uid), gid \(gid), pid \(pid)" }

    /// Asks the kernel about a connected socket's peer.
    public static func of(_ descriptor: FileDescriptor) throws(SystemError) -> PeerCredentials {
        var credentials = gestured_ucred()
        var length = socklen_t(MemoryLayout<gestured_ucred>.size)
        try syscall("getsockopt(SO_PEERCRED)", onInterrupt: .retry) {
            getsockopt(descriptor.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
        }
        var result = PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid,
                                     groups: [credentials.gid])
        var groups = [gid_t](repeating: 0, count: 64)
        var bytes = socklen_t(groups.count * MemoryLayout<gid_t>.size)
        func peerGroups() throws(SystemError) {
            try syscall("getsockopt(SO_PEERGROUPS)", onInterrupt: .retry) {
                getsockopt(descriptor.rawValue, SOL_SOCKET, SO_PEERGROUPS, &groups, &bytes)
            }
        }
        var known: Bool
        do {
            try peerGroups()
            known = true
        } catch where error.errno == .outOfRange {
            // The peer has more groups than fit: the kernel said how many bytes it needs.
            groups = [gid_t](repeating: 0, count: Int(bytes) / MemoryLayout<gid_t>.size)
            known = (try? peerGroups()) != nil
        } catch {
            known = false   // the primary group alone, as before the kernel had SO_PEERGROUPS
        }
        if known {
            for gid in groups.prefix(Int(bytes) / MemoryLayout<gid_t>.size) where !result.groups.contains(gid) {
                result.groups.append(gid)
            }
        }
        return result
    }
}
