import CUdev
import Glibc

/// An input event node as udev describes it.
public struct InputDeviceInfo: Hashable, Sendable {
    /// `event5`: the `device` field of protocol lines.
    public var sysname: String
    /// `/dev/input/event5`.
    public var devnode: String
    /// `/sys/devices/.../input/input12/event5`.
    public var syspath: String
    /// The parent input device's `name` attribute (or its `NAME` property, unquoted).
    public var name: String
    /// Every udev property (`ID_INPUT_TOUCHSCREEN`, `ID_INPUT_TOUCHPAD`,
    /// `LIBINPUT_CALIBRATION_MATRIX`, ...).
    public var properties: [String: String]
    /// Whether udev has processed the device. Under umockdev this is false although the
    /// properties are present: report it, and let the executable decide (see TESTING.md).
    public var isInitialized: Bool

    public init(sysname: String, devnode: String, syspath: String, name: String,
                properties: [String: String], isInitialized: Bool) {
        self.sysname = sysname; self.devnode = devnode; self.syspath = syspath; self.name = name
        self.properties = properties; self.isInitialized = isInitialized
    }

    public var isTouchscreen: Bool { properties["ID_INPUT_TOUCHSCREEN"] == "1" }
    public var isTouchpad: Bool { properties["ID_INPUT_TOUCHPAD"] == "1" }
}

/// Lists the input event nodes through libudev.
public enum UdevEnumerator {
    /// Every `input` device whose node is `/dev/input/event*`, sorted by sysname.
    public static func inputDevices() throws(SystemError) -> [InputDeviceInfo] {
        let udev = try syscall("udev_new") { udev_new() }
        defer { udev_unref(udev) }
        let enumerate = try syscall("udev_enumerate_new") { udev_enumerate_new(udev) }
        defer { udev_enumerate_unref(enumerate) }
        _ = try negativeErrno("udev_enumerate_add_match_subsystem", udev_enumerate_add_match_subsystem(enumerate, "input"))
        _ = try negativeErrno("udev_enumerate_scan_devices", udev_enumerate_scan_devices(enumerate))

        var devices: [InputDeviceInfo] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            guard let syspathPointer = udev_list_entry_get_name(current),
                  let device = udev_device_new_from_syspath(udev, syspathPointer) else { continue }
            defer { udev_device_unref(device) }
            if let info = info(device) { devices.append(info) }
        }
        return devices.sorted { $0.sysname.count != $1.sysname.count ? $0.sysname.count < $1.sysname.count
                                                                       : $0.sysname < $1.sysname }
    }

    /// The description of one udev device, or nil when it is not an event node.
    static func info(_ device: OpaquePointer) -> InputDeviceInfo? {
        guard let devnodePointer = udev_device_get_devnode(device) else { return nil }
        let devnode = String(cString: devnodePointer)
        guard devnode.hasPrefix("/dev/input/event") else { return nil }
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            guard let key = udev_list_entry_get_name(current) else { continue }
            properties[String(cString: key)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
        }
        return InputDeviceInfo(
            sysname: udev_device_get_sysname(device).map { String(cString: $0) } ?? "",
            devnode: devnode,
            syspath: udev_device_get_syspath(device).map { String(cString: $0) } ?? "",
            name: name(device),
            properties: properties,
            isInitialized: udev_device_get_is_initialized(device) != 0)
    }

    /// The parent's `name` sysfs attribute; else its `NAME` property without the quotes udev
    /// keeps around it; else "".
    private static func name(_ device: OpaquePointer) -> String {
        // The parent is owned by the child: not unreferenced here.
        guard let parent = udev_device_get_parent(device) else { return "" }
        if let attribute = udev_device_get_sysattr_value(parent, "name") {
            var name = String(cString: attribute)
            while name.last == "\n" { name.removeLast() }
            return name
        }
        if let property = udev_device_get_property_value(parent, "NAME") {
            var name = Substring(String(cString: property))
            if name.count >= 2 && name.first == "\"" && name.last == "\"" { name = name.dropFirst().dropLast() }
            return String(name)
        }
        return ""
    }
}
