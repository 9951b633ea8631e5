@testable import gestured
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Testing

/// One configuration for every inspection command (issue 37, CONTRACT.md §6): `--config`, else
/// the file the installed service reads, else the built-in one; and a `config: ` line on stderr.
struct ConfigChoiceTests {
    static let packageUnit = """
        [Service]
        Type=notify
        ExecStart=/usr/bin/gestured run --config /etc/gestured/gestured.json5 --socket /run/gestured/gestured.sock
        """

    @Test func theChoiceIsGivenThenTheServicesFileThenBuiltIn() {
        let none: (String) -> String? = { _ in nil }
        #expect(ConfigChoice.resolve(given: "/tmp/k.json5", exists: { _ in true }, read: none).source == .given("/tmp/k.json5"))
        // No unit: the package's path, when the file is there.
        #expect(ConfigChoice.resolve(given: nil, exists: { $0 == "/etc/gestured/gestured.json5" }, read: none).source
                == .installed("/etc/gestured/gestured.json5"))
        #expect(ConfigChoice.resolve(given: nil, exists: { _ in false }, read: none).source == .builtIn)
        // The unit names another file (make install CONFIGDIR=/opt/kiosk/etc): that one.
        let unit = Self.packageUnit.replacing("/etc/gestured/", with: "/opt/kiosk/etc/")
        let read: (String) -> String? = { $0 == "/usr/local/lib/systemd/system/gestured.service" ? unit : nil }
        #expect(ConfigChoice.resolve(given: nil, exists: { _ in true }, read: read).source == .installed("/opt/kiosk/etc/gestured.json5"))
        #expect(ConfigChoice.resolve(given: nil, exists: { $0 == "/etc/gestured/gestured.json5" }, read: read).source == .builtIn)
        // An administrator's copy in /etc/systemd/system comes first, as for systemd.
        let mine = Self.packageUnit.replacing("/etc/gestured/", with: "/srv/")
        let both: (String) -> String? = { $0.hasPrefix("/etc/systemd/") ? mine : read($0) }
        #expect(ConfigChoice.resolve(given: nil, exists: { _ in true }, read: both).source == .installed("/srv/gestured.json5"))
    }

    @Test func theUnitsConfigIsItsExecStartsConfigOption() {
        #expect(ConfigChoice.configPath(unit: Self.packageUnit) == "/etc/gestured/gestured.json5")
        #expect(ConfigChoice.configPath(unit: "ExecStart=/usr/bin/gestured run --config=/k.json5\n") == "/k.json5")
        #expect(ConfigChoice.configPath(unit: "ExecStart=/usr/bin/gestured run\nExecReload=/bin/kill -HUP $MAINPID\n") == nil)
    }

    @Test func theConfigLineNamesTheFileOrBuiltInAndAnAssumedScreen() {
        #expect(ConfigChoice(source: .installed("/etc/gestured/gestured.json5")).line(assumedScreen: false)
                == "config: /etc/gestured/gestured.json5")
        #expect(ConfigChoice(source: .builtIn).line(assumedScreen: true)
                == "config: built-in, screen 1280×800 assumed: no screen size from udev or the configuration")
        #expect(ConfigChoice(source: .given("k.json5")).line(assumedScreen: true)
                == "config: k.json5, screen 1280×800 assumed: no screen size from udev or the configuration")
    }

    /// The built binary says it on stderr, for explain and draw (devices: DevicesCommandTests).
    @Test func explainAndDrawSayWhichConfigurationTheyRead() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-config-line")
        let sized = try directory.write("sized.json5", #"{ screen: { width: 1920, height: 1080 }, views: [{ id: "root" }] }"#)
        let unsized = try directory.write("unsized.json5", #"{ views: [{ id: "root" }] }"#)
        func stderr(_ arguments: [String]) throws -> String {
            let done = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", arguments, in: directory.path,
                                          deadline: deadline(milliseconds: 20_000))
            #expect(done.termination == .exited(0), "\(arguments): \(done.stderr)")
            return done.stderr
        }
        let assumed = ", screen 1280×800 assumed: no screen size from udev or the configuration"
        #expect(try stderr(["explain", "--config", sized, "1900", "20"]) == "config: \(sized)\n")
        #expect(try stderr(["explain", "--config", unsized, "10", "20"]) == "config: \(unsized)\(assumed)\n")
        #expect(try stderr(["draw", "--config", sized, "--output", directory.path + "/m.svg"]) == "config: \(sized)\n")
        // Without --config: what this machine has (CI: no service installed, so built-in).
        let machine = try stderr(["explain", "10", "20"])
        switch ConfigChoice.resolve(given: nil).source {
        case .builtIn: #expect(machine == "config: built-in\(assumed)\n")
        case .installed(let path): #expect(machine.hasPrefix("config: \(path)"), "\(machine)")
        case .given: Issue.record("no --config was given")
        }
    }
}
