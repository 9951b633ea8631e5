import GesturedCore
import GesturedDoctor
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The gatherers `gestured doctor` reads a clone's readers and guards with: /proc (ProcessScan)
/// and dpkg (DebianPackages), on real children that hold files open. /dev/full stands for a
/// clone (a character device nothing else here holds).
@Suite struct ProcessScanTests {
    /// A child started with the test's pipes as stdin and stdout, and `held` as 3. A line written
    /// to it comes back once it runs the program meant (before its exec, the child is the test's
    /// copy); it ends when its stdin does.
    final class Holder {
        let child: Subprocess
        let input: (read: FileDescriptor, write: FileDescriptor)
        let output: (read: FileDescriptor, write: FileDescriptor)

        init(_ executable: String, _ arguments: [String], holding held: Int32? = nil) throws {
            // Made close-on-exec at once (pipe2), so that no other test's child holds an end; both ends block.
            input = try ChildProcess.outputPipe(); output = try ChildProcess.outputPipe()
            try input.read.setStatusFlag(O_NONBLOCK, false)
            try output.read.setStatusFlag(O_NONBLOCK, false)
            var descriptors: [Int32: Int32] = [0: input.read.rawValue, 1: output.write.rawValue]
            if let held { descriptors[3] = held }
            child = try Subprocess(executable, arguments, descriptors: descriptors)
            try input.read.close(); try output.write.close()
            var bytes: [UInt8] = [0x78, 0x0a]
            #expect(write(input.write.rawValue, &bytes, 2) == 2)
            #expect(read(output.read.rawValue, &bytes, 1) == 1, "\(executable) said nothing")
        }

        func end() throws {
            try input.write.close(); try output.read.close()
            let ended = try child.wait(deadline: deadline(milliseconds: 10_000))
            #expect(ended?.timedOut == false)
        }
    }

    static let full = ProcessScan.DeviceNumber(major: 1, minor: 7)

    static func open(_ path: String) -> Int32 {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #expect(fd >= 0, "\(path)")
        return fd
    }

    /// `cat` holding /dev/full: its reader, with its comm, executable and Debian package; the
    /// test itself holds it too and is left out.
    @Test func aChildHoldingTheDeviceIsItsReaderWithItsDebianPackage() throws {
        #expect(try ProcessScan.characterDevice("/dev/full") == Self.full)
        let held = Self.open("/dev/full")
        defer { close(held) }
        let cat = try Holder("cat", [], holding: held)
        let found = ProcessScan.scan(ProcessScan.Query(devices: [Self.full]))
        try cat.end()
        #expect(found.bound == nil)
        let mine = found.readers.filter { $0.pid == cat.child.pid }
        #expect(mine.count == 1, "\(found.readers)")
        #expect(!found.readers.contains { $0.pid == getpid() })
        let reader = try #require(mine.first)
        #expect(reader.command == "cat" && reader.device == Self.full && !reader.seatManager)
        let executable = try #require(reader.executable)
        #expect(executable.hasSuffix("/cat"))
        let owner = try #require(DebianPackages.owner(of: executable))
        #expect(owner.package == "coreutils")
        #expect(owner.version?.first?.isNumber == true, "\(String(describing: owner.version))")
    }

