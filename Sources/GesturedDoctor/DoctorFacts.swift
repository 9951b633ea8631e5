import GesturedCore

/// What `gestured doctor` gathered on the machine, with no judgement yet: the socket, the
/// caller, the devices udev lists, the clones and who reads them, the guards, the
/// configuration's warnings. `DoctorFacts.checks()` (DoctorChecks.swift) judges them, so every
/// verdict is testable with made-up facts.
public struct DoctorFacts: Equatable, Sendable {
    public struct Socket: Equatable, Sendable {
        public enum Reach: Equatable, Sendable {
            case connected
            /// No file at the path.
            case missing
            /// A file, but nobody listens (`ECONNREFUSED`).
            case refused
            /// The caller may not open it (`EACCES`, `EPERM`).
            case denied
            case failed(String)
        }
        public var path: String
        public var reach: Reach
        /// Owner, group and permission bits (nil when the path could not be looked at).
        public var owner: String?
        public var group: String?
        public var mode: UInt32?
        public init(path: String, reach: Reach, owner: String? = nil, group: String? = nil, mode: UInt32? = nil) {
            self.path = path; self.reach = reach; self.owner = owner; self.group = group; self.mode = mode
        }
    }

    public struct Caller: Equatable, Sendable {
        public var uid: UInt32
        public var name: String
        public init(uid: UInt32, name: String) { self.uid = uid; self.name = name }
    }

    /// An input device udev lists, as `gestured devices` judges it.
    public struct Device: Equatable, Sendable {
        public var sysname: String
        public var name: String
        public var kind: DeviceKind
        public var used: Bool
        /// `gestured devices`' decision: `used (devices[0])`, `not used (…)`, ….
        public var decision: String
        /// The index of a rule with `ignore: true` that matches it.
        public var ignoredBy: Int?
        /// Why it could not be opened, when it could not.
        public var openError: String?
        public init(sysname: String, name: String, kind: DeviceKind, used: Bool, decision: String,
                    ignoredBy: Int? = nil, openError: String? = nil) {
            self.sysname = sysname; self.name = name; self.kind = kind; self.used = used; self.decision = decision
            self.ignoredBy = ignoredBy; self.openError = openError
        }
    }

    /// A process with the clone's event node open.
    public struct Reader: Equatable, Sendable {
        public var pid: Int32
        /// `/proc/PID/comm`: for the messages only, never a judgement (any process names itself).
        public var command: String
        /// The Debian package that owns its executable, and the package's version, where dpkg knows.
        public var package: String?
        public var version: String?
        /// Whether its executable is one of `seatManagerExecutables` (the same file: device and
        /// inode), a program that holds input devices for the compositor.
        public var seatManager: Bool
        public init(pid: Int32, command: String, package: String? = nil, version: String? = nil, seatManager: Bool = false) {
            self.pid = pid; self.command = command; self.package = package; self.version = version; self.seatManager = seatManager
        }
    }

    /// A panel used under a `passThrough` rule, and its clone.
    public struct Clone: Equatable, Sendable {
        /// The panel's name.
        public var device: String
        public var rule: Int
        public var cancelStyle: CancelStyle
        /// The clone's slots (what its guard is started with).
        public var slots: Int
        /// The clone's `/dev/input/eventN`, nil when udev lists no clone of the panel.
        public var clone: String?
        /// Every process with the clone open, seat managers included (the checks leave them out).
        public var readers: [Reader]
        public init(device: String, rule: Int, cancelStyle: CancelStyle, slots: Int, clone: String?, readers: [Reader] = []) {
            self.device = device; self.rule = rule; self.cancelStyle = cancelStyle; self.slots = slots
            self.clone = clone; self.readers = readers
        }
    }

    /// A running `gestured clone-guard`.
    public struct Guard: Equatable, Sendable {
        public var pid: Int32
        public var slots: Int
        public init(pid: Int32, slots: Int) { self.pid = pid; self.slots = slots }
    }

    public var socket: Socket
    public var caller: Caller
    public var devices: [Device]
    /// Whether a device rule has `passThrough` (the daemon then needs /dev/uinput).
    public var needsUinput: Bool
    public var uinputPresent: Bool
    public var clones: [Clone]
    public var guards: [Guard]
    /// check-config's warnings, as it prints them (`FILE:L:C: KEYPATH: MESSAGE`).
    public var configWarnings: [String]
    /// check-config's errors: the configuration is invalid, and nothing that depends on it
    /// (devices, uinput, clones) was gathered.
    public var configErrors: [String] = []
    /// Why udev could not list the input devices, when it could not.
    public var udevError: String?
    /// The bound the scan of /proc reached, when it reached one: readers and guards past it
    /// were not seen.
    public var scanBound: ScanBound?

    public init(socket: Socket, caller: Caller, devices: [Device] = [], needsUinput: Bool = false, uinputPresent: Bool = true,
                clones: [Clone] = [], guards: [Guard] = [], configWarnings: [String] = []) {
        self.socket = socket; self.caller = caller; self.devices = devices; self.needsUinput = needsUinput
        self.uinputPresent = uinputPresent; self.clones = clones; self.guards = guards; self.configWarnings = configWarnings
    }

    /// Where the programs that hold input devices for the compositor, not readers of their own,
    /// are installed (seatd: Debian's in /usr/sbin, other distributions' in /usr/bin; systemd-logind
    /// in /usr/lib, and in /lib before the /usr merge). A
    /// reader is one of them when its executable is the same file as one of these, whatever it
    /// calls itself.
    public static let seatManagerExecutables = ["/usr/sbin/seatd", "/usr/bin/seatd", "/usr/lib/systemd/systemd-logind", "/lib/systemd/systemd-logind"]

    /// A bound of the scan of /proc (`ProcessScan.Limits`) that was reached.
    public enum ScanBound: Equatable, Sendable {
        /// `limit` processes looked at, more not.
        case processes(limit: Int)
        /// `limit` of one process's descriptors looked at, more not.
        case descriptors(pid: Int32, limit: Int)
        /// `limit` descriptors looked at in all; the scan stopped there.
        case allDescriptors(limit: Int)
    }
}
