import GesturedConfig
import GesturedCore
import GesturedIO
import Glibc

/// Exit statuses (CONTRACT.md §1; 78 is sysexits' EX_CONFIG).
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let config: Int32 = 78
}

/// A failure that ends a command: what to print and the exit status.
struct CommandFailure: Error {
    var status: Int32
    var lines: [String]
    init(_ status: Int32, _ lines: String...) { self.status = status; self.lines = lines }
    init(_ status: Int32, lines: [String]) { self.status = status; self.lines = lines }
}

/// Loads the configuration at `path`, or the embedded default, and checks that the engine can
/// be built from it (e.g. every recognizer type is available).
///
/// - Parameter logWarnings: log each warning (`<4>warning: FILE:L:C: KEYPATH: ...`), as the
///   daemon does once at start and at each reload.
func loadConfiguration(_ path: String?, logWarnings: Bool = false) throws(CommandFailure) -> Configuration {
    try checkConfiguration(path, logWarnings: logWarnings).configuration
}

/// `loadConfiguration`, then `layout` applied (`explain --layout`, `draw --layout`).
///
/// With `screens`, the one screen `screen` names (or the only one) is taken as the single form:
/// its size, views and layouts; `draw` and `explain` picture one screen at a time.
func loadConfiguration(_ path: String?, screen: String?, layout: String?) throws(CommandFailure) -> Configuration {
    var configuration = try loadConfiguration(path)
    let file = path ?? "<default configuration>"
    if configuration.screens.isEmpty {
        if screen != nil { throw CommandFailure(ExitStatus.usage, "--screen: \(file) has no screens (it configures one screen)") }
    } else {
        let ids = configuration.screens.compactMap(\.id)
        guard let id = screen ?? (ids.count == 1 ? ids[0] : nil) else {
            throw CommandFailure(ExitStatus.usage, "\(file) has several screens (\(ids.joined(separator: ", "))): name one with --screen ID")
        }
        guard let spec = configuration.screens.first(where: { $0.id == id }) else {
            throw CommandFailure(ExitStatus.usage, "--screen: no screen '\(id)' in \(file); it has \(ids.joined(separator: ", "))")
        }
        (configuration.screen, configuration.views, configuration.layouts, configuration.screens) = (spec.size, spec.views, spec.layouts, [])
    }
    guard let layout else { return configuration }
    guard let applied = configuration.applying(layout: layout) else {
        let known = configuration.layouts.keys.sorted()
        throw CommandFailure(ExitStatus.usage, "--layout: no layout '\(layout)' in \(path ?? "<default configuration>")"
                             + (known.isEmpty ? " (it has none)" : "; it has \(known.joined(separator: ", "))"))
    }
    return applied
}

/// `loadConfiguration`, also returning the warnings.
func checkConfiguration(_ path: String?, logWarnings: Bool = false) throws(CommandFailure)
    -> (configuration: Configuration, warnings: [ConfigDiagnostic]) {
    let configuration: Configuration
    var warnings: [ConfigDiagnostic] = []
    if let path {
        do { (configuration, warnings) = try ConfigFileLoader.check(path: path) } catch {
            throw CommandFailure(ExitStatus.config, lines: error.diagnostics.map(\.description))
        }
    } else {
        configuration = ConfigLoader.defaultConfiguration()
    }
    if logWarnings { for warning in warnings { Log.warning("warning: \(warning)") } }
    for spec in configuration.screenSpecs {
        do { _ = try GestureEngine(views: spec.views, screen: DeviceGeometry.fallbackScreen) } catch {
            throw CommandFailure(ExitStatus.config, "\(path ?? "<default configuration>"): "
                                 + (spec.id.map { "screen \($0): " } ?? "") + "\(error)")
        }
    }
    return (configuration, warnings)
}

/// `check-config [--strict] FILE`: errors exit 78; warnings print as `warning: FILE:L:C: KEYPATH:
/// MESSAGE` and exit 0, or 78 with `--strict` (CONTRACT.md §4).
enum CheckConfigCommand {
    static func run(file: String, strict: Bool) throws(CommandFailure) {
        let warnings = try checkConfiguration(file).warnings
        for warning in warnings { print("warning: \(warning)") }
        let count = warnings.count == 1 ? "1 warning" : "\(warnings.count) warnings"
        if strict && !warnings.isEmpty { throw CommandFailure(ExitStatus.config, "\(file): \(count) (--strict)") }
        print(warnings.isEmpty ? "\(file): valid" : "\(file): valid, with \(count)")
    }
}

