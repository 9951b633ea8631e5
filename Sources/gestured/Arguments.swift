import GesturedCalibration
import GesturedCore

/// The command line (CONTRACT.md §1), parsed into one value. Bad usage is a `UsageError`
/// (exit status 2).
enum Command: Equatable {
    case run(config: String?, socket: String?, verbose: Bool, trace: Bool)
    case replay(config: String?, format: LineFormat, touches: Bool, failed: Bool, trace: Bool, forwarded: Bool,
                description: String?, recordings: [String])
    case checkConfig(file: String, strict: Bool)
    /// `check-config --needs-uinput FILE`: whether the service must be granted /dev/uinput.
    case needsUinput(file: String)
    case explain(config: String?, screen: String?, layout: String?, x: Double, y: Double)
    case draw(config: String?, screen: String?, layout: String?, background: String?, recording: String?, description: String?, output: String)
    case replayStrokes(config: String?, description: String?, recording: String)
    case recordStroke(name: String, output: String?, description: String?, recording: String)
    /// `record-stroke` without a RECORDING: the first stroke drawn on a live touch device.
    case recordLiveStroke(name: String, output: String?, config: String?, timeout: Double)
    case devices(config: String?, json: Bool)
    case doctor(config: String?, socket: String?, json: Bool, probeCancel: Bool)
    case calibrate(config: String?, device: String?, display: CalibrationDisplay, json: Bool)
    case listen(socket: String?, format: LineFormat, filter: LineFilter?, touches: Bool, failed: Bool, reconnect: Bool = false,
                exec: String? = nil, shell: Bool = false)
    /// `ctl [--socket PATH] REQUEST…`: one request line.
    case ctl(socket: String?, request: String)
    /// `mqtt [--config FILE] [--socket PATH]`: the MQTT bridge (docs/MQTT.md).
    case mqtt(config: String?, socket: String?)
    /// The guard of a pass-through clone, started by the daemon (never by hand: not in --help).
    case cloneGuard(slots: Int, style: CancelStyle, touchButton: Bool)
    case version
    case help
}

struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

