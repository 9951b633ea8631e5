import CEvdev
import CUdev
import GesturedCore
import GesturedEvemu
import GesturedIO
import Glibc

/// A kernel input device made from an evemu description with libevdev's uinput API, and the
/// player that writes a recording's events into it with their original timing.
///
/// Needs `/dev/uinput` (root, and the `uinput` module): only the QEMU guest of `make test-vm`
/// has it here (docs/VM-TESTS.md). The kernel stamps what is written with its own clock, so a
/// reader sees the moment of the write, not the recording's timestamps.
public final class UinputDevice {
    /// `/dev/input/event5`.
    public let devnode: String
    /// `/sys/devices/virtual/input/input12`.
    public let syspath: String
    public let name: String
    private var uinput: OpaquePointer?
    private var template: OpaquePointer?

    /// `event5`.
    public var sysname: String { String(devnode.split(separator: "/").last ?? "") }

    /// Creates the device: every event type and code of `description` (with its axes' ranges),
    /// its input properties and ids; `name` replaces the description's name.
    ///
    /// - Parameter udevDeadline: when given, waits (polling a udev monitor opened before the
    ///   device is created, so the event cannot be missed) until udevd has processed the new
    ///   event node, i.e. its properties such as `ID_INPUT_TOUCHSCREEN` are in udev's database.
    ///   Throws `ETIMEDOUT` when the deadline passes first.
    public init(_ description: EvemuDescription, name: String? = nil, udevDeadline: Instant? = nil) throws(SystemError) {
        self.name = name ?? description.name
        let monitor = try udevDeadline.map { _ throws(SystemError) in try UdevInputMonitor() }
        guard let device = libevdev_new() else { throw SystemError(operation: "libevdev_new", errno: .current) }
        template = device
        libevdev_set_name(device, self.name)
        libevdev_set_id_bustype(device, Int32(description.bustype))
        libevdev_set_id_vendor(device, Int32(description.vendor))
        libevdev_set_id_product(device, Int32(description.product))
        libevdev_set_id_version(device, Int32(description.version))
        for property in 0..<UInt16(description.properties.count * 8) where description.hasProperty(property) {
            libevdev_enable_property(device, UInt32(property))
        }
        // EV_SYN codes come with the device; EV_REP needs its delay and period, and no recording
        // of a touch device has it.
        let repeatType: UInt16 = 0x14
        for type in description.bits.keys.sorted() where type != 0 && type != repeatType && description.hasType(type) {
            let mask = description.bits[type] ?? []
            for code in 0..<UInt16(min(mask.count * 8, 0x300)) where description.hasCode(type: type, code: code) {
                if type == EventCode.EV_ABS {
                    let axis = description.axes[code] ?? AxisInfo(minimum: 0, maximum: 0, fuzz: 0, flat: 0, resolution: 0)
                    var info = input_absinfo(value: axis.minimum, minimum: axis.minimum, maximum: axis.maximum,
                                             fuzz: axis.fuzz, flat: axis.flat, resolution: axis.resolution)
                    libevdev_enable_event_code(device, UInt32(type), UInt32(code), &info)
                } else {
                    libevdev_enable_event_code(device, UInt32(type), UInt32(code), nil)
                }
            }
        }
        var created: OpaquePointer?
        let status = libevdev_uinput_create_from_device(device, Int32(LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue), &created)
        guard status == 0, let created else {
            libevdev_free(device)
            template = nil
            throw SystemError(operation: "libevdev_uinput_create_from_device", path: "/dev/uinput",
                              errno: Errno(rawValue: -status))
        }
        uinput = created
        devnode = libevdev_uinput_get_devnode(created).map { String(cString: $0) } ?? ""
        syspath = libevdev_uinput_get_syspath(created).map { String(cString: $0) } ?? ""
        if devnode.isEmpty {
            destroy()
            throw SystemError(operation: "libevdev_uinput_get_devnode", errno: .noSuchFile)
        }
        if let monitor, let udevDeadline {
            do { try monitor.waitForAdd(sysname: sysname, deadline: udevDeadline) } catch {
                destroy()
                throw error
            }
        }
    }

    deinit { destroy() }

    /// Writes one event (the kernel delivers a frame to readers at its `SYN_REPORT`).
    public func write(type: UInt16, code: UInt16, value: Int32) throws(SystemError) {
        guard let uinput else { throw SystemError(operation: "libevdev_uinput_write_event", path: devnode, errno: .noDevice) }
        let status = libevdev_uinput_write_event(uinput, UInt32(type), UInt32(code), value)
        if status < 0 {
            throw SystemError(operation: "libevdev_uinput_write_event", path: devnode, errno: Errno(rawValue: -status))
        }
    }

    /// Writes `events` and a `SYN_REPORT`.
    public func frame(_ events: [(type: UInt16, code: UInt16, value: Int32)]) throws(SystemError) {
        for event in events { try write(type: event.type, code: event.code, value: event.value) }
        try write(type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)
    }

