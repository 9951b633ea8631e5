import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The daemon started by a service manager on an invalid configuration, with the test playing
/// systemd's notification socket: it tells the first error (file, line:column, key path) as
/// `STATUS=`, which `systemctl status` keeps showing, never `READY=1`, and exits 78, which
/// gestured.service does not restart (RestartPreventExitStatus=78). The systemd guest checks the
/// same under systemd itself.
@Suite struct ServiceFailureTests {
    @Test(arguments: [
        ("one error", "{ views: [ { id: \"root\", gestures: [ { id: \"t\", type: \"tapp\" } ] } ] }", ""),
        ("three errors", "{ views: [ { id: \"root\", alpha: \"high\", gestures: [ { id: \"t\", type: \"tapp\" } ] } ], bogus: 1 }",
         " (and 2 more: journalctl -u gestured)"),
    ])
    func theFirstErrorIsTheStatusAndTheExitStatusIs78(name: String, text: String, more: String) throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-sd-invalid")
        let manager = try NotifySocket(address: directory.path + "/notify")
        let config = try directory.write("c.json5", text)
        let run = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured",
                                     ["run", "--config", config, "--socket", directory.path + "/g.sock"],
                                     environment: ["NOTIFY_SOCKET": manager.address], in: directory.path,
                                     deadline: deadline(milliseconds: 20_000))
        #expect(run.termination == .exited(78), "\(name): \(run.termination) \(run.stderr)")
        // The errors as the journal gets them, each with its priority prefix.
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("<3>") }.map { String($0.dropFirst(3)) }
        #expect(errors.count == (more.isEmpty ? 1 : 3), "\(name): \(run.stderr)")
        let first = try #require(errors.first)
        #expect(first.hasPrefix(config + ":1:"), "\(name): \(first)")
        let status = try manager.wait(deadline: deadline(milliseconds: 5_000)) { $0.hasPrefix("STATUS=") }
        #expect(status == "STATUS=invalid configuration, not started: \(first)\(more)", "\(name): received \(manager.received)")
        #expect(!manager.received.contains { $0.contains("READY=1") }, "\(name): \(manager.received)")
    }
}
