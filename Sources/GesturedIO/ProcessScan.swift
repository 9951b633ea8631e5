import CLinux
import GesturedCore
import GesturedDoctor
import Glibc

/// What `/proc` says about the processes `gestured doctor` asks about: which have a given
/// character device open, which are clone guards, which are seat managers. Processes the caller
/// may not look into (another user's, without root) are skipped.
///
/// Nothing a process says about itself is evidence: not the text of its `/proc/PID/fd` links (a
/// process in a mount namespace of its own can open a plain file named `/dev/input/event7`), not
/// its argv, not its `comm`. A reader is a process with a descriptor that is the character
/// device itself (its `st_rdev`); a guard or a seat manager is a process whose executable is the
/// very file (device and inode) the caller names. The scan streams: only matches are kept, and
/// `Limits` bounds the work.
public enum ProcessScan {
    /// How much of /proc one scan looks at; reaching a bound is reported (`Found.bound`), and
    /// `gestured doctor` warns about it.
    public struct Limits: Equatable, Sendable {
        /// Processes looked at. A kiosk runs a few hundred, a desktop session under two thousand.
        public var processes: Int
        /// Descriptors looked at per process: four times the usual soft `RLIMIT_NOFILE` (1024); a
        /// compositor holds a few hundred.
        public var descriptorsPerProcess: Int
        /// Descriptors looked at in all. Each costs one `statx` and its share of reading /proc,
        /// so this bound keeps a scan to a few seconds however many files the processes hold
        /// (docs/PERFORMANCE.md, "Why the hot paths look as they do"); a kiosk holds a few
        /// thousand.
        public var descriptors: Int
        public init(processes: Int, descriptorsPerProcess: Int, descriptors: Int) {
            self.processes = processes; self.descriptorsPerProcess = descriptorsPerProcess; self.descriptors = descriptors
        }
        public static let standard = Limits(processes: 4096, descriptorsPerProcess: 4096, descriptors: 1 << 16)
    }

    /// A device number (`st_rdev` of a character device; `st_dev` of a file system).
    public struct DeviceNumber: Hashable, Sendable {
        public var major: UInt32
        public var minor: UInt32
        public init(major: UInt32, minor: UInt32) { self.major = major; self.minor = minor }
        /// /dev/uinput: the misc device's fixed number (`MISC_MAJOR`, `UINPUT_MINOR` in the
        /// kernel's miscdevice.h).
        public static let uinput = DeviceNumber(major: 10, minor: 223)
    }

    /// A file's identity: its file system and inode.
    public struct FileID: Hashable, Sendable {
        public var device: DeviceNumber
        public var inode: UInt64
    }

    /// What to look for.
    public struct Query: Sendable {
        /// The character devices whose readers are wanted.
        public var devices: Set<DeviceNumber>
        /// The daemon's executables: a process running one with `clone-guard` as its first
        /// argument and `guardHolds` open as `CloneGuard.uinputDescriptor` is a guard. Empty:
        /// no guards are looked for.
        public var daemonExecutables: Set<FileID>
        public var guardHolds: DeviceNumber
        /// The seat managers' executables (`DoctorFacts.seatManagerExecutables`).
        public var seatManagerExecutables: Set<FileID>
        /// Stop at the first reader (the probe's wait needs only one).
        public var firstReaderOnly: Bool
        public var limits: Limits
        public init(devices: Set<DeviceNumber>, daemonExecutables: Set<FileID> = [], guardHolds: DeviceNumber = .uinput,
                    seatManagerExecutables: Set<FileID> = [], firstReaderOnly: Bool = false, limits: Limits = .standard) {
            self.devices = devices; self.daemonExecutables = daemonExecutables; self.guardHolds = guardHolds
            self.seatManagerExecutables = seatManagerExecutables; self.firstReaderOnly = firstReaderOnly; self.limits = limits
        }
    }

    /// A process with one of the query's devices open.
    public struct Reader: Equatable, Sendable {
        public var pid: Int32
        public var device: DeviceNumber
        /// `/proc/PID/comm`, for messages only.
        public var command: String
        /// Its executable's path (`executable(of:)`), for dpkg; nil when it cannot be read.
        public var executable: String?
        public var seatManager: Bool
    }

    public struct Found: Equatable, Sendable {
        public var readers: [Reader] = []
        public var guards: [DoctorFacts.Guard] = []
        /// The first bound reached, if one was.
        public var bound: DoctorFacts.ScanBound?
    }

    /// Scans /proc once for `query` (this process left out).
    public static func scan(_ query: Query) -> Found {
        var found = Found()
        var processes = 0, descriptors = 0
        let me = getpid()
        forEachNumericEntry(of: AT_FDCWD, "/proc") { pid, _ in
            if processes == query.limits.processes {
                found.bound = found.bound ?? .processes(limit: processes)
                return false
            }
            processes += 1
            guard pid != me else { return true }
            let more = scanProcess(pid, query, &found, &descriptors)
            return more && !(query.firstReaderOnly && !found.readers.isEmpty)
        }
        return found
    }

