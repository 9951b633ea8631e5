import GesturedCore
import GesturedIO
import Glibc

/// The daemon's listening socket: the one the service manager passed (socket activation), or
/// one it creates itself.
enum ListeningSocket {
    /// Serves on the socket passed through `LISTEN_FDS`/`LISTEN_PID` when there is one (it
    /// must be a single listening Unix stream socket), else binds `path` with the settings' mode
    /// and, when the group exists and this process may give files to it, their group (by default
    /// `gestured`, which `make install` creates with sysusers.d or groupadd: touch positions can
    /// reveal what is typed on an on-screen keyboard, so not everyone may read them). The
    /// per-client queue limit applies either way; the server holds at most the connection
    /// policy's hard limit, and `ClientHub` decides who gets one (`ConnectionPolicy`).
    static func open(path: String, settings: SocketSettings) throws(SocketServerError) -> UnixSocketServer {
        let passed: [SocketActivation.Passed]
        do { passed = try SocketActivation.takeFromEnvironment() } catch { throw .activation(error) }
        if !passed.isEmpty {
            guard passed.count == 1 else {
                for item in passed { try? item.descriptor.close() }
                throw .activation(.wrongCount(passed.count))
            }
            let bound: String
            do { bound = try SocketActivation.validateListeningUnixStream(passed[0].descriptor) } catch {
                throw .activation(error)
            }
            if bound != path {
                Log.warning("the service manager passed a socket bound to \(bound.isEmpty ? "no path" : bound), not \(path); serving on it")
            }
            Log.info("using the socket passed by the service manager (\(bound))")
            return try UnixSocketServer(adopting: passed[0].descriptor, path: bound.isEmpty ? path : bound,
                                        maxQueuedBytes: settings.maximumQueuedBytes, maxClients: settings.connectionPolicy.hardLimit)
        }
        var group: gid_t?
        if let name = settings.group {
            group = usableGroup(named: name)
            if group == nil {
                let message = "socket group \(name) absent or not ours; the socket keeps this process's group"
                if name == SocketSettings.defaultGroup { Log.debug(message) } else { Log.warning(message) }
            }
        }
        return try UnixSocketServer(path: path, maxQueuedBytes: settings.maximumQueuedBytes,
                                    maxClients: settings.connectionPolicy.hardLimit, permissions: mode_t(settings.mode), group: group)
    }

    /// The group's id when it exists and this process may `chown` a file to it: as root, or as
    /// a member.
    private static func usableGroup(named name: String) -> gid_t? {
        guard let entry = getgrnam(name) else { return nil }
        let gid = entry.pointee.gr_gid
        if geteuid() == 0 || getegid() == gid { return gid }
        let count = getgroups(0, nil)
        guard count > 0 else { return nil }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let filled = getgroups(count, &groups)
        return filled > 0 && groups.prefix(Int(filled)).contains(gid) ? gid : nil
    }
}

/// Where the daemon (`gestured run`) makes its socket when `--socket` is not given:
/// `/run/gestured/gestured.sock` for root, `$XDG_RUNTIME_DIR/gestured.sock` for anyone else.
/// Clients look for it otherwise (`ClientSocket`).
func defaultSocketPath() throws(CommandFailure) -> String {
    if getuid() == 0 { return SocketLocation.system }
    guard let dir = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !dir.isEmpty else {
        throw CommandFailure(ExitStatus.failure, "XDG_RUNTIME_DIR is not set: give the socket's path with --socket PATH")
    }
    return dir + "/gestured.sock"
}
