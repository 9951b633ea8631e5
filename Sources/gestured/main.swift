import GesturedCore
import Glibc

/// The `gestured` executable: parses the command line, runs one command, and is the only
/// place that logs or chooses an exit status.
/// The daemon's socket: `--socket`'s value, or its own default (clients look elsewhere first:
/// `ClientSocket`).
func daemonSocketPath(_ given: String?) throws(CommandFailure) -> String {
    if let given { return given }
    return try defaultSocketPath()
}

let command: Command
// Any command that reads a configuration may take it; it is logged once the command is known.
var arguments = Array(CommandLine.arguments.dropFirst())
let allowsInsecureConfig = arguments.contains(ConfigFileLoader.allowInsecureFlag)
arguments.removeAll { $0 == ConfigFileLoader.allowInsecureFlag }
do {
    command = try Arguments.parse(arguments)
} catch {
    Log.error("gestured: \(error)")
    Log.plain("Try 'gestured --help'.")
    exit(ExitStatus.usage)
}

if case .run = command { Log.priorityPrefixes = true }
if allowsInsecureConfig {
    ConfigFileLoader.strictModes = nil
    Log.warning(ConfigFileLoader.insecureWarning)
}

do throws(CommandFailure) {
    switch command {
    case .version:
        print("gestured \(Version.string) (protocol \(LineEncoder.protocolVersion))")
    case .help:
        print(Arguments.help, terminator: "")
    case .checkConfig(let file, let strict):
        try CheckConfigCommand.run(file: file, strict: strict)
    case .needsUinput(let file):
        try UinputGrantCommand.run(file: file)
    case .explain(let config, let screen, let layout, let x, let y):
        try ExplainCommand.run(config: config, screen: screen, layout: layout, x: x, y: y)
    case .draw(let config, let screen, let layout, let background, let recording, let description, let output):
        try DrawCommand.run(config: config, screen: screen, layout: layout, background: background, recording: recording,
                            description: description, output: output)
    case .devices(let config, let json):
        try DevicesCommand.run(config: config, json: json)
    case .doctor(let config, let socket, let json, let probeCancel):
        try DoctorCommand.run(config: config, socket: socket, json: json, probeCancel: probeCancel)
    case .calibrate(let config, let device, let display, let json):
        try CalibrateCommand.run(config: config, device: device, display: display, json: json)
    case .replay(let config, let format, let touches, let failed, let trace, let forwarded, let description, let recordings):
        try ReplayCommand.run(config: config, options: Replay.Options(format: format, touches: touches, failed: failed,
                                                                     trace: trace, forwarded: forwarded),
                              description: description, recordings: recordings)
    case .replayStrokes(let config, let description, let recording):
        try StrokeCommands.scores(config: config, recording: recording, description: description)
    case .recordStroke(let name, let output, let description, let recording):
        try StrokeCommands.record(name: name, output: output, recording: recording, description: description)
    case .recordLiveStroke(let name, let output, let config, let timeout):
        try StrokeCommands.recordLive(name: name, output: output, config: config, timeout: timeout)
    case .listen(let socket, let format, let filter, let touches, let failed, let reconnect, let exec, let shell):
        let runner = try exec.map { command throws(CommandFailure) in try ListenExec(command: command, shell: shell) }
        try ListenCommand.run(socket: socket, format: format, filter: filter, touches: touches, failed: failed,
                              reconnect: reconnect, exec: runner)
    case .ctl(let socket, let request):
        try CtlCommand.run(socket: ClientSocket(option: socket), request: request)
    case .mqtt(let config, let socket):
        Log.priorityPrefixes = true
        try MQTTCommand.run(config: config, socket: socket)
    case .cloneGuard(let slots, let style, let touchButton):
        try CloneGuardCommand.run(slots: slots, style: style, touchButton: touchButton)
    case .run(let config, let socket, let verbose, let trace):
        Log.verbose = verbose
        Log.priorityPrefixes = true
        do { try Daemon.run(configPath: config, socketPath: daemonSocketPath(socket), trace: trace) } catch where error.status == ExitStatus.config {
            Supervisor.invalidConfiguration(error.lines)
            throw error
        }
    }
} catch {
    for line in error.lines { Log.error(line) }
    exit(error.status)
}
exit(ExitStatus.success)
