import CEvdev
import GesturedCore
import Glibc

/// A virtual touchscreen made through uinput that clones a real one: the same ids, axes (ranges,
/// fuzz, resolutions), slot count, keys and properties (`INPUT_PROP_DIRECT`), named
/// `<device name> (gestured)` (CONTRACT.md §4). The application uses it as its touchscreen;
/// the daemon writes to it the touches the application should get (docs/KIOSK.md).
///
/// The kernel destroys the device when the descriptor closes, also when the daemon is killed:
/// the clone never outlives the daemon.
public final class UinputClone {
    /// The longest name the kernel keeps for a uinput device (`CloneName.maximumBytes`).
    static let maximumNameBytes = CloneName.maximumBytes

    /// The clone's name for a device named `name`: `CloneName.of(name)`, the one function that
    /// makes it (the calibration's udev rule matches the clone by the same name).
    public static func name(cloning name: String) -> String { CloneName.of(name) }

    public let name: String
    /// The clone's event node (`/dev/input/eventN`), when the kernel says.
    public let devnode: String?
    /// The clone's sysfs path (`/sys/devices/virtual/input/inputN`), when the kernel says.
    public let syspath: String?
    /// Whether it has `BTN_TOUCH` (as its device does), for `CloneEncoder`.
    public let hasTouchButton: Bool
    /// The uinput descriptor (`CloneGuard` hands a duplicate to the clone's guard).
    let descriptor: FileDescriptor
    private var uinput: OpaquePointer?
    /// Reused for every write: one `write(2)` per batch of events.
    private var buffer: [input_event] = []

    /// Creates the clone of `device` through `/dev/uinput` (or `path`).
    ///
    /// Throws the `open` error (ENOENT: no uinput module; EACCES: no permission) or the
    /// creation's (`UI_DEV_CREATE`).
    public convenience init(cloning device: EvdevDevice, uinputPath path: String = "/dev/uinput") throws(SystemError) {
        guard let handle = device.handle else {
            throw SystemError(operation: "clone", path: device.path, errno: .badDescriptor)
        }
        try self.init(cloning: handle, uinputPath: path)
    }

    /// Creates the clone of the device libevdev describes by `source` (tests build one in memory).
    init(cloning source: OpaquePointer, uinputPath path: String) throws(SystemError) {
        let template = try Self.template(cloning: source)
        defer { libevdev_free(template) }
        name = libevdev_get_name(template).map { String(cString: $0) } ?? CloneName.suffix
        hasTouchButton = libevdev_has_event_code(template, UInt32(EV_KEY), UInt32(BTN_TOUCH)) != 0
        (descriptor, uinput) = try UinputClone.create(from: template, uinputPath: path)
        devnode = libevdev_uinput_get_devnode(uinput).map { String(cString: $0) }
        syspath = libevdev_uinput_get_syspath(uinput).map { String(cString: $0) }
        buffer.reserveCapacity(64)
    }

    deinit { close() }

    /// Writes `events` (whole frames, each ending with `SYN_REPORT`) in one `write(2)`. The
    /// kernel stamps them; their `time` is ignored.
    public func write(_ events: [RawEvent]) throws(SystemError) {
        guard uinput != nil else { return }
        try Self.write(events, to: descriptor, buffer: &buffer, name: devnode ?? "/dev/uinput")
    }

    /// Opens `/dev/uinput` (at `path`) and creates on it the device `template` describes: the
    /// descriptor and libevdev's handle, or the error, with the descriptor closed.
    static func create(from template: OpaquePointer, uinputPath path: String) throws(SystemError)
        -> (descriptor: FileDescriptor, uinput: OpaquePointer?) {
        let descriptor = try FileDescriptor.open(path, flags: O_RDWR | O_CLOEXEC)
        var uinput: OpaquePointer?
        do {
            try negativeErrno("UI_DEV_CREATE", path: path, libevdev_uinput_create_from_device(template, descriptor.rawValue, &uinput))
        } catch {
            try? descriptor.close()
            throw error
        }
        return (descriptor, uinput)
    }

