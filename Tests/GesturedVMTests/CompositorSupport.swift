import GesturedCore
import GesturedDoctor
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// One of Debian's compositors with its application (`Tests/VM/compositor`), and what the
/// application receives, read from a FIFO with poll() and a deadline.
final class CompositorSession {
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case cage, sway, weston, xorg, labwc, gnomeKiosk = "gnome-kiosk"
        var testDescription: String { rawValue }
        var isWayland: Bool { self != .xorg }

        /// The Debian package whose version the measurement is for (CancelPassing's key).
        var package: String {
            switch self {
            case .xorg: return "xserver-xorg-core"
            default: return rawValue
            }
        }

        /// The compositors of the matrix on Debian `release`: the one place that says which
        /// compositors a guest runs (docs/KIOSK.md, docs/VM-TESTS.md). The Debian 13 compositor
        /// root has no Xorg (issue #33 asks for the Wayland ones); gnome-kiosk is absent because
        /// mutter's native backend needs a systemd-logind session the guest does not have
        /// ("Failed to find any matching session", docs/KIOSK.md).
        static func matrix(debianRelease release: Int) -> [Kind] {
            switch release {
            case 12: return [.cage, .sway, .weston, .xorg]
            case 13: return [.cage, .sway, .weston, .labwc]
            default: return []
            }
        }

        /// The compositors of this guest's Debian release.
        static var inThisGuest: [Kind] { matrix(debianRelease: DebianRelease.current ?? 0) }
    }

    let kind: Kind
    let process: Subprocess
    let stderrPath: String
    private let fifo: FileDescriptor
    private var parser: ApplicationParser
    private var pending = ""
    /// Touches read while waiting for pointer or keyboard events (`inputs`), for `events`.
    private var backlog: [AppTouch] = []
    /// The application's last lines about its seat, pointer and keyboard, for a failure's message.
    private(set) var seatLines: [String] = []

    init(_ kind: Kind, in directory: TestEnvironment.TemporaryDirectory) throws {
        self.kind = kind
        let path = directory.path + "/\(kind.rawValue).fifo"
        guard mkfifo(path, 0o666) == 0 else { throw SystemError(operation: "mkfifo", path: path, errno: .current) }
        fifo = try FileDescriptor.open(path, flags: O_RDONLY | O_NONBLOCK)
        stderrPath = directory.path + "/\(kind.rawValue).stderr"
        parser = ApplicationParser(kind: kind)
        process = try Subprocess(TestEnvironment.packageRoot + "/Tests/VM/compositor", [kind.rawValue, path],
                                 stdout: .discard, stderr: .file(stderrPath))
    }

    deinit { try? fifo.close() }

    var log: String { (try? readTextFile(path: stderrPath)) ?? "" }

    /// SIGTERM: the runner stops the application, the compositor and seatd.
    func stop() throws {
        process.send(signal: SIGTERM)
        _ = try process.wait(deadline: deadline(milliseconds: 20_000))
    }

    /// The application's pointer and keyboard events from where the last call stopped until
    /// `done` holds for them (its touches meanwhile are kept for `events`), and whether it did.
    func inputs(within milliseconds: Int64 = 15_000, until done: ([AppInput]) -> Bool) throws -> (inputs: [AppInput], done: Bool) {
        var inputs: [AppInput] = []
        let (touches, finished) = try events(within: milliseconds) { _ in
            inputs += parser.takeInputs()
            return done(inputs)
        }
        inputs += parser.takeInputs()
        backlog += touches
        return (inputs, finished || done(inputs))
    }

    /// The application's touch events from where the last call stopped until `done` holds for
    /// them, and whether it did (false: `milliseconds` passed first, or the application's output
    /// ended; what was read is returned all the same and not read again).
    func events(within milliseconds: Int64 = 15_000, until done: ([AppTouch]) -> Bool) throws -> (events: [AppTouch], done: Bool) {
        let limit = deadline(milliseconds: milliseconds)
        var events = backlog
        backlog = []
        if !events.isEmpty && done(events) { return (events, true) }
        while true {
            while let newline = pending.firstIndex(of: "\n") {
                let line = String(pending[..<newline])
                pending = String(pending[pending.index(after: newline)...])
                if line.contains("wl_seat") || line.contains("wl_pointer") || line.contains("wl_keyboard") || line.contains("Button")
                    || line.contains("Key") {
                    seatLines.append(line)
                    if seatLines.count > 60 { seatLines.removeFirst() }
                }
                let before = parser.inputs.count
                if var event = parser.feed(line) {
                    event.receivedAt = MonotonicClock.now()
                    events.append(event)
                    if done(events) { return (events, true) }
                } else if parser.inputs.count != before, done(events) {
                    return (events, true)
                }
            }
            let left = (limit - MonotonicClock.now()).microseconds / 1000
            guard left > 0 else { return (events, false) }
            var pollFD = pollfd(fd: fifo.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&pollFD, 1, Int32(left))
            var buffer = [UInt8](repeating: 0, count: 16384)
            let n = read(fifo.rawValue, &buffer, buffer.count)
            if n > 0 { pending += String(decoding: buffer[..<n], as: UTF8.self) }
            if n == 0 && pollFD.revents & Int16(POLLHUP) != 0 {
                // Every writer has closed it (a FIFO never written to does not hang up): the
                // application is gone.
                Issue.record("the \(kind.rawValue) application's output ended; runner stderr:\n\(log)")
                return (events, false)
            }
        }
    }

}

