import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `make install DESTDIR=… PREFIX=/usr` with the release binary (`make test` builds it first):
/// the tree it lays out, units and generator that name the installed binary, the built-in
/// configuration as /etc/gestured/gestured.json5 and never overwritten, a binary that needs no
/// Swift library, `make uninstall`, and no dependency installed for a prebuilt binary. Source
/// installs; the Debian package (`make deb`) lays out the same tree from the same target.
@Suite struct InstallTests {
    /// The `--static-swift-stdlib` release build next to this debug build.
    var releaseBinary: String { TestEnvironment.releaseProduct("gestured") }

    func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    @Test func installLaysOutTheTreeAndTheBinaryRunsWithoutSwift() throws {
        guard exists(releaseBinary) else {
            Issue.record("\(releaseBinary) is missing: `make test` builds it (swift build -c release --static-swift-stdlib)")
            return
        }
        let root = TestEnvironment.packageRoot
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-install")
        let destdir = directory.path + "/root"
        let make = ["-s", "-C", root, "DESTDIR=\(destdir)", "PREFIX=/usr", "GESTURED_BIN=\(releaseBinary)"]
        let install = try Subprocess.run("make", ["install"] + make, in: directory.path, deadline: deadline(milliseconds: 60_000))
        try #require(install.termination == .exited(0), "\(install.stdout)\n\(install.stderr)")

        let units = ["gestured.service", "gestured.socket", "gestured.path", "gestured-action@.service", "gestured-action@.path",
                     "gestured-mqtt.service"]
        let expected = ["/usr/bin/gestured", "/usr/libexec/gestured/gestured-surface", "/usr/libexec/gestured/kiosk-hook", "/usr/lib/systemd/system-generators/gestured-generator",
                        "/usr/lib/sysusers.d/gestured.conf", "/usr/lib/udev/rules.d/60-gestured-uinput.rules",
                        "/usr/share/man/man8/gestured.8",
                        "/usr/share/man/man5/gestured.json5.5", "/etc/gestured/gestured.json5",
                        "/usr/share/doc/gestured/README.md", "/usr/share/doc/gestured/LICENSE",
                        "/usr/share/doc/gestured/docs/CONFIG.md", "/usr/share/doc/gestured/docs/images/example-config.svg",
                        "/usr/share/doc/gestured/docs/kiosk/delays-touches-began.svg", "/usr/share/doc/gestured/docs/strokes/circle.svg",
                        "/usr/share/doc/gestured/examples/gestured.json5", "/usr/share/doc/gestured/examples/two-panels.json5",
                        "/usr/share/doc/gestured/examples/kiosk.json5", "/usr/share/doc/gestured/examples/kiosk-rpi-7inch.json5",
                        "/usr/share/doc/gestured/examples/kiosk-rpi-touch-display-2.json5",
                        "/usr/share/doc/gestured/examples/kiosk-browser.json5", "/usr/share/doc/gestured/examples/61-gestured-clone.rules",
                        "/usr/share/doc/gestured/examples/kiosk-admin-menu.service"]
            + units.map { "/usr/lib/systemd/system/" + $0 }
        for path in expected { #expect(exists(destdir + path), "\(path) not installed") }
        var status = stat()
        #expect(stat(destdir + "/usr/bin/gestured", &status) == 0 && status.st_mode & 0o777 == 0o755)
        // The kiosk hook is run as it is by `gestured listen --exec` (docs/KIOSK.md): executable,
        // and the file the recipe's tests run.
        #expect(stat(destdir + "/usr/libexec/gestured/kiosk-hook", &status) == 0 && status.st_mode & 0o777 == 0o755)
        #expect(try readTextFile(path: destdir + "/usr/libexec/gestured/kiosk-hook") == readTextFile(path: root + "/docs/kiosk/kiosk-hook.sh"))
        // Stripped: no symbol table left (`nm` finds none), so the installed file is the small one.
        let symbols = try Subprocess.run("nm", [destdir + "/usr/bin/gestured"], in: directory.path, deadline: deadline(milliseconds: 30_000))
        #expect(symbols.stderr.contains("no symbols"), "\(symbols.stderr.prefix(200))")

        let service = try readTextFile(path: destdir + "/usr/lib/systemd/system/gestured.service")
        #expect(service.contains("\nExecStart=/usr/bin/gestured run --config /etc/gestured/gestured.json5 --socket /run/gestured/gestured.sock\n"))
        let generator = try readTextFile(path: destdir + "/usr/lib/systemd/system-generators/gestured-generator")
        #expect(generator.contains("answer=$(/usr/bin/gestured check-config --needs-uinput \"$config\" 2>/dev/null)"))
        #expect(generator.contains("config=/etc/gestured/gestured.json5\n"))
        #expect(stat(destdir + "/usr/lib/systemd/system-generators/gestured-generator", &status) == 0 && status.st_mode & 0o777 == 0o755)
        for file in units.map({ "/usr/lib/systemd/system/" + $0 }) + ["/usr/lib/systemd/system-generators/gestured-generator"] {
            let text = try readTextFile(path: destdir + file)
            #expect(!text.contains("@BINDIR@") && !text.contains("@CONFIGDIR@"), "\(file) still has a placeholder")
        }
        // The production default (the built-in configuration), not the every-key example.
        #expect(try readTextFile(path: destdir + "/etc/gestured/gestured.json5") == readTextFile(path: root + "/config/default.json5"))
        #expect(try readTextFile(path: destdir + "/usr/share/doc/gestured/examples/gestured.json5") == readTextFile(path: root + "/config/gestured.json5"))

        // The binary needs glibc, libevdev and libudev (and the C++ runtime every Debian has),
        // no Swift library: ldd names none, and it runs with an empty environment.
        let ldd = try Subprocess.run("ldd", [destdir + "/usr/bin/gestured"], in: directory.path, deadline: deadline(milliseconds: 30_000))
        #expect(ldd.termination == .exited(0))
        #expect(!ldd.stdout.contains("libswift") && !ldd.stdout.contains("libFoundation") && !ldd.stdout.contains("not found"), "\(ldd.stdout)")
        let version = try Subprocess.run("env", ["-i", destdir + "/usr/bin/gestured", "--version"], in: directory.path,
                                         deadline: deadline(milliseconds: 30_000))
        #expect(version.termination == .exited(0))
        #expect(version.stdout.hasPrefix("gestured "), "\(version.stdout)\(version.stderr)")

        // An edited configuration survives a second install.
        try TestEnvironment.writeFile(path: destdir + "/etc/gestured/gestured.json5", "{ views: [] } // edited\n")
        let again = try Subprocess.run("make", ["install"] + make, in: directory.path, deadline: deadline(milliseconds: 60_000))
        #expect(again.termination == .exited(0))
        #expect(try readTextFile(path: destdir + "/etc/gestured/gestured.json5") == "{ views: [] } // edited\n")

        let uninstall = try Subprocess.run("make", ["uninstall"] + make, in: directory.path, deadline: deadline(milliseconds: 60_000))
        #expect(uninstall.termination == .exited(0), "\(uninstall.stderr)")
        for path in expected where !path.hasPrefix("/etc/") { #expect(!exists(destdir + path), "\(path) left by uninstall") }
        #expect(exists(destdir + "/etc/gestured/gestured.json5"), "uninstall removed the configuration")
    }

    /// On a target that only receives a binary, `make install GESTURED_BIN=…` builds nothing and
    /// installs no package: none of the deps targets (apt-get: chromium, valgrind, umockdev…) and
    /// no `swift build` is among what make would run (`make -n` prints every command of every
    /// prerequisite it would make, whether or not a recipe's condition would skip it).
    @Test func installingAPrebuiltBinaryInstallsNoDependency() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-install-deps")
        let dryRun = try Subprocess.run("make", ["-n", "-C", TestEnvironment.packageRoot, "install", "DESTDIR=\(directory.path)/root",
                                                 "GESTURED_BIN=/nonexistent/gestured"],
                                        in: directory.path, deadline: deadline(milliseconds: 30_000))
        #expect(dryRun.termination == .exited(0), "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("/nonexistent/gestured"), "the dry run does not install the given binary:\n\(dryRun.stdout)")
        for forbidden in ["apt-get", "swift build", "pkg-config"] {
            #expect(!dryRun.stdout.contains(forbidden), "`make install GESTURED_BIN=` would run \(forbidden):\n\(dryRun.stdout)")
        }
        // Without it, install builds the daemon alone with the build's own dependencies, not the tests'.
        let building = try Subprocess.run("make", ["-n", "-C", TestEnvironment.packageRoot, "install", "DESTDIR=\(directory.path)/root"],
                                          in: directory.path, deadline: deadline(milliseconds: 30_000))
        #expect(building.stdout.contains("--product gestured"), "\(building.stdout)")
        for forbidden in ["chromium", "valgrind", "umockdev"] {
            #expect(!building.stdout.contains(forbidden), "`make install` would install \(forbidden):\n\(building.stdout)")
        }
    }
}
