import CLinux
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedSynthetic
import GesturedTestSupport
import Glibc
import Testing

/// Where the VM tests run: inside the QEMU guest of `make test-vm`, whose init sets
/// `GESTURED_VM_GUEST=1` (docs/VM-TESTS.md). Anywhere else they are skipped with that reason.
enum VMGuest {
    static let isGuest = Subprocess.currentEnvironment()["GESTURED_VM_GUEST"] == "1"
    static let skipReason: Comment = "runs only inside the QEMU guest: `make test-vm` (GESTURED_VM_GUEST=1)"

    /// The writable results folder the host keeps, when the guest has one.
    static var results: String? { Subprocess.currentEnvironment()["GESTURED_VM_RESULTS"] }

    /// The name every test touchscreen gets, so configurations can match it.
    static let touchscreenName = "gestured vm touchscreen"

    static var gestured: String { TestEnvironment.buildDirectory + "/gestured" }
    static var inject: String { TestEnvironment.buildDirectory + "/gestured-inject" }

    static func recording(_ name: String) throws -> EvemuRecording {
        try EvemuRecording.parse(try readTextFile(path: TestEnvironment.recordings + "/" + name), sysname: "")
    }

    /// The repository's synthetic 10-slot touchscreen, 0…4095 on both axes.
    static func syntheticTouchscreen() throws -> EvemuDescription {
        try #require(try recording("synthetic-touchscreen.desc").description)
    }

    /// A keyboard: EV_KEY with KEY_ESC…KEY_KPDOT (1…83), which 60-input-id.rules calls
    /// `ID_INPUT_KEYBOARD`.
    static func keyboard() -> EvemuDescription {
        var keys = [UInt8](repeating: 0, count: 96)
        for code in 1...83 { keys[code / 8] |= 1 << UInt8(code % 8) }
        return EvemuDescription(name: "gestured vm keyboard", bustype: 0x06, vendor: 1, product: 2, version: 1,
                                bits: [0: [0x03], 1: keys])
    }

    /// A touchscreen made from the synthetic description, udev's processing waited for.
    static func makeTouchscreen(name: String = touchscreenName) throws -> UinputDevice {
        try UinputDevice(try syntheticTouchscreen(), name: name, udevDeadline: deadline(milliseconds: 20_000))
    }
}

/// `gestured run --config … --socket …` on the guest's devices, its stderr in a file.
final class VMDaemon {
    let directory: TestEnvironment.TemporaryDirectory
    let process: Subprocess
    let socket: String
    let stderrPath: String
    let configPath: String

    init(config: String) throws {
        directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-vm")
        configPath = try directory.write("c.json5", config)
        socket = directory.path + "/g.sock"
        stderrPath = directory.path + "/stderr"
        process = try Subprocess(VMGuest.gestured, ["run", "--socket", socket, "--config", configPath],
                                 stdout: .discard, stderr: .file(stderrPath))
    }

    deinit {
        if process.termination == nil {
            process.send(signal: SIGKILL)
            _ = try? process.wait(deadline: deadline(milliseconds: 5000))
        }
    }

    var log: String { (try? readTextFile(path: stderrPath)) ?? "" }

    /// A client that has read `hello`: the daemon accepts only in its loop, so by then it has
    /// opened the devices it found at start (and logged about them).
    func connect() throws -> LineClient {
        let limit = deadline(milliseconds: 15_000)
        while true {
            if let (termination, _) = try process.wait(deadline: MonotonicClock.now(), killOnTimeout: false) {
                Issue.record("gestured exited before listening (\(termination)); stderr:\n\(log)")
                throw VMFailure()
            }
            guard MonotonicClock.now() < limit else {
                Issue.record("no socket at \(socket) after 15 s; stderr:\n\(log)")
                throw VMFailure()
            }
            if let client = try? LineClient(path: socket, deadline: min(limit, deadline(milliseconds: 200))) {
                let hello = try client.readLine(deadline: deadline(milliseconds: 10_000))
                try #require(hello == "hello version=1 daemon=gestured", "stderr:\n\(log)")
                return client
            }
        }
    }

    /// A client subscribed to touch lines (after hello and the `ok`).
    func connectForTouches() throws -> LineClient {
        let client = try connect()
        try client.send(line: "subscribe touches")
        // A `device added` line may come first: a panel created just before the daemon started
        // can still be in udev's hands at its enumeration, and is then opened on udev's event.
        // So may a kiosk line every client gets (`idle`, `active`): a daemon with a 1 s idle
        // threshold, waited for while a slow compositor starts, is idle before the request.
        let limit = deadline(milliseconds: 10_000)
        while true {
            let line = try client.readLine(deadline: limit)
            if line == "ok command=subscribe" { return client }
            let expected = ["device ", "idle ", "active "].contains { line?.hasPrefix($0) == true }
            try #require(expected, "expected the subscribe answer, got \(line ?? "nothing"); stderr:\n\(log)")
        }
    }

