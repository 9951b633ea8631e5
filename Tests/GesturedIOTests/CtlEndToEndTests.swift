import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `gestured ctl` against the daemon on the emulated touchscreen (umockdev): it prints the
/// answer and exits 0 on `ok`, 1 on `error`; the kiosk requests reach the core and their lines
/// every client; the touch that wakes a screen said to be off never becomes a gesture.
@Suite struct CtlEndToEndTests {
    static let gestured = TestEnvironment.buildDirectory + "/gestured"

    static func ctl(_ daemon: RunningDaemon, _ words: [String], prefix: [String] = []) throws -> Subprocess.Completed {
        let executable = prefix.isEmpty ? gestured : prefix[0]
        let arguments = prefix.isEmpty ? ["ctl", "--socket", daemon.socket] + words
                                       : Array(prefix.dropFirst()) + [gestured, "ctl", "--socket", daemon.socket] + words
        return try Subprocess.run(executable, arguments, in: daemon.directory.path, deadline: deadline(milliseconds: 10_000))
    }

    /// The next line of `client` that is not a gesture or touch line.
    static func nextKioskLine(_ client: LineClient) throws -> String? {
        while let line = try client.readLine(deadline: deadline(milliseconds: 5000)) {
            if !line.hasPrefix("gesture ") && !line.hasPrefix("touch ") { return line }
        }
        return nil
    }

    @Test func ctlPrintsTheAnswerAndExitsByIt() throws {
        guard let daemon = try RunningDaemon(config: EndToEndTests.tapConfig) else { return }
        let watcher = try daemon.connect()
        #expect(try watcher.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        let cases: [([String], Int32, String)] = [
            (["lock", "30"], 0, "ok command=lock\n"),
            (["unlock"], 0, "ok command=unlock\n"),
            (["lock", "-1"], 1, "error command=lock message=\"lock takes a whole number of seconds from 1 to 3600, found '-1'\"\n"),
            (["lock", "1e9"], 1, "error command=lock message=\"lock takes a whole number of seconds from 1 to 3600, found '1e9'\"\n"),
            (["lock", "5", "lobby"], 1, "error command=lock message=\"no screen 'lobby' (the configuration has no screens)\"\n"),
            (["screen", "dim"], 1, "error command=screen message=\"screen takes on or off, and optionally a screen id\"\n"),
            (["ping"], 0, "ok command=ping\n"),
        ]
        for (words, status, answer) in cases {
            let run = try Self.ctl(daemon, words)
            #expect(run.termination == .exited(status), "\(words): \(run.stderr)")
            #expect(run.stdout == answer, "\(words)")
            #expect(run.stderr == "", "\(words)")
        }
        let lock = try #require(try Self.nextKioskLine(watcher))
        #expect(lock.hasPrefix("lock seconds=30 time="), "\(lock)")
        let unlock = try #require(try Self.nextKioskLine(watcher))
        #expect(unlock.hasPrefix("unlock time="), "\(unlock)")
        // Unlocked: the tap is an ordinary one.
        try daemon.play()
        let tap = try #require(try daemon.firstLine(from: watcher, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended tap view=root "), "\(tap)")
        try daemon.stop(readingRestOf: [watcher])
        #expect(daemon.log.contains("(uid 0): lock 30"), "\(daemon.log)")
    }

    /// After `screen off`, the first tap wakes the screen: a `wake` line where it landed, and no
    /// gesture; the second tap is an ordinary one (the only gesture, where it landed). The panel
    /// (neither `grab` nor `passThrough`) is grabbed from `screen off` to the wake's lift, so the
    /// application reading it never sees the waking tap (umockdev lets every `EVIOCGRAB` succeed:
    /// here the log shows the shell carried the grab out; the kernel guest shows what it does).
    @Test func theWakeTouchNeverBecomesAGesture() throws {
        guard let daemon = try RunningDaemon(config: EndToEndTests.tapConfig) else { return }
        let watcher = try daemon.connect()
        #expect(try watcher.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        let off = try Self.ctl(daemon, ["screen", "off"])
        #expect(off.termination == .exited(0) && off.stdout == "ok command=screen\n", "\(off.stderr)")
        try daemon.play("synthetic-two-taps.events")
        let wake = try #require(try watcher.readLine(deadline: deadline(milliseconds: 10_000)))
        #expect(wake.hasPrefix("wake device=event7 x=100.") && wake.contains(" y=100."), "\(wake)\n\(daemon.log)")
        let next = try #require(try watcher.readLine(deadline: deadline(milliseconds: 10_000)))
        #expect(next.hasPrefix("gesture tap ended tap view=root device=event7 ") && next.contains(" x=900."), "\(next)")
        try daemon.stop(readingRestOf: [watcher])
        let grabbed = daemon.log.firstRange(of: "<6>event7: grabbed (EVIOCGRAB) until the claimed sequence ends\n")
        let letGo = daemon.log.firstRange(of: "<6>event7: let go after the claimed sequence\n")
        #expect(grabbed != nil && letGo != nil && grabbed!.lowerBound < letGo!.lowerBound, "\(daemon.log)")
    }

    /// A peer without control rights is refused by `ctl` with exit 1, and nothing changes: the
    /// watcher's next kiosk line is the authorized lock that follows.
    @Test func aPeerWithoutControlRightsIsRefused() throws {
        guard let setpriv = TestEnvironment.which("setpriv") else { Issue.record("setpriv is missing"); return }
        let config = #"{ socket: { mode: "0666" }, screen: {width: 1000, height: 1000}, views: [{id: "root"}] }"#
        guard let daemon = try RunningDaemon(config: config) else { return }
        #expect(chmod(daemon.directory.path, 0o755) == 0)
        let watcher = try daemon.connect()
        #expect(try watcher.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        let refused = try Self.ctl(daemon, ["lock", "5"], prefix: [setpriv, "--reuid", "65534", "--regid", "65534", "--clear-groups"])
        #expect(refused.termination == .exited(1), "\(refused.stderr)")
        #expect(refused.stdout == "error command=lock message=\"lock needs the lock right, which uid 65534 does not hold: root, the daemon's user and the configuration's control or permissions.lock uids and groups hold it\"\n")
        let allowed = try Self.ctl(daemon, ["lock", "7"])
        #expect(allowed.termination == .exited(0))
        let line = try #require(try Self.nextKioskLine(watcher))
        #expect(line.hasPrefix("lock seconds=7 "), "\(line)")
        try daemon.stop(readingRestOf: [watcher])
        #expect(daemon.log.contains("lock 5 refused, no lock right"), "\(daemon.log)")
    }

    @Test func noDaemonIsAFailureThatSaysWhere() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-ctl")
        let run = try Subprocess.run(Self.gestured, ["ctl", "--socket", directory.path + "/none.sock", "screen", "off"],
                                     in: directory.path, deadline: deadline(milliseconds: 10_000))
        #expect(run.termination == .exited(1))
        #expect(run.stdout == "")
        #expect(run.stderr == "cannot reach the daemon: \(directory.path)/none.sock (--socket): connect: No such file or directory\n", "\(run.stderr)")
    }
}
