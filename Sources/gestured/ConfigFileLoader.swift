import GesturedConfig
import GesturedCore
import GesturedIO

/// Reads a configuration file through GesturedIO (the one boundary to the C library) and hands
/// its bytes to `ConfigLoader`, which makes no system calls.
enum ConfigFileLoader {
    static func load(path: String) throws(ConfigError) -> Configuration {
        try check(path: path).configuration
    }

    /// `load`, also returning the configuration's warnings, located like errors.
    static func check(path: String) throws(ConfigError) -> (configuration: Configuration, warnings: [ConfigDiagnostic]) {
        let bytes: [UInt8]
        do { bytes = try readFile(path: path, limit: ConfigLoader.maximumFileSize) } catch {
            let reason = error.errno == .fileTooLarge
                ? "the file is larger than \(ConfigLoader.maximumFileSize >> 20) MiB" : "\(error.errno)"
            let operation = error.operation == "open" ? "open" : "read"
            throw ConfigLoader.unreadable(file: path, message: "cannot \(operation): \(reason)")
        }
        return try ConfigLoader.check(bytes, file: path)
    }
}
