@testable import gestured
import Testing

/// Every message the daemon logs goes through `Log.line`: the priority prefix is the daemon's,
/// and nothing in the message can add another record (security review: a device named with a
/// newline and `<0>` wrote an emergency entry).
struct LogLineTests {
    @Test func aForgedPriorityInADeviceNameStaysInsideItsOwnLine() {
        let line = Log.line(.info, "event7 (evil\n<0>forged\0name\u{1b}[2J): using it, 10 slots", prefixed: true)
        #expect(line == "<6>event7 (evil\\n<0>forged\\0name\\x1b[2J): using it, 10 slots")
    }

    @Test func oneShotCommandsEscapeToo() {
        #expect(Log.line(.error, "x.json5: bad\r\nline", prefixed: false) == "x.json5: bad\\r\\nline")
    }
}
