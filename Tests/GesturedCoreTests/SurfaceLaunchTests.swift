import GesturedCore
import GesturedDoctor
import Testing

/// Issue #44 item 4: how `gestured-surface` is started (SurfaceLaunch), as data: which file, as
/// whom, with which environment, for root and for a user.
@Suite struct SurfaceLaunchTests {
    static let session = ["WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1000",
                          "PATH": "/home/kiosk/bin:/usr/bin", "LD_PRELOAD": "/home/kiosk/evil.so"]
    static let kiosk = SurfaceLaunch.Account(uid: 1000, gid: 1000)
    static let built = "/src/gestured/.build/debug"

    static func plan(uid: UInt32, _ environment: [String: String] = session, searchPath: Bool = true,
                     owner: SurfaceLaunch.Account? = kiosk, executable: Set<String>) -> Result<SurfaceLaunch, SurfaceLaunch.Refusal> {
        SurfaceLaunch.plan(uid: uid, environment: environment, executableDirectory: built, searchPath: searchPath,
                           socketOwner: owner, isExecutable: executable.contains)
    }

    /// As root, with a fake gestured-surface in the PATH the user gave: never that one; the one
    /// beside gestured, run as the socket's owner with WAYLAND_DISPLAY and XDG_RUNTIME_DIR alone.
    @Test func asRootTheSurfaceRunsAsTheSocketsOwnerAndNeverFromPATH() {
        let fake = "/home/kiosk/bin/gestured-surface", beside = Self.built + "/gestured-surface"
        #expect(Self.plan(uid: 0, executable: [fake, beside]) == .success(SurfaceLaunch(
            executable: beside, environment: ["WAYLAND_DISPLAY=wayland-1", "XDG_RUNTIME_DIR=/run/user/1000"], account: Self.kiosk)))
        // Only the fake: none found, PATH not among the places looked.
        let looked = [beside, Self.built + "/../libexec/gestured/gestured-surface", "/usr/libexec/gestured/gestured-surface"]
        #expect(Self.plan(uid: 0, executable: [fake]) == .failure(.noSurface(looked: looked)))
        // Installed: the package's path.
        let installed = "/usr/libexec/gestured/gestured-surface"
        #expect((try? Self.plan(uid: 0, executable: [fake, installed]).get())?.executable == installed)
        // A root compositor's socket: root, still with the minimal environment.
        let root = SurfaceLaunch.Account(uid: 0, gid: 0)
        #expect((try? Self.plan(uid: 0, owner: root, executable: [beside]).get())?.account == root)
    }

    @Test func asRootWithoutASocketTheSurfaceIsNotStarted() {
        let beside = Self.built + "/gestured-surface"
        #expect(Self.plan(uid: 0, owner: nil, executable: [beside]) == .failure(.noSocket("/run/user/1000/wayland-1")))
        #expect(Self.plan(uid: 0, ["WAYLAND_DISPLAY": "wayland-1"], owner: nil, executable: [beside]) == .failure(.noSocket(nil)))
        #expect(SurfaceLaunch.Refusal.noSocket("/run/user/1000/wayland-1").description
                == "as root, gestured-surface runs as the owner of the Wayland socket, and /run/user/1000/wayland-1 is no socket "
                + "(WAYLAND_DISPLAY and XDG_RUNTIME_DIR of the compositor's session)")
    }

    /// A user's surface runs as that user with the environment as it is; calibrate looks in PATH
    /// first (doctor never does).
    @Test func asAUserTheSurfaceRunsAsItIs() {
        let fake = "/home/kiosk/bin/gestured-surface", beside = Self.built + "/gestured-surface"
        #expect(Self.plan(uid: 1000, executable: [fake, beside]) == .success(SurfaceLaunch(executable: fake)))
        #expect(Self.plan(uid: 1000, searchPath: false, executable: [fake, beside]) == .success(SurfaceLaunch(executable: beside)))
        #expect(Self.plan(uid: 1000, owner: nil, executable: [beside]) == .success(SurfaceLaunch(executable: beside)))
    }

    @Test func theSocketIsWhereLibwaylandLooks() {
        #expect(SurfaceLaunch.socketPath(["WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1000"]) == "/run/user/1000/wayland-1")
        #expect(SurfaceLaunch.socketPath(["WAYLAND_DISPLAY": "/run/cage/wayland-0"]) == "/run/cage/wayland-0")
        #expect(SurfaceLaunch.socketPath(["WAYLAND_DISPLAY": "wayland-1"]) == nil)
        #expect(SurfaceLaunch.socketPath(["XDG_RUNTIME_DIR": "/run/user/1000"]) == nil)
    }
}
