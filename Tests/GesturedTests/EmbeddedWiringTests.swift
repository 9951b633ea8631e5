@testable import gestured
import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The embedded daemon is the daemon's own wiring (`Daemon.wire`): its reload reads the file
/// again and asks the device source for devices the new rules admit, and its loop takes the
/// source's announcements (`Hotplug`), as `gestured run` does.
@Suite struct EmbeddedWiringTests {
    static func text(width: Int, idle: String = "") -> String {
        """
        { screen: { width: \(width), height: 600 }, socket: { readTimeout: 0 }, \(idle)
          views: [ { id: "root", gestures: [ { id: "tap", type: "tap" } ] } ] }
        """
    }

    static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw SystemError(operation: "fopen", path: path, errno: .current) }
        fputs(text, file)
        fclose(file)
    }

    /// SIGHUP's reload, through the embedded loop: the file is read again, the screen takes its
    /// new size, the new idle threshold arms the timer, and the device source is asked once more.
    @Test func aReloadReadsTheFileAgainAndAsksTheDeviceSource() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-wiring")
        let path = directory.path + "/gestured.json5"
        try Self.write(Self.text(width: 800), to: path)
        let bed = try EmbeddedDaemon(configuration: try loadConfiguration(path), configPath: path)
        try bed.iterate()
        #expect(bed.live.pipeline.screens.map(\.size) == [Size(width: 800, height: 600)])
        #expect(bed.timer.armed == nil)
        #expect(bed.devices.enumerations == 1)

        try Self.write(Self.text(width: 1024, idle: "idle: [60],"), to: path)
        bed.daemon.reload()
        try bed.iterate()
        #expect(bed.live.pipeline.screens.map(\.size) == [Size(width: 1024, height: 600)])
        let armed = try #require(bed.timer.armed)
        #expect(armed > bed.clock.time && armed <= bed.clock.time + Interval(seconds: 60))
        #expect(bed.devices.enumerations == 2)
    }

    /// An invalid file changes nothing, and no device is looked for.
    @Test func aFailedReloadKeepsThePreviousConfiguration() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-wiring")
        let path = directory.path + "/gestured.json5"
        try Self.write(Self.text(width: 800), to: path)
        let bed = try EmbeddedDaemon(configuration: try loadConfiguration(path), configPath: path)
        try Self.write("{ screen: ", to: path)
        bed.daemon.reload()
        try bed.iterate()
        #expect(bed.live.pipeline.screens.map(\.size) == [Size(width: 800, height: 600)])
        #expect(bed.devices.enumerations == 1)
    }

    /// The source's announcements reach `Hotplug` in the loop: a device udev has not processed
    /// yet is not opened, and a removal of a device that is not open closes nothing.
    @Test func theLoopTakesTheSourcesAnnouncements() throws {
        let bed = try EmbeddedDaemon()
        let pending = InputDeviceInfo(sysname: "event7", devnode: "/dev/input/event7", syspath: "/sys/devices/virtual/input/input7/event7",
                                      name: "panel", properties: ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"], isInitialized: false)
        bed.devices.announce("add", pending)
        bed.devices.announce("remove", pending)
        #expect(try bed.iterate { bed.devices.taken == 2 })
        #expect(bed.parts.devices.count == 0)
    }
}