    /// Issue #44 item 2 on a real process: a program whose file name is an escape sequence holds
    /// the device; its comm (the kernel's copy of that name) reaches doctor's text escaped, one
    /// line, no forged status, and JSON as JSON.
    @Test func aReadersCommWithAnEscapeSequenceIsEscapedInDoctorsText() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-procscan-comm")
        let name = "\u{1b}[2K\rok x"
        let copy = directory.path + "/" + name
        let cat = try #require(TestEnvironment.which("cat"))
        try writeFile(path: copy, bytes: try readFile(path: cat))
        chmod(copy, 0o755)
        let held = Self.open("/dev/full")
        defer { close(held) }
        let holder = try Holder(copy, [], holding: held)
        let found = ProcessScan.scan(ProcessScan.Query(devices: [Self.full]))
        try holder.end()
        let reader = try #require(found.readers.first { $0.pid == holder.child.pid }, "\(found.readers)")
        #expect(reader.command == name, "\(reader.command.unicodeScalars.map(\.value))")
        let clone = DoctorFacts.Clone(device: "Panel", rule: 0, cancelStyle: .lift, slots: 10, clone: "/dev/input/event9",
                                      readers: [DoctorFacts.Reader(pid: reader.pid, command: reader.command)])
        let facts = DoctorFacts(socket: DoctorFacts.Socket(path: "/run/gestured/gestured.sock", reach: .connected),
                                caller: DoctorFacts.Caller(uid: 0, name: "root"), needsUinput: true, uinputPresent: true,
                                clones: [clone])
        let report = facts.report()
        #expect(!report.text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }, "\(report.text)")
        #expect(report.text.contains("\\x1b[2K\\rok x (pid \(reader.pid)"), "\(report.text)")
        #expect(report.json.contains("\"command\":\"\\u001b[2K\\rok x\""), "\(report.json)")
    }

    /// Issue #44 item 3, the namespace trick: a process in a user and mount namespace of its own
    /// with a tmpfs on /dev holds a plain file named /dev/input/event7; its /proc/PID/fd/3 reads
    /// `/dev/input/event7`, the text the old scan matched. It is no reader of event7 (13:71):
    /// only the character device itself is.
    @Test func aPlainFileNamedLikeTheCloneIsNoReader() throws {
        // An unprivileged attacker needs the user namespace (-U) to mount; root, as the tests run
        // in CI, gets the same mount namespace without it, and must: a chrooted process (the
        // Debian 13 root of make test-trixie) may not make a user namespace (unshare(2), EPERM),
        // nor make its root private (not a mount point there), so the script makes /dev private
        // in the new namespace before it mounts over it: the tmpfs never reaches another
        // namespace's /dev. What doctor sees through /proc is the same either way.
        let script = "mount --make-rprivate /dev && mount -t tmpfs none /dev && mkdir /dev/input "
            + "&& : > /dev/input/event7 && exec 3</dev/input/event7 && exec cat"
        let namespaces = getuid() == 0 ? ["-m", "--propagation", "unchanged"] : ["-Urm"]
        let fake = try Holder("unshare", namespaces + ["sh", "-c", script])
        var text = [CChar](repeating: 0, count: 256)
        let count = readlink("/proc/\(fake.child.pid)/fd/3", &text, text.count - 1)
        let link = count > 0 ? String(cString: Array(text[..<count]) + [0]) : nil
        let found = ProcessScan.scan(ProcessScan.Query(devices: [ProcessScan.DeviceNumber(major: 13, minor: 71)]))
        try fake.end()
        // Exactly the text the old scan matched, but in a chroot, where the kernel shows the path
        // from the namespace's root (…/rootfs/dev/input/event7).
        #expect(link == "/dev/input/event7" || link?.hasSuffix("/rootfs/dev/input/event7") == true,
                "the trick did not take: \(String(describing: link))")
        #expect(!found.readers.contains { $0.pid == fake.child.pid }, "\(found.readers)")
    }

    /// Issue #44 item 3: a copy of dash named `gestured`, run as `…/gestured clone-guard --slots
    /// 10` (its script `clone-guard` waits on stdin) with a device open as 3, is no guard: its
    /// executable is not the daemon's. The same process is one when its executable is named as
    /// the daemon's and it holds the guard's device, which shows the scan looks.
    @Test func aRenamedProgramWithAGuardsArgumentsIsNoGuard() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-procscan")
        let copy = directory.path + "/gestured"
        let resolved = try #require(realpath("/bin/sh", nil))
        let dash = String(cString: resolved)
        free(resolved)
        try writeFile(path: copy, bytes: try readFile(path: dash))
        chmod(copy, 0o755)
        _ = try directory.write("clone-guard", "read line\necho x\nread line\n")
        let held = Self.open("/dev/full")
        defer { close(held) }
        let fake = try Holder("env", ["-C", directory.path, copy, "clone-guard", "--slots", "10"], holding: held)
        let daemon = ProcessScan.identities(of: [TestEnvironment.buildDirectory + "/gestured", "/proc/self/exe"])
        let asDaemon = ProcessScan.scan(ProcessScan.Query(devices: [], daemonExecutables: daemon, guardHolds: Self.full))
        let named = ProcessScan.identities(of: [copy])
        let asCopy = ProcessScan.scan(ProcessScan.Query(devices: [], daemonExecutables: named, guardHolds: Self.full))
        let noUinput = ProcessScan.scan(ProcessScan.Query(devices: [], daemonExecutables: named))
        let arguments = try readFile(path: "/proc/\(fake.child.pid)/cmdline")
        try fake.end()
        #expect(arguments == Array("\(copy)\0clone-guard\0--slots\010\0".utf8))
        #expect(!asDaemon.guards.contains { $0.pid == fake.child.pid }, "\(asDaemon.guards)")
        #expect(asCopy.guards.filter { $0.pid == fake.child.pid } == [DoctorFacts.Guard(pid: fake.child.pid, slots: 10)])
        #expect(!noUinput.guards.contains { $0.pid == fake.child.pid }, "a guard holds /dev/uinput as 3")
    }

    /// Each bound stops the scan where it says, and says so.
    @Test func aBoundReachedIsReported() {
        func bound(_ limits: ProcessScan.Limits) -> DoctorFacts.ScanBound? {
            ProcessScan.scan(ProcessScan.Query(devices: [Self.full], limits: limits)).bound
        }
        let many = 1 << 20
        #expect(bound(ProcessScan.Limits(processes: many, descriptorsPerProcess: many, descriptors: many)) == nil)
        // This machine runs more than 2 processes, and init holds more than one file.
        #expect(bound(ProcessScan.Limits(processes: 2, descriptorsPerProcess: many, descriptors: many)) == .processes(limit: 2))
        guard case .descriptors(_, 1)? = bound(ProcessScan.Limits(processes: many, descriptorsPerProcess: 1, descriptors: many)) else {
            Issue.record("no process with two descriptors was cut"); return
        }
        #expect(bound(ProcessScan.Limits(processes: many, descriptorsPerProcess: many, descriptors: 3)) == .allDescriptors(limit: 3))
        #expect(ProcessScan.Limits.standard == ProcessScan.Limits(processes: 4096, descriptorsPerProcess: 4096, descriptors: 1 << 16))
    }

    @Test func aGuardIsKnownByItsCommandLine() {
        #expect(ProcessScan.guardSlots(["/proc/self/exe", "clone-guard", "--slots", "5", "--style", "palm"]) == 5)
        #expect(ProcessScan.guardSlots(["gestured", "run"]) == nil)
        #expect(ProcessScan.guardSlots(["gestured", "clone-guard", "--slots"]) == nil)
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