    /// Writes `events` and a `SYN_REPORT` in one `write(2)` on the uinput descriptor: the kernel
    /// handles them in order as if written one by one, for one system call instead of one per
    /// event (under emulation a system call costs ~0.1 ms, so a ten-finger frame of 33 events
    /// would take longer to write than a 250 Hz panel's interval).
    public func write(frame events: [(type: UInt16, code: UInt16, value: Int32)]) throws(SystemError) {
        guard let uinput else { throw SystemError(operation: "write", path: devnode, errno: .noDevice) }
        var buffer = events.map { input_event(time: timeval(), type: $0.type, code: $0.code, value: $0.value) }
        buffer.append(input_event(time: timeval(), type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
        let size = buffer.count * MemoryLayout<input_event>.stride
        while true {
            let written = buffer.withUnsafeBytes { Glibc.write(libevdev_uinput_get_fd(uinput), $0.baseAddress, size) }
            if written == size { return }
            if written < 0 && Errno.current == .interrupted { continue }
            throw SystemError(operation: "write (\(buffer.count) events)", path: devnode,
                              errno: written < 0 ? .current : Errno(rawValue: EIO))
        }
    }

    /// Plays `events` (a recording's `E:` lines) with their original timing divided by `speed`;
    /// `speed` 0 writes them all at once. With `skipIdleStart`, frames before the first one that
    /// carries anything but `SYN_REPORT` are skipped, and timing starts there.
    ///
    /// Each frame is written at its due time, on a timerfd armed at that absolute CLOCK_MONOTONIC
    /// instant (`DeadlineTimer`, the daemon's own): this reproduces a recording's timing, and is
    /// not a test waiting for something to happen.
    public func play(_ events: [RawEvent], speed: Double = 1, skipIdleStart: Bool = false) throws(SystemError) {
        var events = events[...]
        if skipIdleStart, let first = events.firstIndex(where: { $0.type != EventCode.EV_SYN }) {
            // Back to the start of that frame.
            var start = first
            while start > events.startIndex, events[start - 1].type != EventCode.EV_SYN { start -= 1 }
            events = events[start...]
        }
        guard let origin = events.first?.time else { return }
        let timer = speed > 0 ? try DeadlineTimer() : nil
        defer { try? timer?.close() }
        let start = MonotonicClock.now()
        var frameDue = true
        for event in events {
            if frameDue, let timer {
                let offset = Double((event.time - origin).microseconds) / speed
                try Self.wait(on: timer, until: start + Interval(microseconds: Int64(offset)))
            }
            try write(type: event.type, code: event.code, value: event.value)
            frameDue = event.type == EventCode.EV_SYN && event.code == EventCode.SYN_REPORT
        }
    }

    /// Blocks until `instant` on CLOCK_MONOTONIC: the timer armed there, its descriptor polled
    /// until it fires (replay timing; see `play`). An instant already past returns at once.
    public static func wait(on timer: DeadlineTimer, until instant: Instant) throws(SystemError) {
        guard MonotonicClock.now() < instant else { return }
        try timer.arm(at: instant)
        var descriptor = pollfd(fd: timer.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, -1) < 0 {
            guard errno == EINTR else { throw SystemError(operation: "poll", errno: .current) }
        }
        _ = try timer.acknowledge()
    }

    /// Removes the device from the kernel (readers get `ENODEV`). Safe to call twice.
    public func destroy() {
        if let uinput { libevdev_uinput_destroy(uinput) }
        uinput = nil
        if let template { libevdev_free(template) }
        template = nil
    }
}

/// A libudev monitor on udevd's netlink group for the `input` subsystem: events arrive only
/// after udevd has processed a device, so its database entry exists by then.
public final class UdevInputMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer

    public init() throws(SystemError) {
        guard let udev = udev_new() else { throw SystemError(operation: "udev_new", errno: .current) }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            throw SystemError(operation: "udev_monitor_new_from_netlink", errno: .current)
        }
        self.udev = udev
        self.monitor = monitor
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        let status = udev_monitor_enable_receiving(monitor)
        if status < 0 {
            throw SystemError(operation: "udev_monitor_enable_receiving", errno: Errno(rawValue: -status))
        }
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Waits for an `action` event for `sysname` (poll() with the deadline; no sleeping).
    public func wait(action: String, sysname: String, deadline: Instant) throws(SystemError) {
        let fd = udev_monitor_get_fd(monitor)
        while true {
            while let device = udev_monitor_receive_device(monitor) {
                defer { udev_device_unref(device) }
                let name = udev_device_get_sysname(device).map { String(cString: $0) }
                let seen = udev_device_get_action(device).map { String(cString: $0) }
                if name == sysname && seen == action { return }
            }
            let remaining = (deadline - MonotonicClock.now()).microseconds / 1000
            if remaining <= 0 { throw SystemError(operation: "udev \(action) \(sysname)", errno: Errno(rawValue: ETIMEDOUT)) }
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&pollFD, 1, Int32(min(remaining, 60_000)))
        }
    }

    public func waitForAdd(sysname: String, deadline: Instant) throws(SystemError) {
        try wait(action: "add", sysname: sysname, deadline: deadline)
    }
}