/// The guest's Debian release (`VERSION_ID` of /etc/os-release: 12, 13), and what the matrix
/// measured for the compositor installed there.
enum DebianRelease {
    static var current: Int? {
        guard let text = try? readTextFile(path: "/etc/os-release") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VERSION_ID=") {
            return Int(line.dropFirst("VERSION_ID=".count).filter { $0 != "\"" })
        }
        return nil
    }

    /// The measured table's entry (GesturedCore's CancelPassing, what `gestured doctor` judges
    /// by) for `kind` as installed here: the Debian package and version dpkg gives for its
    /// executable, the way the doctor finds them. nil when the table has none for that version.
    static func measured(_ kind: CompositorSession.Kind) -> (installed: String, entry: CancelPassing.Entry?) {
        let executable = kind == .xorg ? "/usr/lib/xorg/Xorg" : (TestEnvironment.which(kind.rawValue) ?? "/usr/bin/" + kind.rawValue)
        guard let owner = DebianPackages.owner(of: executable), let version = owner.version else {
            return ("\(executable): not known to dpkg", nil)
        }
        return ("\(owner.package) \(version)", CancelPassing.entry(package: owner.package, version: version))
    }
}

/// A touch event as an application saw it, the same words for Wayland (wev: `wl_touch` down,
/// motion, up, cancel) and X (`xinput test-xi2`: TouchBegin, TouchUpdate, TouchEnd; X has no
/// cancel). `id` is Wayland's touch id; X's ever-growing touch ids are numbered like Wayland's
/// (the lowest not pressed), so both read alike. `atCenter`: a down at the panel's center (within
/// 2 points), where the test's check taps land.
struct AppTouch: Hashable, CustomStringConvertible {
    enum Phase: String { case down, motion, up, cancel }
    var phase: Phase
    var id: Int
    var atCenter = false
    /// Where a down landed in the application (surface or root coordinates), if said.
    var x: Double?, y: Double?
    /// When the test read it (CLOCK_MONOTONIC), for latency.
    var receivedAt = Instant.zero
    var description: String { phase == .cancel ? "cancel" : "\(phase.rawValue) \(id)" }

    /// The touches still pressed after `events`, from `pressed`: a down presses its id, an up
    /// releases it, a cancel releases every one.
    static func pressed(after events: [AppTouch], from pressed: Set<Int> = []) -> Set<Int> {
        var pressed = pressed
        for event in events {
            switch event.phase {
            case .down: pressed.insert(event.id)
            case .up: pressed.remove(event.id)
            case .cancel: pressed.removeAll()
            case .motion: break
            }
        }
        return pressed
    }

    /// Whether `events` hold `count` check taps: downs at the center, each followed by its up.
    static func completes(taps count: Int, _ events: [AppTouch]) -> Bool {
        var done = 0
        var open: Int?
        for event in events {
            if event.phase == .down && event.atCenter { open = event.id }
            if event.phase == .up, event.id == open { done += 1; open = nil }
        }
        return done >= count
    }

    /// `events` as words, each run of motions one `moves` (how many motions a moving touch
    /// gets before a gesture claims it depends on the compositor's frames, not on the daemon).
    static func words(_ events: [AppTouch]) -> [String] {
        var words: [String] = []
        for event in events {
            if event.phase == .motion {
                if words.last != "moves" { words.append("moves") }
            } else {
                words.append(event.description)
            }
        }
        return words
    }
}

