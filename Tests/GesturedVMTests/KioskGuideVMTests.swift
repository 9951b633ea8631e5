import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// docs/KIOSK.md's Raspberry Pi OS kiosk guide (issue #33 item 4) in Debian 13's kernel guest
/// (`make test-vm-trixie VM_TEST_FILTER=KioskGuideVMTests`; Raspberry Pi OS is Debian 13): the
/// daemon with the guide's configuration (config/kiosk-rpi-7inch.json5, unchanged) passing the
/// panel through, labwc started as the guide's user with the guide's autostart file
/// (docs/kiosk/labwc-autostart, unchanged: Tests/VM/compositor labwc-kiosk says the test's two
/// differences), Chromium in kiosk mode on a page whose script logs every touch event. A tap
/// reaches Chromium; the admin gesture's long press in the admin corner does not.
@Suite(.enabled(if: VMGuest.isGuest && DebianRelease.current == 13, "runs only in Debian 13's kernel guest: make test-vm-trixie"),
       .serialized)
struct KioskGuideVMTests {
    /// The kiosk's page: each touch event as one console line, `kiosk-event TYPE-WHERE`, where
    /// is `corner` in the top right fifth of the page (the admin corner's side), else `elsewhere`.
    static let page = """
        <!DOCTYPE html><body style="margin:0;height:100vh"><script>
        for (const t of ["touchstart", "touchend", "touchcancel"])
          addEventListener(t, e => { const p = e.changedTouches[0];
            const at = p.clientX > innerWidth * 0.8 && p.clientY < innerHeight * 0.2 ? "corner" : "elsewhere";
            console.log("kiosk-event " + t + "-" + at); }, { passive: true });
        console.log("kiosk-event ready");
        </script></body>
        """

    static var url: String {
        var encoded = "data:text/html,"
        for byte in page.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber) {
                encoded.append(c)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }

    @Test func aTapReachesChromiumAndTheAdminGestureDoesNot() throws {
        let config = try readTextFile(path: TestEnvironment.packageRoot + "/config/kiosk-rpi-7inch.json5")
        let monitor = try UdevInputMonitor()
        let panel = try VMGuest.makeTouchscreen()
        defer { panel.destroy() }
        let (daemon, client, _) = try Matrix.startDaemon(config, monitor: monitor)
        defer { try? daemon.stop() }
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-kiosk-guide")
        let fifo = directory.path + "/out.fifo"
        guard mkfifo(fifo, 0o666) == 0 else { throw SystemError(operation: "mkfifo", path: fifo, errno: .current) }
        var output = try KioskOutput(path: fifo)
        let started = MonotonicClock.now()
        let session = try Subprocess(TestEnvironment.packageRoot + "/Tests/VM/compositor", ["labwc-kiosk", fifo],
                                     environment: ["KIOSK_AUTOSTART": TestEnvironment.packageRoot + "/docs/kiosk/labwc-autostart",
                                                   "KIOSK_URL": Self.url],
                                     stdout: .discard, stderr: .file(directory.path + "/runner.stderr"))
        defer {
            session.send(signal: SIGTERM)
            _ = try? session.wait(deadline: deadline(milliseconds: 20_000))
        }
        let ready = try output.events(within: 600_000) { $0.contains("ready") }
        try #require(ready.contains("ready"), "Chromium's page never loaded; output:\n\(output.text)")
        let startMilliseconds = (MonotonicClock.now() - started).microseconds / 1000
        print("kiosk guide: Chromium's page loaded \(startMilliseconds) ms after labwc was started")
        if let results = VMGuest.results {
            try? TestEnvironment.writeFile(path: results + "/kiosk-guide.txt", "chromium start \(startMilliseconds) ms\n")
        }

        // A tap at the center, until one reaches the page whole (the window being mapped).
        var id: Int32 = 1
        var delivered = false
        let limit = deadline(milliseconds: 180_000)
        while !delivered && MonotonicClock.now() < limit {
            try Touch.tap(on: panel, id: id, x: 2048, y: 2048)
            id += 1
            delivered = try output.events(within: 5000) { $0.contains("touchend-elsewhere") }.contains("touchend-elsewhere")
        }
        try #require(delivered, "no tap reached Chromium; output:\n\(output.text)")

        // The admin gesture: a 2 s press in the top right corner (720…800 × 0…80 of 800×480).
        _ = try client.linesUntilPing()
        try panel.frame(Touch.down(id: id, x: 3990, y: 100))
        id += 1
        _ = try #require(try client.lines(until: { $0.hasPrefix("gesture longPress began admin") }, within: 10_000),
                         "the admin gesture did not begin:\n\(daemon.log)")
        try panel.frame(Touch.up())
        _ = try #require(try client.lines(until: { $0.hasPrefix("touch ended") }), "\(daemon.log)")
        // Then a tap: the page's next events are that tap's alone.
        try Touch.tap(on: panel, id: id, x: 2048, y: 2048)
        let after = try output.events(within: 30_000) { $0.contains("touchend-elsewhere") }
        #expect(after == ["touchstart-elsewhere", "touchend-elsewhere"], "the admin corner's touch reached Chromium: \(after)")
        print("kiosk guide: after the admin gesture and a tap, Chromium got \(after)")
    }
}

/// The labwc-kiosk runner's output (labwc's and Chromium's stderr), read from a FIFO: the page's
/// `kiosk-event` lines.
struct KioskOutput {
    let fifo: FileDescriptor
    var pending = ""
    var text = ""

    init(path: String) throws {
        fifo = try FileDescriptor.open(path, flags: O_RDONLY | O_NONBLOCK)
    }

    /// The page's events (the word after `kiosk-event `) until `done` holds for them or
    /// `milliseconds` pass.
    mutating func events(within milliseconds: Int64, until done: ([String]) -> Bool) throws -> [String] {
        let limit = deadline(milliseconds: milliseconds)
        var events: [String] = []
        while true {
            while let newline = pending.firstIndex(of: "\n") {
                let line = String(pending[..<newline])
                pending.removeSubrange(...newline)
                if let marker = line.firstRange(of: "kiosk-event ") {
                    events.append(String(line[marker.upperBound...].prefix { $0.isLetter || $0 == "-" }))
                }
            }
            if done(events) { return events }
            let left = (limit - MonotonicClock.now()).microseconds / 1000
            if left <= 0 { return events }
            var pollFD = pollfd(fd: fifo.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&pollFD, 1, Int32(min(left, 1000)))
            var buffer = [UInt8](repeating: 0, count: 16384)
            let n = read(fifo.rawValue, &buffer, buffer.count)
            if n > 0 {
                let chunk = String(decoding: buffer[..<n], as: UTF8.self)
                pending += chunk
                if text.utf8.count < 1 << 20 { text += chunk }
            }
        }
    }
}
