/// The kiosk lines of the protocol (docs/PROTOCOL.md, "Kiosk lines"), beside the touch and gesture
/// lines of LineEncoder.swift.
extension LineEncoder {
    /// A kiosk line: `wake device=… [screen=…] x=… y=…`, `lock seconds=…`, `idle seconds=…`,
    /// `unlock`, `active`, each followed by `[screen=…] time=… seq=…` (the wake's screen after
    /// its device).
    public static func kiosk(_ k: KioskEvent, seq: UInt64, format: LineFormat, into out: inout [UInt8]) {
        switch k.kind {
        case .wake(let device, let location):
            line("wake", format: format, strings: (k.screen?.utf8.count ?? 0) + device.count, into: &out) { line in
                line.field("device", name: device)
                kioskTail(k, seq: seq, &line) { line in
                    line.field("x", fixed: location.x, decimals: 2)
                    line.field("y", fixed: location.y, decimals: 2)
                }
            }
        case .lock(let seconds): kiosk("lock", seconds: seconds, k, seq: seq, format: format, into: &out)
        case .idle(let seconds): kiosk("idle", seconds: seconds, k, seq: seq, format: format, into: &out)
        case .unlock: kiosk("unlock", seconds: nil, k, seq: seq, format: format, into: &out)
        case .active: kiosk("active", seconds: nil, k, seq: seq, format: format, into: &out)
        }
    }

    /// `kind [seconds=…] [screen=…] time=… seq=…`.
    private static func kiosk(_ kind: StaticString, seconds: Int?, _ k: KioskEvent, seq: UInt64, format: LineFormat,
                              into out: inout [UInt8]) {
        line(kind, format: format, strings: k.screen?.utf8.count ?? 0, into: &out) { line in
            if let seconds { line.field("seconds", int: Int64(seconds)) }
            kioskTail(k, seq: seq, &line) { _ in }
        }
    }

    /// `[screen=…]`, what `middle` writes, then `time=… seq=…`.
    private static func kioskTail(_ k: KioskEvent, seq: UInt64, _ line: inout LineWriter,
                                  _ middle: (inout LineWriter) -> Void) {
        if let s = k.screen { line.field("screen", string: s) }
        middle(&line)
        line.field("time", instant: k.time)
        line.field("seq", unsigned: seq)
    }
}