    /// Writes `events` to the uinput descriptor `descriptor` in one `write(2)`, through `buffer`
    /// (reused); `name` names it in the error.
    static func write(_ events: [RawEvent], to descriptor: FileDescriptor, buffer: inout [input_event],
                      name: String) throws(SystemError) {
        guard !events.isEmpty else { return }
        buffer.removeAll(keepingCapacity: true)
        for e in events {
            var event = input_event()
            event.type = e.type; event.code = e.code; event.value = e.value
            buffer.append(event)
        }
        let size = buffer.count * MemoryLayout<input_event>.stride
        // A uinput write is all or nothing; EINTR (a signal before anything was written) retries.
        try syscall("write", path: name, onInterrupt: .retry) {
            buffer.withUnsafeBytes { Glibc.write(descriptor.rawValue, $0.baseAddress, size) }
        }
    }

    /// Destroys the clone (`UI_DEV_DESTROY`) and closes the descriptor; the application sees the
    /// device go. Idempotent.
    public func close() {
        guard let uinput else { return }
        libevdev_uinput_destroy(uinput)
        self.uinput = nil
        try? descriptor.close()
    }

    /// Closes the descriptor without destroying the clone: its guard (`CloneGuard`), which holds
    /// a duplicate, ends its touches and lets the kernel destroy it when it closes its own.
    /// Idempotent; `close` after it does nothing.
    public func detach() {
        guard let uinput else { return }
        // libevdev_uinput_destroy always issues UI_DEV_DESTROY on the descriptor number it was
        // given, which would destroy the clone under the guard too (the ioctl acts on the shared
        // open file). Pointing that number at /dev/null first makes the ioctl fail harmlessly
        // (ENOTTY) and drops this process's reference to the uinput file in the same step.
        if let null = try? FileDescriptor.open("/dev/null", flags: O_RDWR) {
            _ = try? syscall("dup2", onInterrupt: .retry) { dup2(null.rawValue, descriptor.rawValue) }
            _ = try? syscall("fcntl(F_SETFD)", onInterrupt: .retry) { fcntl(descriptor.rawValue, F_SETFD, FD_CLOEXEC) }
            try? null.close()
            libevdev_uinput_destroy(uinput)
        }
        // Without /dev/null, libevdev's small struct is left allocated rather than the clone destroyed.
        self.uinput = nil
        try? descriptor.close()
    }
}

extension UinputClone {
    /// A libevdev description of `device` for its clone: everything the device has, renamed
    /// with `CloneName.suffix`, on `BUS_VIRTUAL`, plus `ABS_MT_TOOL_TYPE` (finger to palm is how a
    /// touch is cancelled in libinput) and a tracking id range of 0...65535 (the clone numbers
    /// its own touches, `CloneEncoder`). The caller frees it.
    static func template(cloning device: OpaquePointer) throws(SystemError) -> OpaquePointer {
        guard let template = libevdev_new() else {
            throw SystemError(operation: "libevdev_new", errno: .outOfMemory)
        }
        libevdev_set_name(template, Self.name(cloning: libevdev_get_name(device).map { String(cString: $0) } ?? "touchscreen"))
        libevdev_set_id_bustype(template, BUS_VIRTUAL)
        libevdev_set_id_vendor(template, libevdev_get_id_vendor(device))
        libevdev_set_id_product(template, libevdev_get_id_product(device))
        libevdev_set_id_version(template, libevdev_get_id_version(device))
        for property in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(device, property) != 0 {
            libevdev_enable_property(template, property)
        }
        for code in 0..<UInt32(KEY_CNT) where libevdev_has_event_code(device, UInt32(EV_KEY), code) != 0 {
            libevdev_enable_event_code(template, UInt32(EV_KEY), code, nil)
        }
        for code in 0..<UInt32(ABS_CNT) where libevdev_has_event_code(device, UInt32(EV_ABS), code) != 0 {
            guard var info = libevdev_get_abs_info(device, code)?.pointee else { continue }
            if code == UInt32(ABS_MT_TRACKING_ID) { info.minimum = 0; info.maximum = 0xFFFF }
            libevdev_enable_event_code(template, UInt32(EV_ABS), code, &info)
        }
        if libevdev_has_event_code(template, UInt32(EV_ABS), UInt32(ABS_MT_TOOL_TYPE)) == 0 {
            var tool = input_absinfo(value: 0, minimum: 0, maximum: Int32(MT_TOOL_MAX), fuzz: 0, flat: 0, resolution: 0)
            libevdev_enable_event_code(template, UInt32(EV_ABS), UInt32(ABS_MT_TOOL_TYPE), &tool)
        }
        return template
    }
}