    /// SIGTERM and a clean exit.
    func stop() throws {
        process.send(signal: SIGTERM)
        let (termination, timedOut) = try #require(try process.wait(deadline: deadline(milliseconds: 10_000)))
        #expect(!timedOut && termination == .exited(0), "stderr:\n\(log)")
    }

    /// `gestured replay` of `recording` (with `description`) under this daemon's configuration:
    /// the pipeline on a virtual clock, the oracle for what the real path must print.
    func replay(_ recording: String, description: String) throws -> [String] {
        let result = try Subprocess.run(VMGuest.gestured, ["replay", "--config", configPath, "--description", description, recording],
                                        in: directory.path, deadline: deadline(milliseconds: 30_000))
        try #require(result.termination == .exited(0), "replay failed: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }
}

struct VMFailure: Error {}

/// A received line and the moment its bytes arrived.
struct ReceivedLine {
    var text: String
    var receivedAt: Instant
}

extension LineClient {
    /// Lines until one satisfies `stop` (included), or nil when the deadline passes first.
    func lines(until stop: (String) -> Bool, within milliseconds: Int64 = 10_000) throws -> [ReceivedLine]? {
        let limit = deadline(milliseconds: milliseconds)
        var lines: [ReceivedLine] = []
        while let line = try readLine(deadline: limit) {
            lines.append(ReceivedLine(text: line, receivedAt: lastReceive))
            if stop(line) { return lines }
        }
        return nil
    }

    /// Sends `ping` and returns every line before its answer.
    func linesUntilPing() throws -> [String]? {
        try send(line: "ping")
        return try lines(until: { $0 == "ok command=ping" })?.dropLast().map(\.text)
    }
}

/// Protocol-line fields.
enum Line {
    /// The value of `key=` in a text line.
    static func field(_ key: String, in line: String) -> String? {
        for word in line.split(separator: " ") where word.hasPrefix(key + "=") {
            return String(word.dropFirst(key.count + 1))
        }
        return nil
    }

    /// `time=1234.567890` as an instant.
    static func time(_ line: String) -> Instant? {
        guard let text = field("time", in: line) else { return nil }
        let parts = text.split(separator: ".")
        guard parts.count == 2, let seconds = Int64(parts[0]), parts[1].count == 6, let micros = Int64(parts[1]) else { return nil }
        return Instant(seconds: seconds, microseconds: micros)
    }

    /// The line without the fields that differ between a live run and a replay.
    static func comparable(_ line: String) -> String {
        line.split(separator: " ").filter { !$0.hasPrefix("device=") && !$0.hasPrefix("time=") && !$0.hasPrefix("seq=") }
            .joined(separator: " ")
    }
}

/// Frames for the synthetic touchscreen (0…4095, protocol B), as its kernel driver writes them
/// (`PanelScript`'s kernel style): `first` and `last` say when `BTN_TOUCH` changes.
enum Touch {
    typealias Event = PanelScript.Event

    static func down(slot: Int32 = 0, id: Int32, x: Int32, y: Int32, first: Bool = true) -> [Event] {
        PanelScript.events(.down(slot: slot, id: id, x: x, y: y), style: .kernel(touchButton: first ? 1 : nil))
    }

    static func move(slot: Int32 = 0, x: Int32, y: Int32) -> [Event] {
        PanelScript.events(.move(slot: slot, x: x, y: y), style: .kernel(touchButton: nil))
    }

    static func up(slot: Int32 = 0, last: Bool = true) -> [Event] {
        PanelScript.events(.up(slot: slot), style: .kernel(touchButton: last ? 0 : nil))
    }

    /// A tap at (x, y): down, then up, as two frames written at once.
    static func tap(on device: UinputDevice, id: Int32, x: Int32 = 2048, y: Int32 = 2048) throws {
        try device.frame(down(id: id, x: x, y: y))
        try device.frame(up())
    }
}

/// Runs a closure on its own thread (pthread), for work that must go on while the test thread
/// reads lines; `join` waits for it and rethrows its error.
final class BackgroundThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: () throws -> Void
    private var error: (any Error)?

    init(_ body: @escaping () throws -> Void) {
        self.body = body
        let box = Unmanaged.passRetained(self)
        let status = pthread_create(&thread, nil, { argument in
            let me = Unmanaged<BackgroundThread>.fromOpaque(argument!).takeRetainedValue()
            do { try me.body() } catch { me.error = error }
            return nil
        }, box.toOpaque())
        precondition(status == 0, "pthread_create: \(status)")
    }

    func join() throws {
        pthread_join(thread, nil)
        if let error { throw error }
    }
}