    /// One process: its executable, its descriptors, and what they make it. Returns false when
    /// the scan is to stop (the bound on all descriptors).
    private static func scanProcess(_ pid: Int32, _ query: Query, _ found: inout Found, _ descriptors: inout Int) -> Bool {
        let path = "/proc/\(pid)"
        guard let directory = try? syscall("open", path: path, onInterrupt: .retry, {
            open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }) else { return true }
        defer { try? FileDescriptor(rawValue: directory).close() }
        let executable = try? identity(at: directory, "exe")
        let daemon = executable.map(query.daemonExecutables.contains) ?? false
        var held = Set<DeviceNumber>(), holdsGuardDevice = false, seen = 0
        var more = true
        forEachNumericEntry(of: directory, "fd") { fd, dirfd in
            if descriptors == query.limits.descriptors {
                found.bound = found.bound ?? .allDescriptors(limit: descriptors)
                more = false
                return false
            }
            if seen == query.limits.descriptorsPerProcess {
                found.bound = found.bound ?? .descriptors(pid: pid, limit: seen)
                return false
            }
            seen += 1; descriptors += 1
            guard let device = try? characterDevice(at: dirfd, String(fd)) else { return true }
            if query.devices.contains(device) { held.insert(device) }
            if daemon && fd == CloneGuard.uinputDescriptor && device == query.guardHolds { holdsGuardDevice = true }
            return true
        }
        if holdsGuardDevice, let slots = guardSlots(arguments(at: directory)) {
            found.guards.append(DoctorFacts.Guard(pid: pid, slots: slots))
        }
        guard !held.isEmpty else { return more }
        let comm = (try? read(at: directory, "comm", limit: 64)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let command = comm.hasSuffix("\n") ? String(comm.dropLast()) : comm
        let seatManager = executable.map(query.seatManagerExecutables.contains) ?? false
        for device in held.sorted(by: { ($0.major, $0.minor) < ($1.major, $1.minor) }) {
            found.readers.append(Reader(pid: pid, device: device, command: command, executable: ProcessScan.executable(of: path + "/exe"),
                                        seatManager: seatManager))
        }
        return more
    }

    /// The slots of a guard's command line: `… clone-guard --slots N …`; nil for any other.
    public static func guardSlots(_ arguments: [String]) -> Int? {
        guard arguments.count >= 2, arguments[1] == "clone-guard",
              let k = arguments.firstIndex(of: "--slots"), k + 1 < arguments.count else { return nil }
        return Int(arguments[k + 1])
    }

    static func arguments(at directory: Int32) -> [String] {
        let cmdline = (try? read(at: directory, "cmdline", limit: 1 << 16)) ?? []
        return cmdline.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }

    /// `statx` of `name` in `directory`, following links, from cached attributes only (a FUSE
    /// or network file that does not answer cannot hold the scan) and without automounting.
    static func status(at directory: Int32, _ name: String) throws(SystemError) -> statx {
        var status = statx()
        try syscall("statx", path: name, onInterrupt: .retry) {
            statx(directory, name, GESTURED_AT_STATX_DONT_SYNC | GESTURED_AT_NO_AUTOMOUNT, UInt32(STATX_TYPE | STATX_INO), &status)
        }
        return status
    }

    /// The device number of the character device `name` in `directory` is (following links),
    /// nil when it is another kind of file.
    public static func characterDevice(at directory: Int32 = AT_FDCWD, _ name: String) throws(SystemError) -> DeviceNumber? {
        let status = try status(at: directory, name)
        guard UInt32(status.stx_mode) & UInt32(Glibc.S_IFMT) == UInt32(Glibc.S_IFCHR) else { return nil }
        return DeviceNumber(major: status.stx_rdev_major, minor: status.stx_rdev_minor)
    }

    /// The identity of the file `name` in `directory` is (following links).
    public static func identity(at directory: Int32 = AT_FDCWD, _ name: String) throws(SystemError) -> FileID {
        let status = try status(at: directory, name)
        return FileID(device: DeviceNumber(major: status.stx_dev_major, minor: status.stx_dev_minor), inode: status.stx_ino)
    }

    /// The identities of those of `paths` that exist.
    public static func identities(of paths: [String]) -> Set<FileID> {
        Set(paths.compactMap { try? identity($0) })
    }

    /// The device number in a sysfs device's `dev` attribute (`13:71`): the clone's own, as the
    /// kernel registered it.
    public static func deviceNumber(sysfsDevice syspath: String) -> DeviceNumber? {
        guard let text = try? readTextFile(path: syspath + "/dev", limit: 64) else { return nil }
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "\n" })
        guard parts.count == 2, let major = UInt32(parts[0]), let minor = UInt32(parts[1]) else { return nil }
        return DeviceNumber(major: major, minor: minor)
    }
}