enum Arguments {
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        var args = arguments[...]
        let sub: String
        if let first = args.first, !first.hasPrefix("-") {
            sub = first; args = args.dropFirst()
        } else if args.first == "--version" || args.first == "-V" {
            return .version
        } else if args.first == "--help" || args.first == "-h" {
            return .help
        } else {
            sub = "run"
        }
        var options = Options(args)
        switch sub {
        case "run":
            let config = try options.value("--config"), socket = try options.value("--socket")
            let verbose = options.flag("--verbose"), trace = options.flag("--trace")
            try options.finish(positional: 0)
            return .run(config: config, socket: socket, verbose: verbose, trace: trace)
        case "replay" where options.has("--strokes"):
            _ = options.flag("--strokes")
            let config = try options.value("--config"), description = try options.value("--description")
            let positional = try options.finish(positional: 1)
            return .replayStrokes(config: config, description: description, recording: positional[0])
        case "record-stroke":
            guard let name = try options.value("--name"), !name.isEmpty else {
                throw UsageError(message: "record-stroke needs --name NAME")
            }
            let output = try options.value("--output"), description = try options.value("--description")
            let config = try options.value("--config"), timeoutText = try options.value("--timeout")
            let positional = try options.finish(positional: 0...1)
            if let recording = positional.first {
                if config != nil || timeoutText != nil {
                    throw UsageError(message: "--config and --timeout go with capturing from a live device (no RECORDING)")
                }
                return .recordStroke(name: name, output: output, description: description, recording: recording)
            }
            if description != nil { throw UsageError(message: "--description goes with a RECORDING") }
            var timeout = 60.0
            if let timeoutText {
                guard let value = Double(timeoutText), value.isFinite, value > 0 else {
                    throw UsageError(message: "--timeout must be a number of seconds above 0, not '\(timeoutText)'")
                }
                timeout = value
            }
            return .recordLiveStroke(name: name, output: output, config: config, timeout: timeout)
        case "replay":
            let config = try options.value("--config")
            let format = try options.format()
            let touches = options.flag("--touches"), failed = options.flag("--failed")
            let trace = options.flag("--trace"), forwarded = options.flag("--forwarded")
            let description = try options.value("--description")
            let recordings = try options.finish(atLeast: 1)
            return .replay(config: config, format: format, touches: touches, failed: failed, trace: trace, forwarded: forwarded,
                           description: description, recordings: recordings)
        case "check-config":
            let strict = options.flag("--strict"), needsUinput = options.flag("--needs-uinput")
            let positional = try options.finish(positional: 1)
            if needsUinput {
                if strict { throw UsageError(message: "--needs-uinput prints one answer; --strict goes without it") }
                return .needsUinput(file: positional[0])
            }
            return .checkConfig(file: positional[0], strict: strict)
        case "explain":
            let config = try options.value("--config"), layout = try options.value("--layout")
            let screen = try options.value("--screen")
            let positional = try options.finish(positional: 2, allowingNegativeNumbers: true)
            guard let x = Double(positional[0]), let y = Double(positional[1]), x.isFinite, y.isFinite else {
                throw UsageError(message: "explain needs X and Y, numbers in screen points; got '\(positional[0])' '\(positional[1])'")
            }
            return .explain(config: config, screen: screen, layout: layout, x: x, y: y)
        case "draw":
            let config = try options.value("--config"), layout = try options.value("--layout")
            let screen = try options.value("--screen")
            let background = try options.value("--background"), description = try options.value("--description")
            guard let output = try options.value("--output") else { throw UsageError(message: "draw needs --output FILE.svg|FILE.html") }
            guard output.hasSuffix(".svg") || output.hasSuffix(".html") else {
                throw UsageError(message: "--output must end in .svg or .html, not '\(output)'")
            }
            let positional = try options.finish(positional: 0...1)
            if description != nil && positional.isEmpty { throw UsageError(message: "--description goes with a RECORDING") }
            return .draw(config: config, screen: screen, layout: layout, background: background, recording: positional.first,
                         description: description, output: output)
        case "devices":
            let config = try options.value("--config"), json = options.flag("--json")
            try options.finish(positional: 0)
            return .devices(config: config, json: json)
        case "doctor":
            let config = try options.value("--config"), socket = try options.value("--socket")
            let json = options.flag("--json")
            let probeCancel = options.flag("--probe-cancel")
            try options.finish(positional: 0)
            return .doctor(config: config, socket: socket, json: json, probeCancel: probeCancel)
        case "calibrate":
            let config = try options.value("--config"), device = try options.value("--device")
            let displayText = try options.value("--display") ?? "auto", json = options.flag("--json")
            guard let display = CalibrationDisplay(rawValue: displayText) else {
                throw UsageError(message: "--display must be auto, wayland or none, not '\(displayText)'")
            }
            try options.finish(positional: 0)
            return .calibrate(config: config, device: device, display: display, json: json)
        case "listen":
            let socket = try options.value("--socket")
            let format = try options.format()
            var filter: LineFilter?
            if let text = try options.value("--filter") {
                do { filter = try LineFilter(parsing: text) } catch {
                    throw UsageError(message: "--filter: \(error.message)")
                }
            }
            let touches = options.flag("--touches"), failed = options.flag("--failed")
            let reconnect = options.flag("--reconnect")
            let exec = try options.value("--exec"), shell = options.flag("--shell")
            if let exec {
                if exec.allSatisfy({ $0 == " " }) { throw UsageError(message: "--exec needs a command") }
                if format != .text { throw UsageError(message: "--format applies to printed lines; --exec prints none") }
                if touches { throw UsageError(message: "--exec runs for gesture lines only; --touches would have no effect") }
            } else if shell {
                throw UsageError(message: "--shell only goes with --exec")
            }
            try options.finish(positional: 0)
            return .listen(socket: socket, format: format, filter: filter, touches: touches, failed: failed,
                           reconnect: reconnect, exec: exec, shell: shell)
        case "mqtt":
            let config = try options.value("--config"), socket = try options.value("--socket")
            try options.finish(positional: 0)
            return .mqtt(config: config, socket: socket)
        case "ctl":
            // Options come before the request; every word after its first is the request's,
            // `-1` included (the daemon judges it).
            var words = Array(args)
            var socket: String?
            while let first = words.first, first.hasPrefix("-") {
                if first == "--socket", words.count > 1 { socket = words[1]; words.removeFirst(2) }
                else if first.hasPrefix("--socket=") { socket = String(first.dropFirst(9)); words.removeFirst() }
                else if first == "--socket" { throw UsageError(message: "--socket needs a value") }
                else { throw UsageError(message: "unknown option '\(first)'") }
            }
            return .ctl(socket: socket, request: try CtlCommand.requestLine(words))
        case "clone-guard":
            let touchButton = options.flag("--touch-button")
            let slotsText = try options.value("--slots"), styleText = try options.value("--style")
            try options.finish(positional: 0)
            guard let slotsText, let slots = Int(slotsText), slots > 0 else {
                throw UsageError(message: "clone-guard needs --slots N (N > 0)")
            }
            guard let styleText, let style = CancelStyle(rawValue: styleText) else {
                throw UsageError(message: "clone-guard needs --style \(CancelStyle.allCases.map(\.rawValue).joined(separator: "|"))")
            }
            return .cloneGuard(slots: slots, style: style, touchButton: touchButton)
        case "help":
            return .help
        default:
            throw UsageError(message: "unknown command '\(sub)'")
        }
    }
}