/// Buffered stdout for line output: one write per 64 KiB rather than per line.
struct OutputBuffer {
    private var bytes: [UInt8] = []
    init() { bytes.reserveCapacity(1 << 16) }

    mutating func append(_ line: String) {
        bytes.append(contentsOf: line.utf8)
        if bytes.count >= 1 << 16 { flush() }
    }

    /// Takes the encoded lines in `lines`, leaving it empty (capacity kept).
    mutating func take(_ lines: inout [UInt8]) {
        bytes.append(contentsOf: lines)
        lines.removeAll(keepingCapacity: true)
        if bytes.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        try? FileDescriptor.standardOutput.writeAll(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}

enum ReplayCommand {
    /// The sysname the k-th recording's device gets in lines (CONTRACT.md §4): `event<k>`.
    static func sysname(_ k: Int) -> String { "event\(k)" }

    /// Replays one recording, or several interleaved by time (one device each), streamed
    /// (`RecordingStream`): memory is a piece of each file, not the files. Lines before a
    /// malformed line are written before the error.
    static func run(config: String?, options: Replay.Options,
                    description: String?, recordings paths: [String]) throws(CommandFailure) {
        let configuration = try loadConfiguration(config)
        let given = try RecordingStream.description(description, sysname: sysname(0))
        var streams: [RecordingStream] = []
        for (k, path) in paths.enumerated() {
            streams.append(try RecordingStream(path: path, description: given, sysname: sysname(k)))
        }
        var session: Replay.Session
        do {
            session = try Replay.Session(devices: streams.map(\.device), configuration: configuration,
                                         touches: options.touches, trace: options.trace)
        } catch {
            throw CommandFailure(ExitStatus.failure, "\(paths.joined(separator: ", ")): \(error)")
        }
        var lines = Replay.Lines(options: options, devices: streams.map(\.device))
        var out = OutputBuffer()
        defer { out.flush() }
        try RecordingStream.play(&streams, session: &session) { session in
            lines.take(&session, traced: { Log.trace($0) }) { out.take(&$0) }
        }
    }

    /// The recording's device (its own description, or `description`'s), named `sysname`, and
    /// its events.
    static func load(recording: String, description: String?,
                     sysname: String = sysname(0)) throws(CommandFailure) -> (DeviceDescription, [RawEvent]) {
        let events = try parse(recording, sysname: sysname)
        var device = events.description
        if let description {
            device = try parse(description, sysname: sysname).description
            guard device != nil else { throw CommandFailure(ExitStatus.failure, "\(description): no device description (N:, I:, B:, A: lines)") }
        }
        guard let device else {
            throw CommandFailure(ExitStatus.failure,
                                 "\(recording): the recording has no device description; name the file that has it with --description DESC")
        }
        return (device.deviceDescription(sysname: sysname), events.events)
    }

    /// Reads and parses a recording as bytes: no `String` of the whole file is built.
    private static func parse(_ path: String, sysname: String) throws(CommandFailure) -> EvemuRecording {
        let bytes: [UInt8]
        do { bytes = try readFile(path: path) } catch { throw CommandFailure(ExitStatus.failure, "\(error)") }
        do { return try EvemuRecording.parse(bytes: bytes, sysname: sysname) } catch {
            throw CommandFailure(ExitStatus.failure, "\(path): \(error)")
        }
    }
}

/// Where the socket lives when `--socket` is not given: `/run/gestured/gestured.sock` for root,
/// `$XDG_RUNTIME_DIR/gestured.sock` for anyone else.
func defaultSocketPath() throws(CommandFailure) -> String {
    if getuid() == 0 { return "/run/gestured/gestured.sock" }
    guard let dir = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !dir.isEmpty else {
        throw CommandFailure(ExitStatus.failure, "XDG_RUNTIME_DIR is not set: give the socket's path with --socket PATH")
    }
    return dir + "/gestured.sock"
}
