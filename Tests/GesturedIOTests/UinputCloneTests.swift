import CEvdev
@testable import GesturedIO
import GesturedCore
import Glibc
import Testing

/// What a clone is made of, from a libevdev device built in memory (creating one needs
/// /dev/uinput: the kernel guest's tests do that, see GesturedVMTests/PassThroughVMTests).
struct UinputCloneTests {
    /// A 10-slot panel with resolutions, `INPUT_PROP_DIRECT` and `BTN_TOUCH`, and no tool type.
    static func panel() -> OpaquePointer {
        let device = libevdev_new()!
        libevdev_set_name(device, "ILITEK Multi-Touch")
        libevdev_set_id_vendor(device, 0x222a)
        libevdev_set_id_product(device, 0x0001)
        libevdev_enable_property(device, UInt32(INPUT_PROP_DIRECT))
        libevdev_enable_event_code(device, UInt32(EV_KEY), UInt32(BTN_TOUCH), nil)
        func axis(_ code: Int32, _ max: Int32, resolution: Int32 = 0) {
            var info = input_absinfo(value: 0, minimum: 0, maximum: max, fuzz: 0, flat: 0, resolution: resolution)
            libevdev_enable_event_code(device, UInt32(EV_ABS), UInt32(code), &info)
        }
        axis(ABS_X, 4095, resolution: 16); axis(ABS_Y, 2047, resolution: 16)
        axis(ABS_MT_SLOT, 9)
        axis(ABS_MT_POSITION_X, 4095, resolution: 16); axis(ABS_MT_POSITION_Y, 2047, resolution: 16)
        axis(ABS_MT_TRACKING_ID, 255)
        return device
    }

    @Test func theTemplateCopiesAxesSlotsAndPropertiesAndAddsTheToolType() throws {
        let source = Self.panel()
        defer { libevdev_free(source) }
        let clone = try UinputClone.template(cloning: source)
        defer { libevdev_free(clone) }
        #expect(String(cString: libevdev_get_name(clone)) == "ILITEK Multi-Touch (gestured)")
        #expect(libevdev_get_id_vendor(clone) == 0x222a && libevdev_get_id_product(clone) == 0x0001)
        #expect(libevdev_get_id_bustype(clone) == BUS_VIRTUAL)
        #expect(libevdev_has_property(clone, UInt32(INPUT_PROP_DIRECT)) == 1)
        #expect(libevdev_has_event_code(clone, UInt32(EV_KEY), UInt32(BTN_TOUCH)) == 1)
        #expect(libevdev_get_num_slots(clone) == 10)
        for code in [ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y] {
            let a = libevdev_get_abs_info(source, UInt32(code))!.pointee, b = libevdev_get_abs_info(clone, UInt32(code))!.pointee
            #expect((a.minimum, a.maximum, a.resolution) == (b.minimum, b.maximum, b.resolution), "axis \(code)")
        }
        let tool = try #require(libevdev_get_abs_info(clone, UInt32(ABS_MT_TOOL_TYPE))?.pointee)
        #expect(tool.maximum >= 2, "MT_TOOL_PALM must be writable")
        #expect(libevdev_get_abs_info(clone, UInt32(ABS_MT_TRACKING_ID))!.pointee.maximum == 0xFFFF)
    }

    @Test func aLongNameIsShortenedSoTheKernelKeepsTheSuffix() throws {
        let source = Self.panel()
        defer { libevdev_free(source) }
        libevdev_set_name(source, String(repeating: "Ä", count: 40) + " Touchscreen")   // 92 bytes
        let clone = try UinputClone.template(cloning: source)
        defer { libevdev_free(clone) }
        let name = String(cString: libevdev_get_name(clone))
        #expect(name == String(repeating: "Ä", count: 34) + " (gestured)")   // 68 + 11 bytes; one "Ä" more would be 81
        #expect(name.utf8.count <= UinputClone.maximumNameBytes)
        #expect(UinputClone.name(cloning: "ILITEK Multi-Touch") == "ILITEK Multi-Touch (gestured)")
    }

    @Test func aCloneIsAVirtualInputDeviceWithTheSuffixNotANameAlone() {
        let virtual = "/sys/devices/virtual/input/input21/event7"
        let usb = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/0003:222A:0001.0001/input/input12/event5"
        #expect(CloneName.isClone(name: "ILITEK Multi-Touch (gestured)", syspath: virtual))
        #expect(!CloneName.isClone(name: "ILITEK Multi-Touch (gestured)", syspath: usb))
        #expect(!CloneName.isClone(name: "ILITEK Multi-Touch", syspath: virtual))
    }

    @Test func withoutUinputTheCloneFailsWithTheOpenErrorAndPath() {
        let source = Self.panel()
        defer { libevdev_free(source) }
        #expect(throws: SystemError(operation: "open", path: "/nonexistent/uinput", errno: .noSuchFile)) {
            _ = try UinputClone(cloning: source, uinputPath: "/nonexistent/uinput")
        }
    }
}
