import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// docs/KIOSK.md's hook, `docs/kiosk/kiosk-hook.sh`, run by `gestured listen --exec` as the
/// recipe runs it, on the kiosk lines the daemon sends (the lines come from a relay the test
/// writes, as in ListenExecTests; that the daemon sends them at the thresholds is
/// KioskIdleTests'). `wtype`, `wlopm` and `gestured` are stand-ins on PATH that record the
/// arguments they were given.
@Suite struct KioskRecipeTests {
    static let hook = TestEnvironment.packageRoot + "/docs/kiosk/kiosk-hook.sh"

    /// Runs `listen --exec hook` on `lines` (at most two: one runs, one waits, none replaced)
    /// and returns what the stand-ins recorded.
    static func recorded(_ lines: [String], in directory: TestEnvironment.TemporaryDirectory) throws -> [String] {
        let dir = directory.path
        let log = dir + "/calls"
        mkdir(dir + "/bin", 0o755)
        for tool in ["wtype", "wlopm", "gestured"] {
            let path = try directory.write("bin/\(tool)", "#!/bin/sh\necho \"\(tool) $*\" >> \(log)\n")
            #expect(chmod(path, 0o755) == 0)
        }
        unlink(log)
        unlink(dir + "/relay.sock")
        unlink(dir + "/listen.err")
        var started: Subprocess?
        let downstream = try LineClient.acceptFirst(at: dir + "/relay.sock", deadline: deadline(milliseconds: 10_000)) {
            started = try Subprocess(TestEnvironment.buildDirectory + "/gestured",
                                     ["listen", "--socket", dir + "/relay.sock", "--exec", hook],
                                     environment: ["PATH": dir + "/bin:/usr/bin:/bin"],
                                     stdout: .file(dir + "/listen.out"), stderr: .file(dir + "/listen.err"))
        }
        let listen = try #require(started)
        try downstream.send(line: "hello version=1 daemon=gestured")
        for line in lines { try downstream.send(line: line) }
        #expect(shutdown(downstream.descriptor.rawValue, Int32(SHUT_WR)) == 0)
        // Every line handled (listen now looks for the daemon again); SIGTERM ends it once the
        // hook has run for them.
        #expect(TestEnvironment.waitForText("lost the daemon", inFile: dir + "/listen.err", deadline: deadline(milliseconds: 10_000)))
        listen.send(signal: SIGTERM)
        let (termination, timedOut) = try #require(try listen.wait(deadline: deadline(milliseconds: 10_000)))
        #expect(!timedOut && termination == .exited(0), "\((try? readTextFile(path: dir + "/listen.err")) ?? "")")
        return ((try? readTextFile(path: log)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func idleAtTwoMinutesGoesHomeAtTenTurnsTheScreenOffAndAWakeTurnsItOn() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-hook")
        #expect(try Self.recorded(["idle seconds=120 time=120.000000 seq=2"], in: directory) == ["wtype -M alt -k Home -m alt"])
        #expect(try Self.recorded(["idle seconds=600 time=600.000000 seq=3"], in: directory)
                == ["wlopm --off *", "gestured ctl screen off"])
        #expect(try Self.recorded(["active time=700.000000 seq=4", "wake device=event5 x=412.00 y=233.50 time=700.000000 seq=5"],
                                  in: directory) == ["wlopm --on *"])
        // Gesture lines and the lock's lines leave the hook idle.
        #expect(try Self.recorded(["gesture tap ended tap view=root device=event5 time=1.000000 seq=6 touches=1 x=1.00 y=1.00 viewX=1.00 viewY=1.00 taps=1",
                                   "lock seconds=30 time=2.000000 seq=7"], in: directory) == [])
    }
}
