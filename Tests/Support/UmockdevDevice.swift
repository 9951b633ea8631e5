import GesturedCore
import GesturedEvemu

/// Turns an evemu device description into the files `umockdev-run` needs to emulate it:
/// a `.umockdev` (sysfs and udev) and an `.ioctl` (the evdev ioctls libevdev issues).
///
/// Facts this relies on (docs/TESTING.md, and checked with `UMOCKDEV_DEBUG=all`): umockdev
/// answers an ioctl only when the recorded buffer has the length the caller asks for, so every
/// `EVIOCGBIT` uses libevdev's buffer size for that type (not the description's), the
/// `EVIOCGNAME`/`PHYS`/`UNIQ` buffers are 255 bytes, and `EVIOCGMTSLOTS` is recorded with
/// libevdev's 256-slot buffer (1028 bytes). `EVIOCGLED` and `EVIOCGSW` must be present even for
/// devices without LEDs or switches, or libevdev's setup fails.
public enum UmockdevDevice {
    /// libevdev's `EVIOCGBIT` buffer sizes in bytes, by event type.
    static let bitBufferSizes: [(type: UInt16, bytes: Int)] = [
        (0x00, 8), (0x01, 96), (0x02, 8), (0x03, 8), (0x04, 8), (0x05, 8),
        (0x11, 8), (0x12, 8), (0x14, 8), (0x15, 16),
    ]
    static let nameBufferSize = 255
    static let maxSlots = 256
    static let evdevMajor = 13
    static let eventMinorBase = 64

    /// The udev properties a touchscreen (INPUT_PROP_DIRECT) or a touchpad gets from
    /// `60-input-id.rules`.
    public static func defaultProperties(for description: EvemuDescription) -> [String: String] {
        let direct = description.hasProperty(EventCode.INPUT_PROP_DIRECT)
        return ["ID_INPUT": "1", direct ? "ID_INPUT_TOUCHSCREEN" : "ID_INPUT_TOUCHPAD": "1"]
    }

    /// - Parameters:
    ///   - description: the device.
    ///   - node: its device node, the same in all three files (`-i`, `-e` of `umockdev-run`).
    ///   - sysname: defaults to the node's last path component.
    ///   - properties: udev properties of the event node; nil gives `defaultProperties`.
    public static func files(for description: EvemuDescription, node: String = "/dev/input/event7",
                             sysname: String? = nil, properties: [String: String]? = nil)
        -> (umockdev: String, ioctl: String) {
        let sysname = sysname ?? String(node.split(separator: "/").last ?? "event7")
        return (umockdevText(description, node: node, sysname: sysname,
                             properties: properties ?? defaultProperties(for: description)),
                ioctlText(description, node: node))
    }

    static func umockdevText(_ description: EvemuDescription, node: String, sysname: String,
                             properties: [String: String]) -> String {
        let number = Int(sysname.drop { !$0.isNumber }) ?? 0
        let parent = "/devices/virtual/input/input\(number)"
        let dev = "\(evdevMajor):\(eventMinorBase + number)"
        let relativeNode = node.hasPrefix("/dev/") ? String(node.dropFirst(5)) : node
        var lines = [
            "P: \(parent)/\(sysname)",
            "N: \(relativeNode)",
            "E: DEVNAME=\(node)",
            "E: MAJOR=\(evdevMajor)",
            "E: MINOR=\(eventMinorBase + number)",
            "E: SUBSYSTEM=input",
        ]
        for key in properties.keys.sorted() where !["DEVNAME", "MAJOR", "MINOR", "SUBSYSTEM"].contains(key) {
            lines.append("E: \(key)=\(properties[key]!)")
        }
        lines.append("A: dev=\(dev)")
        lines.append("")
        let ids = [description.bustype, description.vendor, description.product, description.version]
        // A name with control bytes (a hostile device's, for the escaping tests) is written as
        // hex (`H:`), which the text form's lines could not hold; its property without them.
        let plain = !description.name.utf8.contains { $0 < 0x20 || $0 == 0x7f || $0 == UInt8(ascii: "\\") }
        let property = String(decoding: description.name.utf8.map { $0 < 0x20 || $0 == 0x7f ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
        lines += [
            "P: \(parent)",
            "E: NAME=\"\(property)\"",
            "E: PRODUCT=\(ids.map { String($0, radix: 16) }.joined(separator: "/"))",
            "E: SUBSYSTEM=input",
            plain ? "A: name=\(description.name)" : "H: name=\(hex(Array(description.name.utf8)))",
            "A: phys=",
            "A: uniq=",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    static func ioctlText(_ description: EvemuDescription, node: String) -> String {
        var lines = ["@DEV \(node)"]
        for (type, size) in bitBufferSizes {
            lines.append("EVIOCGBIT(\(type)) \(size) \(hex(padded(description.bits[type] ?? [], to: size)))")
        }
        let name = padded(Array(description.name.utf8.prefix(nameBufferSize - 1)), to: nameBufferSize)
        lines.append("EVIOCGNAME(0) \(nameBufferSize) \(hex(name))")
        lines.append("EVIOCGPHYS(0) \(nameBufferSize) \(hex(padded([], to: nameBufferSize)))")
        lines.append("EVIOCGUNIQ(0) \(nameBufferSize) \(hex(padded([], to: nameBufferSize)))")
        let id = [description.bustype, description.vendor, description.product, description.version]
            .flatMap(littleEndian)
        lines.append("EVIOCGID 0 \(hex(id))")
        lines.append("EVIOCGVERSION 0 \(hex(littleEndian(Int32(0x010001))))")
        lines.append("EVIOCGPROP(0) 8 \(hex(padded(description.properties, to: 8)))")
        lines.append("EVIOCGKEY(0) 96 \(hex(padded([], to: 96)))")
        lines.append("EVIOCGLED(0) 8 \(hex(padded([], to: 8)))")
        lines.append("EVIOCGSW(0) 8 \(hex(padded([], to: 8)))")
        for code in description.axes.keys.sorted() {
            let axis = description.axes[code]!
            let info = [0, axis.minimum, axis.maximum, axis.fuzz, axis.flat, axis.resolution].flatMap(littleEndian)
            lines.append(code == 0 ? "EVIOCGABS 0 \(hex(info))" : "EVIOCGABS(\(code)) 0 \(hex(info))")
        }
        if description.axes[EventCode.ABS_MT_SLOT] != nil {
            // One record per MT axis but ABS_MT_SLOT: the axis code, then one value per slot
            // (no touch: tracking id -1, everything else 0).
            for code in description.axes.keys.sorted() where code > EventCode.ABS_MT_SLOT && code <= 0x3f {
                let value: Int32 = code == EventCode.ABS_MT_TRACKING_ID ? -1 : 0
                let record = littleEndian(UInt32(code)) + Array(repeating: littleEndian(value), count: maxSlots).flatMap { $0 }
                lines.append("EVIOCGMTSLOTS(0) 0 \(hex(record))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func padded(_ bytes: [UInt8], to size: Int) -> [UInt8] {
        Array(bytes.prefix(size)) + Array(repeating: 0, count: max(0, size - bytes.count))
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
