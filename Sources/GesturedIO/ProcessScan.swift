import GesturedCore
import Glibc

/// What `/proc` says about the processes `gestured doctor` asks about: which have a device node
/// open (through `/proc/PID/fd`), their `comm` and executable, and the running clone guards.
/// Processes the caller may not look into (another user's, without root) are skipped.
public enum ProcessScan {
    public struct Process: Equatable, Sendable {
        public var pid: Int32
        public var command: String
        /// The executable's path as the caller sees it (`executable(of:)`), nil when it cannot
        /// be read.
        public var executable: String?
        public var arguments: [String]
        /// Targets of `/proc/PID/fd/*`.
        public var openFiles: Set<String>
        public init(pid: Int32, command: String, executable: String? = nil, arguments: [String] = [], openFiles: Set<String> = []) {
            self.pid = pid; self.command = command; self.executable = executable; self.arguments = arguments; self.openFiles = openFiles
        }
    }

    /// At most this many processes and descriptors per process are looked at.
    public static let processLimit = 1 << 16, descriptorLimit = 1 << 16

    public static func processes() -> [Process] {
        numericEntries(of: "/proc", limit: processLimit).compactMap(process)
    }

    public static func process(_ pid: Int32) -> Process? {
        let base = "/proc/\(pid)"
        guard let comm = try? readTextFile(path: base + "/comm", limit: 4096) else { return nil }
        let cmdline = (try? readFile(path: base + "/cmdline", limit: 1 << 16)) ?? []
        let arguments = cmdline.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        var files = Set<String>()
        for fd in numericEntries(of: base + "/fd", limit: descriptorLimit) {
            if let target = link(base + "/fd/\(fd)") { files.insert(target) }
        }
        return Process(pid: pid, command: comm.hasSuffix("\n") ? String(comm.dropLast()) : comm,
                       executable: executable(of: base + "/exe"), arguments: arguments, openFiles: files)
    }

    /// The path of the file `exe` (a `/proc/PID/exe`) links to, in the caller's tree. The link's
    /// text is that path, except for a process in a mount namespace of its own (a compositor
    /// under a unit with PrivateTmp=, or `unshare -m`), whose mounts the kernel cannot name from
    /// here: it gives the path from that namespace's root, e.g.
    /// `/host/root/…/rootfs/usr/bin/sway`. Then the longest tail of it (`/usr/bin/sway`) that is
    /// the same file (device and inode) is the one dpkg knows.
    public static func executable(of exe: String) -> String? {
        guard let text = link(exe) else { return nil }
        var target = stat()
        guard stat(exe, &target) == 0 else { return text }
        return sameFileTail(of: text) { path in
            var candidate = stat()
            return stat(path, &candidate) == 0 && candidate.st_dev == target.st_dev && candidate.st_ino == target.st_ino
        } ?? text
    }

    /// `path` itself, or else its longest tail starting at a `/` for which `isTheFile` holds; nil
    /// when none does.
    public static func sameFileTail(of path: String, isTheFile: (String) -> Bool) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var tail = Substring(path)
        while !tail.isEmpty {
            if isTheFile(String(tail)) { return String(tail) }
            guard let next = tail.dropFirst().firstIndex(of: "/") else { return nil }
            tail = tail[next...]
        }
        return nil
    }

    /// The processes with `node` open.
    public static func readers(of node: String, in processes: [Process]) -> [Process] {
        processes.filter { $0.openFiles.contains(node) && $0.pid != getpid() }
    }

    /// Running `gestured clone-guard --slots N …` processes. CloneGuard starts them as
    /// `/proc/self/exe clone-guard …` (the daemon's own binary), so that name counts when the
    /// process's executable is a `gestured` (or was, replaced since by an upgrade).
    public static func guards(in processes: [Process]) -> [DoctorFacts.Guard] {
        processes.compactMap { process in
            let args = process.arguments
            guard args.count >= 2, isGestured(args[0], executable: process.executable), args[1] == "clone-guard",
                  let k = args.firstIndex(of: "--slots"), k + 1 < args.count, let slots = Int(args[k + 1]) else { return nil }
            return DoctorFacts.Guard(pid: process.pid, slots: slots)
        }
    }

    static func isGestured(_ name: String, executable: String?) -> Bool {
        if name == "gestured" || name.hasSuffix("/gestured") { return true }
        guard name == "/proc/self/exe", let executable else { return false }
        return executable.hasSuffix("/gestured") || executable.hasSuffix("/gestured (deleted)")
    }

    static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func numericEntries(of directory: String, limit: Int) -> [Int32] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var numbers: [Int32] = []
        while numbers.count < limit, let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let number = Int32(name) { numbers.append(number) }
        }
        return numbers
    }
}
