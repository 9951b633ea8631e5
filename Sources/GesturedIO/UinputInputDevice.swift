import CEvdev
import GesturedCore
import Glibc

/// The virtual device `gestured input` (CONTRACT.md §7) that gestures' input actions write to:
/// exactly the keys, buttons and wheels `InputCapabilities` lists, and an absolute pointer
/// spanning one screen in points, shaped like QEMU's USB tablet (`ABS_X`/`ABS_Y`, `BTN_LEFT`…,
/// `REL_WHEEL`…, no input property) which libinput, every compositor and X take as a mouse.
///
/// The kernel destroys it when the descriptor closes, also when the daemon is killed; every key
/// and button an action presses is released in the same `write(2)` (`InputEncoder`), so a crash
/// cannot leave one down.
public final class UinputInputDevice {
    public static let name = "gestured input"

    public let capabilities: InputCapabilities
    /// The screen size the pointer's axes span.
    public let screen: Size
    /// Its event node (`/dev/input/eventN`), when the kernel says.
    public let devnode: String?
    private let descriptor: FileDescriptor
    private var uinput: OpaquePointer?
    private var buffer: [input_event] = []

    /// Creates the device through `/dev/uinput` (or `path`).
    ///
    /// Throws the `open` error (ENOENT: no uinput module; EACCES: no permission, the service
    /// without its grant) or the creation's (`UI_DEV_CREATE`).
    public init(_ capabilities: InputCapabilities, screen: Size, uinputPath path: String = "/dev/uinput") throws(SystemError) {
        self.capabilities = capabilities
        self.screen = screen
        guard let template = libevdev_new() else { throw SystemError(operation: "libevdev_new", errno: .outOfMemory) }
        defer { libevdev_free(template) }
        libevdev_set_name(template, Self.name)
        libevdev_set_id_bustype(template, BUS_VIRTUAL)
        for code in capabilities.keys + capabilities.buttons {
            libevdev_enable_event_code(template, UInt32(EV_KEY), UInt32(code), nil)
        }
        if capabilities.pointer {
            let maximum = InputEncoder(screen: screen).axisMaximum
            for (code, top) in [(ABS_X, maximum.x), (ABS_Y, maximum.y)] {
                var info = input_absinfo(value: 0, minimum: 0, maximum: top, fuzz: 0, flat: 0, resolution: 0)
                libevdev_enable_event_code(template, UInt32(EV_ABS), UInt32(code), &info)
            }
        }
        var wheels: [Int32] = []
        if capabilities.verticalWheel { wheels += [REL_WHEEL, REL_WHEEL_HI_RES] }
        if capabilities.horizontalWheel { wheels += [REL_HWHEEL, REL_HWHEEL_HI_RES] }
        for code in wheels { libevdev_enable_event_code(template, UInt32(EV_REL), UInt32(code), nil) }

        (descriptor, uinput) = try UinputClone.create(from: template, uinputPath: path)
        devnode = libevdev_uinput_get_devnode(uinput).map { String(cString: $0) }
        buffer.reserveCapacity(32)
    }

    deinit { close() }

    /// Writes whole frames in one `write(2)` (all or nothing for uinput).
    public func write(_ events: [RawEvent]) throws(SystemError) {
        guard uinput != nil else { return }
        try UinputClone.write(events, to: descriptor, buffer: &buffer, name: devnode ?? "/dev/uinput")
    }

    /// Destroys the device; idempotent.
    public func close() {
        guard let uinput else { return }
        libevdev_uinput_destroy(uinput)
        self.uinput = nil
        try? descriptor.close()
    }
}
