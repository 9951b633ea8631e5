import GesturedBenchKit
import GesturedCore
import GesturedIO
import Glibc

/// `gestured-bench`: the performance figures of docs/PERFORMANCE.md, as a table on stdout and a
/// JSON file in bench-results/. Run it through `make bench` (release build).
///
///     gestured-bench [--runs N] [--core-only | --daemon-only] [--out DIR] [--bin DIR-WITH-gestured]
///     gestured-bench callgrind-child GESTURE VIEWS RECOGNIZERS   (valgrind runs this)
///     gestured-bench callgrind-replay [BIN-DIR]   (instructions a frame of the ten-finger replay, alone)
///     gestured-bench clients N [GESTURE VIEWS RECOGNIZERS]   (instructions a step with 1 and N clients)
///     gestured-bench write-recording FRAMES PATH   (a pan recording, and PATH.desc)
///     gestured-bench write-ten-fingers FRAMES PATH   (ten fingers, PATH.desc and PATH.json5)
///     gestured-bench alloc-trace GESTURE VIEWS RECOGNIZERS [passThrough]   (traps at a steady frame's allocation)
///     gestured-bench alloc-check   (every scenario's steady frames; exit 1 if any allocates)
///     gestured-bench strokes [PER-SHAPE]   (stroke accuracy and cost; also part of the full run)
///     gestured-bench stroke-pictures DIR   (an SVG of each built-in stroke template)
///     gestured-bench forwarding [RUNS]   (pass-through read-to-write; also part of the full run)

var arguments = Array(CommandLine.arguments.dropFirst())

/// The scenario named by `GESTURE VIEWS RECOGNIZERS` after `command` in `arguments`.
func scenarioArgument(_ arguments: [String], of command: String) -> Scenario {
    guard arguments.count == 4 || (arguments.count == 5 && arguments[4] == "passThrough"),
          let gesture = Scenario.Gesture(rawValue: arguments[1]), let views = Int(arguments[2]),
          let recognizers = Scenario.Recognizers(rawValue: arguments[3]) else {
        fatalError("usage: gestured-bench \(command) GESTURE VIEWS RECOGNIZERS [passThrough]")
    }
    return Scenario(gesture: gesture, views: views, recognizers: recognizers, passThrough: arguments.count == 5)
}

if arguments.first == "callgrind-clients" || arguments.first == "clients", arguments.count >= 2, let n = Int(arguments[1]), n > 0 {
    let rest = Array(arguments.dropFirst().prefix(4))
    let scenario = rest.count == 4 ? scenarioArgument(rest, of: arguments[0]) : ClientsBenchmark.defaultScenario
    if arguments[0] == "clients" {
        try ClientsBenchmark.report(clients: n, scenario)
    } else {
        try ClientsBenchmark.child(clients: n, scenario)
    }
    exit(0)
}

if arguments.first == "callgrind-child" {
    try CoreBenchmarks.callgrindChild(scenarioArgument(arguments, of: "callgrind-child"))
    exit(0)
}

if arguments.first == "callgrind-replay" {
    // The `callgrind replay…` row alone: the release gestured next to this program, or in BIN-DIR.
    let bin = arguments.dropFirst().first ?? DaemonBenchmarks.directory(of: selfPath())
    let result = Callgrind.replay(bin + "/gestured") { print($0) }
    guard let perFrame = result.instructionsPerFrame else { fatalError("callgrind replay: \(result.note)") }
    print("callgrind \(result.scenario): \(Int(perFrame.rounded())) instructions/frame")
    exit(0)
}

if arguments.first == "alloc-check" {
    exit(try CoreBenchmarks.allocationCheck() ? 0 : 1)
}

if arguments.first == "alloc-trace" {
    // Finds the first steady frame of the allocation pass that allocates, then replays the same
    // passes on a fresh pipeline and traps at that frame's first malloc: the crash backtrace
    // names the allocation.
    try CoreBenchmarks.allocationTrace(scenarioArgument(arguments, of: "alloc-trace"))
    exit(0)
}

if arguments.first == "strokes" {
    try StrokeBenchmarks.run(perShape: arguments.dropFirst().first.flatMap(Int.init) ?? 200) { print($0) }
    exit(0)
}

