// gestured-vm-bench: gestured against `libinput debug-events` on one real kernel device
// (`make bench-vm`, docs/PERFORMANCE.md "Kernel guest"). Bench tool, never installed; needs
// /dev/uinput and root, which only the QEMU guest of `make test-vm` has here.
//
//   gestured-vm-bench [--gestured PATH] [--frames N] [--rate HZ] [--taps N] [--rounds R] [--out DIR]
//   gestured-vm-bench [--frames N] [--rate HZ] --evemu FILE
//
// 1. CPU: a uinput touchscreen, and six readers of it: `libinput debug-events --quiet`,
//    `lisgd -d NODE` (Debian's libinput gesture daemon, headless; CPUPhase.swift says how),
//    `gestured run` (built-in configuration) with one client reading every line,
//    `gestured run` with no client, `gestured run` with no client and no gestures (the daemon
//    before any recognizer), and `cat` (a read(2) per frame and nothing else: the part of a
//    frame any reader pays). N frames (default 5,000) of ten moving fingers, written at
//    HZ (default 250) frames/s, each frame in one write(2), go to each reader in R segments
//    (default 5): round r runs the six one after the other, alone on the device, in an order
//    rotated by r (CPUPhase.swift says why). Each reader's CPU time (the kernel's
//    sum_exec_runtime, summed over its threads) from before a segment's first frame until it is
//    quiet again, per frame; the median over its segments.
// 2. Latency: `gestured run` with a configuration whose tap is reported at the lift, and
//    `libinput debug-events` printing (line-buffered) into a FIFO, on the same device at the same
//    time; N taps (default 40, 30 ms down, 150 ms apart). For each tap, the kernel's stamp of the
//    lift frame (the tap line's `time`) to the moment this program read gestured's tap line from
//    its socket, and to the moment it read libinput's TOUCH_UP line from the FIFO.
//
// --evemu writes the CPU phase's frames as an evemu recording instead (for `gestured replay
// --description Tests/Fixtures/recordings/synthetic-touchscreen.desc FILE` on any machine).
// Prints a table; with --out, also writes it to DIR/bench-vm.txt and the figures, one
// "key value" per line, to DIR/bench-vm.figures. Exits 1 when a figure could not be measured.
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

func say(_ message: String) { ToolOutput.say(message) }

func fail(_ message: String, status: Int32 = 1) -> Never { ToolOutput.fail("gestured-vm-bench", message, status: status) }

func hex(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
}

var options = BenchOptions(gestured: TestEnvironment.buildDirectory + "/gestured")
var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let argument = arguments.popFirst() {
    func text(_ option: String) -> String {
        guard let next = arguments.popFirst() else { fail("\(option) needs a value", status: 2) }
        return next
    }
    func number(_ option: String) -> Int {
        guard let text = arguments.popFirst(), let value = Int(text), value > 0 else { fail("\(option) needs a number > 0", status: 2) }
        return value
    }
    switch argument {
    case "--gestured": options.gestured = text(argument)
    case "--frames": options.frames = max(number(argument), 2)
    case "--rate": options.rate = number(argument)
    case "--taps": options.taps = number(argument)
    case "--rounds": options.rounds = number(argument)
    case "--out": options.out = text(argument)
    case "--evemu":
        // The CPU phase's frames as an evemu recording at --rate, for `gestured replay` on a host.
        let path = text(argument)
        let interval = 1_000_000 / options.rate
        var out = ""
        for (index, frame) in BenchStream.tenFingers(frames: options.frames).enumerated() {
            let time = 1_000_000 + index * interval
            let stamp = "\(time / 1_000_000)." + String(String(time % 1_000_000 + 1_000_000).dropFirst())
            let report: BenchStream.Event = (EventCode.EV_SYN, EventCode.SYN_REPORT, 0)
            for event in frame + [report] {
                let fields: String = hex(event.type) + " " + hex(event.code)
                out += "E: \(stamp) \(fields) \(event.value)\n"
            }
        }
        do { try TestEnvironment.writeFile(path: path, out) } catch { fail("\(error)") }
        exit(0)
    case "-h", "--help":
        say("usage: gestured-vm-bench [--gestured PATH] [--frames N] [--rate HZ] [--taps N] [--rounds R] [--out DIR]")
        exit(0)
    default: fail("unknown argument \(argument)", status: 2)
    }
}

do {
    let report = try KernelBench(options).run()
    say(report.table)
    if let out = options.out {
        try TestEnvironment.writeFile(path: out + "/bench-vm.txt", report.table + "\n")
        try TestEnvironment.writeFile(path: out + "/bench-vm.figures",
                                      report.figures.map { "\($0.key) \($0.value)" }.joined(separator: "\n") + "\n")
    }
} catch {
    fail("\(error)")
}
