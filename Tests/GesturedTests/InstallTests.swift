import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `make install DESTDIR=… PREFIX=/usr` with the release binary (`make test` builds it first):
/// the tree it lays out, units that name the installed binary, a configuration never
/// overwritten, a binary that needs no Swift library, and `make uninstall`.
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

        let expected = ["/usr/bin/gestured", "/usr/lib/systemd/system/gestured.service", "/usr/lib/systemd/system/gestured.socket",
                        "/usr/lib/sysusers.d/gestured.conf", "/usr/lib/udev/rules.d/60-gestured-uinput.rules",
                        "/usr/share/man/man8/gestured.8",
                        "/usr/share/man/man5/gestured.json5.5", "/etc/gestured/gestured.json5",
                        "/usr/share/doc/gestured/README.md"]
        for path in expected { #expect(exists(destdir + path), "\(path) not installed") }
        var status = stat()
        #expect(stat(destdir + "/usr/bin/gestured", &status) == 0 && status.st_mode & 0o777 == 0o755)
        // Stripped: no symbol table left (`nm` finds none), so the installed file is the small one.
        let symbols = try Subprocess.run("nm", [destdir + "/usr/bin/gestured"], in: directory.path, deadline: deadline(milliseconds: 30_000))
        #expect(symbols.stderr.contains("no symbols"), "\(symbols.stderr.prefix(200))")

        let service = try readTextFile(path: destdir + "/usr/lib/systemd/system/gestured.service")
        #expect(service.contains("\nExecStart=/usr/bin/gestured run --config /etc/gestured/gestured.json5 --socket /run/gestured/gestured.sock\n"))
        #expect(!service.contains("@BINDIR@") && !service.contains("@CONFIGDIR@"))
        #expect(try readTextFile(path: destdir + "/etc/gestured/gestured.json5") == readTextFile(path: root + "/config/gestured.json5"))

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
}
