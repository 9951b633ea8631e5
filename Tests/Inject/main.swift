// gestured-inject: plays evemu recordings through the kernel (a uinput device). Test tool, not
// installed; needs /dev/uinput and root, which only the `make test-vm` guest has here.
//
//   gestured-inject [--description DESC] [--name NAME] [--speed X] [--skip-idle-start]
//                   [--node-file PATH] [--wait-signal] [--hold] RECORDING...
//
// Creates one device from DESC (or from the first recording's own description), waits until
// udevd has processed it, writes its node (/dev/input/eventN) to PATH when asked (a temporary
// file renamed into place, so a reader never sees half of it), then plays each RECORDING in
// turn with its original timing divided by X (--speed 0: as fast as possible). --hold keeps the
// device until stdin reaches end of file (or SIGTERM) instead of removing it after the last
// recording. --wait-signal waits for SIGUSR1 after the device is ready and before playing, so a
// test can start the daemon on the device first. Prints "device /dev/input/eventN name=..." when ready and "played N events" per
// recording.
import GesturedCore
import GesturedEvemu
import GesturedIO
import GesturedTestSupport
import Glibc

func say(_ message: String) { ToolOutput.say(message) }

func fail(_ message: String, status: Int32 = 1) -> Never { ToolOutput.fail("gestured-inject", message, status: status) }

var descriptionPath: String?
var name: String?
var speed = 1.0
var skipIdleStart = false
var nodeFile: String?
var hold = false
var waitSignal = false
var recordings: [String] = []

var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let argument = arguments.popFirst() {
    func value(_ option: String) -> String {
        guard let next = arguments.popFirst() else { fail("\(option) needs a value", status: 2) }
        return next
    }
    switch argument {
    case "--description": descriptionPath = value(argument)
    case "--name": name = value(argument)
    case "--speed":
        guard let parsed = Double(value(argument)), parsed >= 0 else { fail("--speed needs a number ≥ 0", status: 2) }
        speed = parsed
    case "--skip-idle-start": skipIdleStart = true
    case "--node-file": nodeFile = value(argument)
    case "--hold": hold = true
    case "--wait-signal": waitSignal = true
    case "-h", "--help":
        say("usage: gestured-inject [--description DESC] [--name NAME] [--speed X] [--skip-idle-start] [--node-file PATH] [--wait-signal] [--hold] RECORDING...")
        exit(0)
    default:
        if argument.hasPrefix("-") { fail("unknown option \(argument)", status: 2) }
        recordings.append(argument)
    }
}
guard !recordings.isEmpty || descriptionPath != nil else { fail("no recording given", status: 2) }

func load(_ path: String) -> EvemuRecording {
    do { return try EvemuRecording.parse(try readTextFile(path: path), sysname: "") } catch let error as EvemuParseError {
        fail("\(path): \(error)")
    } catch {
        fail("\(error)")
    }
}

let parsed = recordings.map(load)
guard let description = descriptionPath.map({ load($0).description }) ?? parsed.first?.description ?? nil else {
    fail("no device description: give --description DESC")
}

// Blocked before anything can send them, taken with sigwait below.
var usr1 = sigset_t()
sigemptyset(&usr1)
sigaddset(&usr1, SIGUSR1)
var release = usr1
for signal in [SIGTERM, SIGINT] { sigaddset(&release, signal) }
if waitSignal || hold { sigprocmask(SIG_BLOCK, &release, nil) }

let device: UinputDevice
do {
    device = try UinputDevice(description, name: name, udevDeadline: MonotonicClock.now() + .milliseconds(20_000))
} catch {
    fail("\(error)")
}
if let nodeFile {
    do {
        try TestEnvironment.writeFile(path: nodeFile + ".tmp", device.devnode + "\n")
        guard rename(nodeFile + ".tmp", nodeFile) == 0 else {
            throw SystemError(operation: "rename", path: nodeFile, errno: .current)
        }
    } catch { fail("\(error)") }
}
say("device \(device.devnode) name=\"\(device.name)\"")
if waitSignal {
    var received: Int32 = 0
    sigwait(&usr1, &received)
}

for (path, recording) in zip(recordings, parsed) {
    do { try device.play(recording.events, speed: speed, skipIdleStart: skipIdleStart) } catch { fail("\(path): \(error)") }
    say("played \(recording.events.count) events from \(path)")
}

if hold {
    var received: Int32 = 0
    sigwait(&release, &received)
}
device.destroy()
