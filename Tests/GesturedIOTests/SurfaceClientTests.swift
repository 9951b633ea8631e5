import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `gestured-surface` (Sources/gestured-surface, gestured(8) GESTURED-SURFACE) where no compositor
/// runs: the failures it must report. What it prints under a compositor is proven in the kernel
/// guest (CancelProbeVMTests).
@Suite struct SurfaceClientTests {
    static let surface = TestEnvironment.buildDirectory + "/gestured-surface"

    @Test func noDisplayIsExit1WithTheReason() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        let result = try Subprocess.run(Self.surface, [], environment: ["XDG_RUNTIME_DIR": directory.path, "WAYLAND_DISPLAY": "wayland-none"],
                                        in: directory.path, deadline: deadline(milliseconds: 10_000))
        #expect(result.termination == .exited(1))
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "gestured-surface: cannot connect to the Wayland display wayland-none "
                + "(XDG_RUNTIME_DIR=\(directory.path)): No such file or directory\n")
    }

    @Test func aBadCrosshairIsAUsageError() throws {
        let directory = try TestEnvironment.TemporaryDirectory()
        for arguments in [["--crosshair"], ["--crosshair", "0.5"], ["--crosshair", "1.5,0.5"], ["--crosshair", "0.5,x"], ["--size"]] {
            let result = try Subprocess.run(Self.surface, arguments, in: directory.path, deadline: deadline(milliseconds: 10_000))
            #expect(result.termination == .exited(2), "\(arguments)")
            #expect(result.stderr.hasSuffix("usage: gestured-surface [--crosshair FX,FY]   (fractions from 0 to 1)\n"), "\(arguments)")
        }
    }
}