/// A pointer or keyboard event as the application saw it (wev's `wl_pointer` and
/// `wl_keyboard`; X's ButtonPress, ButtonRelease, KeyPress, KeyRelease from the slave device),
/// with where the pointer was: what an input action (`gestured input`) gives it.
struct AppInput: Hashable, CustomStringConvertible {
    enum Kind: Hashable {
        /// evdev's button code (BTN_RIGHT 273).
        case button(Int, pressed: Bool)
        /// One wheel event (an axis value, or X's detent button).
        case wheel
        /// evdev's key code (KEY_F9 67).
        case key(Int, pressed: Bool)
    }
    var kind: Kind
    var x: Double?, y: Double?
    var description: String {
        switch kind {
        case .button(let b, let p): "button \(b) \(p ? "pressed" : "released")"
        case .wheel: "wheel"
        case .key(let k, let p): "key \(k) \(p ? "pressed" : "released")"
        }
    }
}

/// The application's output lines into `AppTouch`es.
struct ApplicationParser {
    let kind: CompositorSession.Kind
    var center: (Double, Double)?
    /// X: the pending event block (type, device, source, detail, root position).
    private var block: (type: String, device: Int?, source: Int?, detail: Int?, root: (Double, Double)?)?
    /// X: touch id → our number.
    private var numbers: [Int: Int] = [:]
    /// The pointer's last position in the application (Wayland: from its enter and motion).
    private var pointer: (Double, Double)?
    /// Pointer and keyboard events seen, in order, not taken yet (`takeInputs`).
    private(set) var inputs: [AppInput] = []

    mutating func takeInputs() -> [AppInput] {
        defer { inputs = [] }
        return inputs
    }

    init(kind: CompositorSession.Kind) { self.kind = kind }

    mutating func feed(_ line: String) -> AppTouch? {
        kind.isWayland ? wayland(line) : x(line)
    }

    /// `[15:        wl_touch] down: serial: 12; time: 30683; surface: 3; id: 0; x, y: 895.105469, 215.785156`;
    /// the window's size from `[10:    xdg_toplevel] configure: width: 1280; height: 720` (its
    /// center is the panel's: every compositor here shows the one window over its whole output).
    private mutating func wayland(_ line: String) -> AppTouch? {
        if let marker = line.firstRange(of: "xdg_toplevel] configure: ") {
            let rest = line[marker.upperBound...]
            if let width = Self.field("width: ", in: rest).flatMap({ Double($0) }),
               let height = Self.field("height: ", in: rest).flatMap({ Double($0) }), width > 0, height > 0 {
                center = (width / 2, height / 2)
            }
            return nil
        }
        if let marker = line.firstRange(of: "wl_pointer] ") ?? line.firstRange(of: "wl_keyboard] ") {
            waylandInput(line[marker.upperBound...], keyboard: line[..<marker.lowerBound].hasSuffix("wl_keyboard"))
            return nil
        }
        guard let marker = line.firstRange(of: "wl_touch] ") else { return nil }
        let rest = line[marker.upperBound...]
        let phase: AppTouch.Phase
        if rest.hasPrefix("down:") { phase = .down }
        else if rest.hasPrefix("motion:") { phase = .motion }
        else if rest.hasPrefix("up:") { phase = .up }
        else if rest.hasPrefix("cancel") { return AppTouch(phase: .cancel, id: -1) }
        else { return nil }
        let id = Self.field("id: ", in: rest).flatMap { Int($0) } ?? -1
        var event = AppTouch(phase: phase, id: id)
        if phase == .down, let xy = rest.firstRange(of: "x, y: ") {
            let numbers = rest[xy.upperBound...].split(separator: ",").compactMap { Double(Self.trim($0)) }
            if numbers.count == 2 {
                event.atCenter = isCenter((numbers[0], numbers[1]))
                (event.x, event.y) = (numbers[0], numbers[1])
            }
        }
        return event
    }

    /// wev's pointer and keyboard lines: `enter: serial: 5; surface: 3, x, y: 300.0, 400.0`,
    /// `motion: time: 9; x, y: 301.0, 400.0`, `button: serial: 6; time: 9; button: 273 (right),
    /// state: 1 (pressed)`, `axis: time: 9; axis: 0 (vertical), value: 15.0`, and the keyboard's
    /// `key: serial: 7; time: 9; key: 67; state: 1 (pressed)` (evdev codes).
    private mutating func waylandInput(_ rest: Substring, keyboard: Bool) {
        if keyboard {
            guard rest.hasPrefix("key:"), let key = Self.field("key: ", in: rest.dropFirst(4)).flatMap({ Int($0) }),
                  let state = Self.field("state: ", in: rest).flatMap({ Int($0) }) else { return }
            inputs.append(AppInput(kind: .key(key, pressed: state == 1), x: pointer?.0, y: pointer?.1))
            return
        }
        if rest.hasPrefix("enter:") || rest.hasPrefix("motion:"), let xy = rest.firstRange(of: "x, y: ") {
            let numbers = rest[xy.upperBound...].split(separator: ",").compactMap { Double(Self.trim($0)) }
            if numbers.count == 2 { pointer = (numbers[0], numbers[1]) }
        } else if rest.hasPrefix("button:"), let button = Self.field("button: ", in: rest.dropFirst(7)).flatMap({ Int($0) }),
                  let state = Self.field("state: ", in: rest).flatMap({ Int($0) }) {
            inputs.append(AppInput(kind: .button(button, pressed: state == 1), x: pointer?.0, y: pointer?.1))
        } else if rest.hasPrefix("axis:"), rest.contains("value: ") {
            inputs.append(AppInput(kind: .wheel, x: pointer?.0, y: pointer?.1))
        }
    }