/// `--key value` / `--key=value` options and positional arguments, each consumed once.
private struct Options {
    private var items: [String]
    init(_ args: ArraySlice<String>) { items = Array(args) }

    func has(_ name: String) -> Bool { items.contains { $0 == name || $0.hasPrefix(name + "=") } }

    mutating func flag(_ name: String) -> Bool {
        guard let i = items.firstIndex(of: name) else { return false }
        items.remove(at: i)
        return true
    }

    mutating func value(_ name: String) throws(UsageError) -> String? {
        if let i = items.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let v = String(items[i].dropFirst(name.count + 1)); items.remove(at: i); return v
        }
        guard let i = items.firstIndex(of: name) else { return nil }
        guard i + 1 < items.count else { throw UsageError(message: "\(name) needs a value") }
        let v = items[i + 1]
        items.removeSubrange(i...(i + 1))
        return v
    }

    mutating func format() throws(UsageError) -> LineFormat {
        guard let text = try value("--format") else { return .text }
        guard let format = LineFormat(rawValue: text) else {
            throw UsageError(message: "--format must be text or json, not '\(text)'")
        }
        return format
    }

    /// The positional arguments, at least `minimum` of them (after the options).
    @discardableResult
    mutating func finish(atLeast minimum: Int) throws(UsageError) -> [String] {
        try finish(positional: minimum...max(minimum, items.count))
    }

    /// Exactly `count` positional arguments; a command that takes none calls it only to check that.
    @discardableResult
    mutating func finish(positional count: Int, allowingNegativeNumbers: Bool = false) throws(UsageError) -> [String] {
        try finish(positional: count...count, allowingNegativeNumbers: allowingNegativeNumbers)
    }

    /// - Parameter allowingNegativeNumbers: `-5` is a positional argument, not an option.
    @discardableResult
    mutating func finish(positional range: ClosedRange<Int>, allowingNegativeNumbers: Bool = false) throws(UsageError) -> [String] {
        let count = range.upperBound
        if let unknown = items.first(where: { $0.hasPrefix("-") && $0 != "-" && !(allowingNegativeNumbers && Double($0) != nil) }) {
            throw UsageError(message: "unknown option '\(unknown)'")
        }
        if range.contains(items.count) { return items }
        guard items.count == count else {
            throw UsageError(message: count == 0 ? "unexpected argument '\(items[0])'"
                                                 : "expected \(count) argument\(count == 1 ? "" : "s"), got \(items.count)")
        }
        return items
    }
}
