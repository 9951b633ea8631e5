import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The gatherers `gestured doctor` reads a clone's readers and guards with: /proc (ProcessScan)
/// and dpkg (DebianPackages), on a real child that holds a file open.
@Suite struct ProcessScanTests {
    /// `cat` with the test's pipe as stdin (it waits for the end) and a file open as 3.
    @Test func aChildHoldingAFileIsItsReaderWithItsDebianPackage() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-procscan")
        let file = try directory.write("node", "")
        let held = open(file, O_RDONLY | O_CLOEXEC)
        #expect(held >= 0)
        defer { close(held) }
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        // Close-on-exec, so that only the test holds the write end and cat sees the end.
        for fd in fds { #expect(fcntl(fd, F_SETFD, FD_CLOEXEC) == 0) }
        let child = try Subprocess("cat", [], descriptors: [0: fds[0], 3: held])
        close(fds[0])
        let readers = ProcessScan.readers(of: file, in: ProcessScan.processes())
        close(fds[1])
        let ended = try child.wait(deadline: deadline(milliseconds: 10_000))
        #expect(ended?.termination == .exited(0) && ended?.timedOut == false)
        // The test itself has the file open too, and is left out.
        #expect(readers.map(\.pid) == [child.pid], "\(readers)")
        let reader = try #require(readers.first)
        #expect(reader.command == "cat")
        let executable = try #require(reader.executable)
        #expect(executable.hasSuffix("/cat"))
        let owner = try #require(DebianPackages.owner(of: executable))
        #expect(owner.package == "coreutils")
        #expect(owner.version?.first?.isNumber == true, "\(String(describing: owner.version))")
    }

    @Test func anExecutableDpkgDoesNotKnowHasNoPackage() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-procscan")
        #expect(DebianPackages.owner(of: try directory.write("tool", "")) == nil)
    }

    @Test func dpkgSearchAnswersAreRead() {
        #expect(DebianPackages.package(dpkgSearch: "cage: /usr/bin/cage", path: "/usr/bin/cage") == "cage")
        #expect(DebianPackages.package(dpkgSearch: "xserver-xorg-core:amd64: /usr/lib/xorg/Xorg", path: "/usr/lib/xorg/Xorg")
            == "xserver-xorg-core")
        #expect(DebianPackages.package(dpkgSearch: "diversion by dash from: /bin/sh\ndiversion by dash to: /bin/sh.distrib\ndash: /bin/sh",
                                       path: "/bin/sh") == "dash")
        #expect(DebianPackages.package(dpkgSearch: "libfoo1:amd64, libfoo1:i386: /usr/lib/x", path: "/usr/lib/x") == "libfoo1")
    }

    @Test func guardsAreGesturedCloneGuardProcesses() {
        let processes = [
            ProcessScan.Process(pid: 10, command: "gestured", arguments: ["gestured", "clone-guard", "--slots", "10", "--style", "lift"]),
            ProcessScan.Process(pid: 11, command: "gestured", arguments: ["/usr/bin/gestured", "run"]),
            ProcessScan.Process(pid: 12, command: "sh", arguments: ["sh", "clone-guard", "--slots", "4"]),
        ]
        #expect(ProcessScan.guards(in: processes) == [DoctorFacts.Guard(pid: 10, slots: 10)])
    }
}
