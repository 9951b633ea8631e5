import GesturedIO
import GesturedTestSupport
import Testing

/// gestured-mqtt.service (issue 46): its own hardening, network here only, no devices, the
/// socket's group; `systemd-analyze security` at most 2.0; installed disabled by the package.
@Suite struct MQTTUnitTests {
    static let maximumExposure = 2.0
    let root = TestEnvironment.packageRoot

    @Test func exposureIsAtMostTwo() throws {
        let units = try SystemdUnitTests().renderedUnits()
        guard let analyze = SystemdUnitTests().tool("systemd-analyze") else { return }
        let run = try Subprocess.run(analyze, ["security", "--offline=yes", "--no-pager", units.path + "/gestured-mqtt.service"],
                                     in: units.path, deadline: deadline(milliseconds: 30_000))
        #expect(run.termination == .exited(0), "\(run.stderr)")
        let marker = "Overall exposure level for gestured-mqtt.service: "
        let line = try #require(run.stdout.split(separator: "\n").first { $0.contains(marker) }, "\(run.stdout)")
        let value = try #require(line.split(separator: marker).last.flatMap { $0.split(separator: " ").first }.flatMap { Double(String($0)) })
        #expect(value <= Self.maximumExposure, "exposure \(value)")
    }

    @Test func theUnitReachesTheBrokerAndTheSocketAndNothingElse() throws {
        let unit = SystemdUnitTests().directives(try readTextFile(path: "\(root)/systemd/gestured-mqtt.service.in"))
        for required in ["DynamicUser=yes", "SupplementaryGroups=gestured", "PrivateDevices=yes", "DevicePolicy=closed",
                         "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6", "CapabilityBoundingSet=", "NoNewPrivileges=yes",
                         "ProtectSystem=strict", "RestartPreventExitStatus=78", "ExecReload=/bin/kill -HUP $MAINPID",
                         "SystemCallFilter=@system-service", "WantedBy=multi-user.target"] {
            #expect(unit.contains(required), "missing \(required)")
        }
        #expect(!unit.contains { $0.hasPrefix("IPAddressDeny=") || $0.hasPrefix("PrivateNetwork=") || $0.hasPrefix("PrivateUsers=") })
        let socket = SystemdUnitTests().directives(try readTextFile(path: "\(root)/systemd/gestured.socket.in"))
        let listen = try #require(socket.first { $0.hasPrefix("ListenStream=") }).dropFirst("ListenStream=".count)
        #expect(unit.contains("ExecStart=@BINDIR@/gestured mqtt --config @CONFIGDIR@/gestured.json5 --socket \(listen)"))
        // The package installs it disabled and leaves it stopped.
        let rules = try readTextFile(path: "\(root)/debian/rules")
        #expect(rules.contains("dh_installsystemd --no-enable --no-start gestured-mqtt.service"))
        // ...and the daemon's units as before: every other unit, this one left out.
        #expect(rules.contains("dh_installsystemd -Xgestured-mqtt.service\n"))
    }
}
