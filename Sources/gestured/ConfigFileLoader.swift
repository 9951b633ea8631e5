import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedSeeing

/// Reads a configuration file through GesturedIO (the one boundary to the C library) and hands
/// its bytes to `ConfigLoader`, which makes no system calls; the files it names (stroke
/// template files) are read the same way.
enum ConfigFileLoader {
    /// Who may own and write the files read (`StrictModes`: root and this process's user, written
    /// by their owner only); nil with `--allow-insecure-config-permissions` (development only,
    /// which the command logs loudly).
    nonisolated(unsafe) static var strictModes: StrictModes? = StrictModes()

    static func load(path: String) throws(ConfigError) -> Configuration {
        try check(path: path).configuration
    }

    /// `load`, also returning the configuration's warnings, located like errors.
    /// The flag that turns the check off.
    static let allowInsecureFlag = "--allow-insecure-config-permissions"

    /// The loud warning logged when the check is off.
    static let insecureWarning = "\(allowInsecureFlag): configuration and stroke-template files are read whoever owns "
        + "or may write them; whoever may write them controls the actions (development only, never in a service)"

    static func check(path: String) throws(ConfigError) -> (configuration: Configuration, warnings: [ConfigDiagnostic]) {
        try ConfigLoader.check(read(path).get(), file: path, readFile: read)
    }

    /// The bytes of the file at `path`, or the error `ConfigLoader` reports for it. Only a
    /// regular file is read: a FIFO would block the start or a reload until someone writes it.
    static func read(_ path: String) -> Result<[UInt8], ConfigError> {
        do { return .success(try readRegularFile(path: path, limit: ConfigLoader.maximumFileSize, strictModes: strictModes)) } catch {
            let message = switch error {
            case .notRegular(_, let kind): "cannot read: not a regular file (\(kind))"
            case .insecure(_, let reason): "refused: \(reason), or run with \(allowInsecureFlag) (development only)"
            case .system(let error) where error.errno == .fileTooLarge:
                "cannot read: the file is larger than \(ConfigLoader.maximumFileSize >> 20) MiB"
            case .system(let error): "cannot \(error.operation == "open" ? "open" : "read"): \(error.errno)"
            }
            return .failure(ConfigLoader.unreadable(file: path, message: message))
        }
    }
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
        do { _ = try GestureEngine(views: spec.views, screen: ScreenSizing.size(configured: nil)) } catch {
            throw CommandFailure(ExitStatus.config, "\(path ?? "<default configuration>"): "
                                 + (spec.id.map { "screen \($0): " } ?? "") + "\(error)")
        }
    }
    return (configuration, warnings)
}
