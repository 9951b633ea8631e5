import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The gatherers `gestured doctor` reads a clone's readers and guards with: /proc (ProcessScan)
/// and dpkg (DebianPackages), on a real child that holds a file open.
@Suite struct ProcessScanTests {
    /// `cat` with the test's pipes as stdin and stdout and a file open as 3. A byte written to it
    /// and read back says it runs as cat (before its exec, the child has the test's comm).
    @Test func aChildHoldingAFileIsItsReaderWithItsDebianPackage() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-procscan")
        let file = try directory.write("node", "")
        let held = open(file, O_RDONLY | O_CLOEXEC)
        #expect(held >= 0)
        defer { close(held) }
        // Made close-on-exec at once (pipe2), so that no other test's child holds an end; both
        // ends block.
        let input = try ChildProcess.outputPipe(), output = try ChildProcess.outputPipe()
        try input.read.setStatusFlag(O_NONBLOCK, false)
        try output.read.setStatusFlag(O_NONBLOCK, false)
        let child = try Subprocess("cat", [], descriptors: [0: input.read.rawValue, 1: output.write.rawValue, 3: held])
        try input.read.close(); try output.write.close()
        var byte: UInt8 = 0x2a
        #expect(write(input.write.rawValue, &byte, 1) == 1)
        #expect(read(output.read.rawValue, &byte, 1) == 1 && byte == 0x2a)
        let readers = ProcessScan.readers(of: file, in: ProcessScan.processes())
        try input.write.close(); try output.read.close()
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
            // As CloneGuard starts them (found by the guest's DoctorVMTests: argv[0] is the path spawned).
            ProcessScan.Process(pid: 13, command: "exe", executable: "/usr/bin/gestured",
                                arguments: ["/proc/self/exe", "clone-guard", "--slots", "5", "--style", "palm"]),
            ProcessScan.Process(pid: 14, command: "exe", executable: "/usr/bin/gestured (deleted)",
                                arguments: ["/proc/self/exe", "clone-guard", "--slots", "6", "--style", "lift"]),
            ProcessScan.Process(pid: 15, command: "exe", executable: "/usr/bin/python3",
                                arguments: ["/proc/self/exe", "clone-guard", "--slots", "7"]),
        ]
        #expect(ProcessScan.guards(in: processes) == [DoctorFacts.Guard(pid: 10, slots: 10), DoctorFacts.Guard(pid: 13, slots: 5),
                                                      DoctorFacts.Guard(pid: 14, slots: 6)])
    }

    /// A process in a mount namespace of its own: /proc/PID/exe's text is its path from that
    /// namespace's root; the longest tail that is the same file is taken.
    @Test func anExecutableSeenFromAnotherMountNamespaceIsTheTailThatIsTheSameFile() {
        let known: Set<String> = ["/usr/bin/sway", "/bin/sway"]
        #expect(ProcessScan.sameFileTail(of: "/host/root/.cache/rootfs/usr/bin/sway", isTheFile: known.contains) == "/usr/bin/sway")
        #expect(ProcessScan.sameFileTail(of: "/usr/bin/sway", isTheFile: known.contains) == "/usr/bin/sway")
        #expect(ProcessScan.sameFileTail(of: "/opt/x/labwc", isTheFile: known.contains) == nil)
        #expect(ProcessScan.sameFileTail(of: "relative/usr/bin/sway", isTheFile: known.contains) == nil)
        // The real thing: this process's own executable, whose link text is its path.
        let own = TestEnvironment.executablePath
        #expect(own != nil && ProcessScan.executable(of: "/proc/self/exe") == own)
    }
}
