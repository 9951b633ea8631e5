import GesturedCore
import Glibc

/// What `/proc` says about the processes `gestured doctor` asks about: which have a device node
/// open (through `/proc/PID/fd`), their `comm` and executable, and the running clone guards.
/// Processes the caller may not look into (another user's, without root) are skipped.
public enum ProcessScan {
    public struct Process: Equatable, Sendable {
        public var pid: Int32
        public var command: String
        /// `/proc/PID/exe`'s target, nil when it cannot be read.
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
                       executable: link(base + "/exe"), arguments: arguments, openFiles: files)
    }

    /// The processes with `node` open.
    public static func readers(of node: String, in processes: [Process]) -> [Process] {
        processes.filter { $0.openFiles.contains(node) && $0.pid != getpid() }
    }

    /// Running `gestured clone-guard --slots N …` processes (CloneGuard starts them so).
    public static func guards(in processes: [Process]) -> [DoctorFacts.Guard] {
        processes.compactMap { process in
            let args = process.arguments
            guard args.count >= 2, args[0] == "gestured" || args[0].hasSuffix("/gestured"), args[1] == "clone-guard", let k = args.firstIndex(of: "--slots"), k + 1 < args.count,
                  let slots = Int(args[k + 1]) else { return nil }
            return DoctorFacts.Guard(pid: process.pid, slots: slots)
        }
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