if arguments.first == "forwarding" {
    _ = try ForwardingBenchmarks.run(runs: arguments.dropFirst().first.flatMap(Int.init) ?? 7) { print($0) }
    exit(0)
}

if arguments.first == "idle-kiosk" {
    // The idle figure with every kiosk feature configured, alone (`make bench` includes it).
    let bin = arguments.dropFirst().first ?? DaemonBenchmarks.directory(of: selfPath())
    let scratch = "/tmp/gestured-bench-\(getpid())"
    mkdir(scratch, 0o755)
    defer { _ = removeDirectory(scratch) }
    let figure = try KioskIdleBenchmark.run(bin + "/gestured", scratch: scratch) { print($0) }
    print(figure.name + ":", Int(figure.median), figure.unit)
    exit(figure.met == true ? 0 : 1)
}

if arguments.first == "stroke-pictures" {
    guard arguments.count == 2 else { fatalError("usage: gestured-bench stroke-pictures DIRECTORY") }
    try StrokeBenchmarks.writePictures(directory: arguments[1])
    exit(0)
}

if arguments.first == "write-recording" {
    // A generated pan recording and its device description, for replaying by hand.
    guard arguments.count == 3, let frames = Int(arguments[1]) else {
        fatalError("usage: gestured-bench write-recording FRAMES PATH (writes PATH and PATH.desc)")
    }
    let stream = FrameStream.generate(.pan, frames: frames)
    var text: [UInt8] = []
    stream.evemuLines(into: &text)
    try DaemonBenchmarks.writeBytes(path: arguments[2], text)
    try DaemonBenchmarks.writeBytes(path: arguments[2] + ".desc", Array(DaemonBenchmarks.deviceDescription.utf8))
    exit(0)
}

if arguments.first == "write-ten-fingers" {
    // The ten-finger replay benchmark's recording, description and configuration (for callgrind).
    guard arguments.count == 3, let frames = Int(arguments[1]) else {
        fatalError("usage: gestured-bench write-ten-fingers FRAMES PATH (writes PATH, PATH.desc and PATH.json5)")
    }
    print(try DaemonBenchmarks.writeTenFingers(frames: frames, path: arguments[2]), "frames")
    exit(0)
}

var options = BenchOptions()
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--runs": options.runs = Int(arguments.removeFirst()) ?? options.runs
    case "--core-only": options.coreOnly = true
    case "--daemon-only": options.daemonOnly = true
    case "--out": options.outDirectory = arguments.removeFirst()
    case "--bin": options.binDirectory = arguments.removeFirst()
    default: fatalError("unknown argument \(argument)")
    }
}

let started = Clock.nanoseconds()
var report = Report(options: options)
func log(_ s: String) { print(s); fflush(nil) }

if !options.daemonOnly {
    log("core: per frame, \(options.runs) runs each (median), allocations counted on a second pass")
    report.core = try CoreBenchmarks.run(runs: options.runs, log: log)

    log("hit-testing")
    report.hitTest = CoreBenchmarks.hitTest(runs: options.runs)

    log("pass-through: read-to-write per frame (core, encoding, write(2) of the clone's events)")
    report.forwarding = try ForwardingBenchmarks.run(runs: options.runs, log: log)

    log("soak: 1,000,000 frames through one pipeline")
    report.soak = CoreBenchmarks.soak(log: log)

    try StrokeBenchmarks.run(log: log)

    log("callgrind (instructions per frame, chaos10/256v/20r)")
    report.callgrind = Callgrind.measure(Scenario(gesture: .chaos10, views: 256, recognizers: .twenty), log: log)
}

if !options.coreOnly {
    report.daemon = DaemonBenchmarks.run(options: options, log: log)
    let gestured = (options.binDirectory ?? DaemonBenchmarks.directory(of: selfPath())) + "/gestured"
    if isAccessible(gestured, X_OK) {
        log("callgrind (instructions per frame, gestured replay of the ten-finger recording)")
        report.callgrindReplay = Callgrind.replay(gestured, log: log)
    }
}

report.seconds = Double(Clock.nanoseconds() - started) / 1e9
log("")
log(report.table())
let path = report.writeJSON()
log("wrote \(path)")
