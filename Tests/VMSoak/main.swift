// gestured-vm-soak: the daemon under a long ten-finger stream with clients coming and going,
// reloads and a replug (`make soak-vm`, docs/RELIABILITY.md "Soak"). Soak tool, never installed;
// needs /dev/uinput and root, which only the QEMU guest of `make test-vm` has here.
//
//   gestured-vm-soak [--gestured PATH] [--frames N] [--rate HZ] [--clients N] [--seed S] [--out DIR]
//
// A uinput touchscreen (the synthetic one) with a pass-through rule; `gestured run` on it; one
// client that reads everything (touches, failed states) and checks it lost no transition; up to
// N (default 24) clients that connect, ask for things, read, stall, send garbage and hang up at
// random; N frames (default 1,000,000) of ten fingers in scenes that make every recognizer begin,
// end, fail and be cancelled, HZ (default 1000) frames/s, each frame one write(2); a SIGHUP every
// 3 s; the panel unplugged mid-stream with fingers down and plugged back. Then every finger
// lifts and the other clients leave: the daemon's resident memory, descriptors and clients must
// be back at their level after the first 5,000 frames, nothing may run or be down, and the clone
// (the application's device) must hold no touch. Prints "SOAK" lines: the samples (frame,
// seconds, RSS, descriptors, clients), the notes, and PASS or FAIL with the reasons; with --out
// also DIR/soak.txt. Exits 1 on FAIL.
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

func say(_ message: String) { ToolOutput.say("SOAK " + message) }

var options = SoakOptions(gestured: TestEnvironment.buildDirectory + "/gestured")
var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let argument = arguments.popFirst() {
    func value() -> String {
        guard let next = arguments.popFirst() else { ToolOutput.fail("gestured-vm-soak", "\(argument) needs a value", status: 2) }
        return next
    }
    func number() -> Int {
        guard let n = Int(value()), n > 0 else { ToolOutput.fail("gestured-vm-soak", "\(argument) needs a number > 0", status: 2) }
        return n
    }
    switch argument {
    case "--gestured": options.gestured = value()
    case "--frames": options.frames = max(number(), Soak.warmUpFrames + 2)
    case "--rate": options.rate = number()
    case "--clients": options.churnClients = min(number(), 60)
    case "--seed": options.seed = UInt64(number())
    case "--out": options.out = value()
    default: ToolOutput.fail("gestured-vm-soak", "unknown argument \(argument)", status: 2)
    }
}

/// The soak, its report printed and written; the exit status.
func soak(_ options: SoakOptions) -> Int32 {
    var report: [String] = []
    func record(_ line: String) { report.append(line); say(line) }
    let soak: Soak
    do { soak = try Soak(options) } catch { ToolOutput.fail("gestured-vm-soak", "\(error)", status: 1) }
    soak.progress = { s in
        say("progress frame \(s.frame) at \(Int(s.seconds)) s: RSS \(s.rssKiB) KiB, \(s.descriptors) fds, \(s.clients) clients, \(s.linesRead) lines read")
    }
    record("\(options.frames) frames at \(options.rate) frames/s, up to \(options.churnClients) churning clients, seed \(options.seed)")
    do { try soak.run() } catch { soak.failures.append("stopped: \(error)") }
    record("   frame      s   RSS KiB  fds  clients  churn  lines read")
    for s in soak.samples {
        let seconds = String(Int(s.seconds.rounded()))
        record([String(s.frame).padding(8), seconds.padding(6), String(s.rssKiB).padding(9), String(s.descriptors).padding(4),
                String(s.clients).padding(8), String(s.churnClients).padding(6), String(s.linesRead)].joined(separator: " "))
    }
    for note in soak.notes { record(note) }
    for failure in soak.failures { record("FAIL " + failure) }
    record(soak.failures.isEmpty ? "PASS" : "FAIL (\(soak.failures.count) problems)")
    if let out = options.out { try? TestEnvironment.writeFile(path: out + "/soak.txt", report.joined(separator: "\n") + "\n") }
    return soak.failures.isEmpty ? 0 : 1
}

exit(soak(options))

extension String {
    /// Right-aligned in `width` columns.
    func padding(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
