/// How `gestured-surface` is started by `doctor --probe-cancel` and `calibrate`: which file,
/// as whom, with which environment. A plain value, so that a test reads the decision.
///
/// As root, the surface is started as the owner of the Wayland socket it connects to, with only
/// the two variables libwayland needs: the socket lives in the session user's
/// `XDG_RUNTIME_DIR`, which that user controls, and a compositor (or whatever listens there)
/// must not be talking to root's process. And as root nothing is looked up in `PATH`, which the
/// user who ran `sudo` may have set: the surface is the one beside this executable or where the
/// package installs it.
public struct SurfaceLaunch: Equatable, Sendable {
    public struct Account: Equatable, Sendable {
        public var uid: UInt32
        public var gid: UInt32
        public init(uid: UInt32, gid: UInt32) { self.uid = uid; self.gid = gid }
    }

    public var executable: String
    /// Exactly these `NAME=value` strings; nil: the caller's environment as it is.
    public var environment: [String]?
    /// The account it runs as (no supplementary groups); nil: the caller's.
    public var account: Account?

    public init(executable: String, environment: [String]? = nil, account: Account? = nil) {
        self.executable = executable; self.environment = environment; self.account = account
    }

    public static let name = "gestured-surface"
    /// Where the package installs it (debian/gestured.install; `make install`'s LIBEXECDIR for /usr).
    public static let installedDirectory = "/usr/libexec/gestured"

    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// As root: the Wayland socket (its path, when the environment names one) is no socket
        /// whose owner could be looked at.
        case noSocket(String?)
        /// No executable surface at any of these paths.
        case noSurface(looked: [String])

        public var description: String {
            switch self {
            case .noSocket(let path?):
                "as root, gestured-surface runs as the owner of the Wayland socket, and \(path) is no socket "
                    + "(WAYLAND_DISPLAY and XDG_RUNTIME_DIR of the compositor's session)"
            case .noSocket(nil):
                "as root, gestured-surface runs as the owner of the Wayland socket, and WAYLAND_DISPLAY and XDG_RUNTIME_DIR "
                    + "name none (give those of the compositor's session)"
            case .noSurface(let looked):
                "no \(SurfaceLaunch.name) (looked for \(looked.joined(separator: ", ")))"
            }
        }
    }

    /// The socket libwayland connects to: `WAYLAND_DISPLAY` when it is a path, else that name in
    /// `XDG_RUNTIME_DIR`; nil when they name none.
    public static func socketPath(_ environment: [String: String]) -> String? {
        guard let display = environment["WAYLAND_DISPLAY"], !display.isEmpty else { return nil }
        if display.hasPrefix("/") { return display }
        guard let directory = environment["XDG_RUNTIME_DIR"], directory.hasPrefix("/") else { return nil }
        return directory + "/" + display
    }

    /// Where the surface is looked for, in order: `PATH` first when `searchPath` and not root,
    /// then beside the executable (the build folder), in `../libexec/gestured/` from it (an
    /// install under a prefix), and in `installedDirectory`.
    public static func candidates(uid: UInt32, environment: [String: String], executableDirectory: String,
                                  searchPath: Bool) -> [String] {
        var directories: [String] = []
        if searchPath && uid != 0 {
            directories += (environment["PATH"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        if executableDirectory.hasPrefix("/") {
            directories += [executableDirectory, executableDirectory + "/../libexec/gestured"]
        }
        directories.append(installedDirectory)
        var seen = Set<String>()
        return directories.map { $0 + "/" + name }.filter { seen.insert($0).inserted }
    }

    /// The launch for a caller of `uid` with `environment`.
    /// - Parameters:
    ///   - executableDirectory: the folder of this process's executable (`/proc/self/exe`).
    ///   - searchPath: whether `PATH` is looked at (calibrate's habit; never as root).
    ///   - socketOwner: the owner of `socketPath(environment)` when it is a socket (lstat).
    ///   - isExecutable: whether a path is an executable file.
    public static func plan(uid: UInt32, environment: [String: String], executableDirectory: String, searchPath: Bool,
                            socketOwner: Account?, isExecutable: (String) -> Bool) -> Result<SurfaceLaunch, Refusal> {
        let looked = candidates(uid: uid, environment: environment, executableDirectory: executableDirectory, searchPath: searchPath)
        guard let found = looked.first(where: isExecutable) else { return .failure(.noSurface(looked: looked)) }
        guard uid == 0 else { return .success(SurfaceLaunch(executable: found)) }
        guard socketPath(environment) != nil, let owner = socketOwner else { return .failure(.noSocket(socketPath(environment))) }
        var minimal = ["WAYLAND_DISPLAY=" + (environment["WAYLAND_DISPLAY"] ?? "")]
        if let directory = environment["XDG_RUNTIME_DIR"] { minimal.append("XDG_RUNTIME_DIR=" + directory) }
        return .success(SurfaceLaunch(executable: found, environment: minimal, account: owner))
    }
}
