import GesturedConfig
import GesturedCore
import GesturedIO

/// Reads a configuration file through GesturedIO (the one boundary to the C library) and hands
/// its bytes to `ConfigLoader`, which makes no system calls; the files it names (stroke
/// template files) are read the same way.
enum ConfigFileLoader {
    static func load(path: String) throws(ConfigError) -> Configuration {
        try check(path: path).configuration
    }

    /// `load`, also returning the configuration's warnings, located like errors.
    static func check(path: String) throws(ConfigError) -> (configuration: Configuration, warnings: [ConfigDiagnostic]) {
        try ConfigLoader.check(read(path).get(), file: path, readFile: read)
    }

    /// The bytes of the file at `path`, or the error `ConfigLoader` reports for it.
    static func read(_ path: String) -> Result<[UInt8], ConfigError> {
        do { return .success(try readFile(path: path, limit: ConfigLoader.maximumFileSize)) } catch {
            let reason = error.errno == .fileTooLarge
                ? "the file is larger than \(ConfigLoader.maximumFileSize >> 20) MiB" : "\(error.errno)"
            let operation = error.operation == "open" ? "open" : "read"
            return .failure(ConfigLoader.unreadable(file: path, message: "cannot \(operation): \(reason)"))
        }
    }
}
