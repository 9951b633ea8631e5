import GesturedCore
import GesturedDoctor
import GesturedIO
import Glibc

/// The facts `SurfaceLaunch.plan` decides on (the caller's rights, its environment, this
/// executable's folder, the Wayland socket's owner), read here, and the launch carried out:
/// `doctor --probe-cancel` and `calibrate` start `gestured-surface` only through this.
enum SurfaceShell {
    /// - Parameter searchPath: whether `PATH` is looked at (calibrate; never as root).
    static func plan(searchPath: Bool) -> Result<SurfaceLaunch, SurfaceLaunch.Refusal> {
        var environment: [String: String] = [:]
        for name in ["WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "PATH"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return SurfaceLaunch.plan(uid: geteuid(), environment: environment, executableDirectory: executableDirectory(),
                                  searchPath: searchPath, socketOwner: SurfaceLaunch.socketPath(environment).flatMap(owner(ofSocket:)),
                                  isExecutable: isExecutable)
    }

    /// The owner of the socket at `path` (not followed: a link in the session user's folder is
    /// not its socket), nil when it is none.
    static func owner(ofSocket path: String) -> SurfaceLaunch.Account? {
        var status = stat()
        guard (try? GesturedIO.syscall("lstat", path: path, onInterrupt: .retry, { lstat(path, &status) })) != nil,
              status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return SurfaceLaunch.Account(uid: status.st_uid, gid: status.st_gid)
    }

    /// The folder of this process's executable.
    static func executableDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard let count = try? GesturedIO.syscall("readlink", path: "/proc/self/exe", onInterrupt: .retry, {
            readlink("/proc/self/exe", &buffer, buffer.count - 1)
        }) else { return "" }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }

    static func isExecutable(_ path: String) -> Bool {
        var status = stat()
        guard (try? GesturedIO.syscall("stat", path: path, onInterrupt: .retry, { stat(path, &status) })) != nil else { return false }
        return status.st_mode & S_IFMT == S_IFREG && isAccessible(path, X_OK)
    }

    /// Starts `launch` with `arguments` after its executable.
    static func start(_ launch: SurfaceLaunch, arguments: [String] = [], stdin: FileDescriptor?, stdout: FileDescriptor?,
                      stderr: FileDescriptor? = nil) throws(SystemError) -> ChildProcess {
        try ChildProcess([launch.executable] + arguments, environment: launch.environment ?? ChildProcess.environment(adding: []),
                         stdin: stdin, stdout: stdout, stderr: stderr, account: launch.account.map { ($0.uid, $0.gid) })
    }
}
