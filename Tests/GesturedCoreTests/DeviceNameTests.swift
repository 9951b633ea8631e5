import Testing
@testable import GesturedCore

/// Device names are stored inline (31 bytes) so that touch updates copy without reference
/// counting; a name that does not fit is refused where a device enters the pipeline.
struct DeviceNameTests {
    @Test(arguments: ["", "event5", "event1023", String(repeating: "x", count: 31), "ünïcödé-名前"])
    func namesThatFitRoundTrip(name: String) throws {
        let device = try #require(DeviceName(name))
        #expect(device.description == name)
        #expect(device.count == name.utf8.count)
        #expect(device == DeviceName(name))
    }

    @Test func longerNamesDoNotFit() {
        #expect(DeviceName(String(repeating: "x", count: 32)) == nil)
        #expect(DeviceName("event5") != DeviceName("event50"))
    }

    @Test func thePipelineRefusesADeviceWhoseSysnameDoesNotFit() throws {
        var pipeline = try GesturePipeline(configuration: GesturePipelineTests.config, screen: Size(width: 999, height: 999))
        var device = GesturePipelineTests.panel
        device.sysname = "input-device-with-a-very-long-sysname"
        #expect(throws: EvdevFrameDecoder.Unsupported.sysnameTooLong("input-device-with-a-very-long-sysname")) {
            try pipeline.addDevice(device)
        }
        #expect(EvdevFrameDecoder.Unsupported.sysnameTooLong("x").description == "sysname \"x\" is longer than 31 bytes")
    }
}