    /// `xinput test-xi2 --root` blocks: `EVENT type 18 (TouchBegin)`, `    device: 7 (7)`,
    /// `    detail: 4`, `    root: 640.00/400.00`; only events whose device is their source
    /// (the slave device, not the master repeating them).
    private mutating func x(_ line: String) -> AppTouch? {
        let trimmed = Self.trim(line[...])
        if trimmed.hasPrefix("EVENT type") {
            let finished = flush()
            let type = trimmed.split(separator: "(").last.map { String($0.dropLast()) } ?? ""
            block = (type, nil, nil, nil, nil)
            return finished
        }
        guard block != nil else { return nil }
        if trimmed.hasPrefix("device:") {
            let parts = trimmed.dropFirst("device:".count).split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ")" })
            block?.device = parts.first.flatMap { Int($0) }
            block?.source = parts.dropFirst().first.flatMap { Int($0) }
        } else if trimmed.hasPrefix("detail:") {
            block?.detail = Int(Self.trim(trimmed.dropFirst("detail:".count)))
        } else if trimmed.hasPrefix("root:") {
            let parts = Self.trim(trimmed.dropFirst("root:".count)).split(separator: "/")
            if parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) { block?.root = (x, y) }
            // The root line comes after device and detail: the block is complete for us.
            return flush()
        }
        return nil
    }

    private mutating func flush() -> AppTouch? {
        guard let b = block else { return nil }
        block = nil
        guard let device = b.device, device == b.source, let detail = b.detail else { return nil }
        let phase: AppTouch.Phase
        switch b.type {
        case "TouchBegin": phase = .down
        case "TouchUpdate": phase = .motion
        case "TouchEnd": phase = .up
        case "ButtonPress", "ButtonRelease":
            // X's wheel is buttons 4 to 7 (one press and release a detent).
            let kind: AppInput.Kind = (4...7).contains(detail) ? .wheel : .button(Self.evdevButton(x: detail), pressed: b.type == "ButtonPress")
            if case .wheel = kind, b.type == "ButtonRelease" { return nil }
            inputs.append(AppInput(kind: kind, x: b.root?.0, y: b.root?.1))
            return nil
        case "KeyPress", "KeyRelease":
            inputs.append(AppInput(kind: .key(detail - 8, pressed: b.type == "KeyPress"), x: b.root?.0, y: b.root?.1))
            return nil
        default: return nil
        }
        let number: Int
        if phase == .down {
            number = (0...).first { n in !numbers.values.contains(n) }!
            numbers[detail] = number
        } else {
            guard let known = numbers[detail] else { return nil }
            number = known
            if phase == .up { numbers[detail] = nil }
        }
        var event = AppTouch(phase: phase, id: number)
        if phase == .down, let root = b.root {
            event.atCenter = isCenter(root)
            (event.x, event.y) = root
        }
        return event
    }

    /// X's button numbers as evdev's: 1 left (BTN_LEFT 272), 2 middle (274), 3 right (273).
    static func evdevButton(x: Int) -> Int {
        switch x {
        case 1: 272
        case 2: 274
        case 3: 273
        default: 0
        }
    }

    /// X: the first tap is at the center (the root window is the screen).
    private mutating func isCenter(_ point: (Double, Double)) -> Bool {
        guard let center else { center = point; return true }
        return abs(point.0 - center.0) < 2 && abs(point.1 - center.1) < 2
    }

    private static func trim(_ text: Substring) -> Substring {
        var text = text
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }

    private static func field(_ name: String, in text: Substring) -> Substring? {
        guard let start = text.firstRange(of: name) else { return nil }
        return text[start.upperBound...].prefix { $0 != ";" && $0 != " " }
    }
}
