import GesturedCore
import GesturedIO
import Glibc

/// Which configuration an inspection command reads, and the `config: ` line that says so on
/// stderr (CONTRACT.md §6): `--config FILE` when given; else the file the installed service
/// reads, when it exists; else the built-in configuration.
///
/// `explain`, `draw`, `devices` (and `doctor`) answer for the panel as the daemon will treat it,
/// so without `--config` they read what `gestured.service` reads, not silently another
/// configuration. The service's file is the `--config` of the unit's `ExecStart=` (the first
/// unit file found in `unitFiles`, the administrator's copy first), else `installedPath`.
struct ConfigChoice: Equatable {
    enum Source: Equatable {
        case given(String)
        case installed(String)
        case builtIn
    }

    var source: Source

    /// Where `make install` and the Debian package put the configuration (CONFIGDIR).
    static let installedPath = "/etc/gestured/gestured.json5"
    /// Where systemd finds `gestured.service`, in its order: an administrator's copy, then
    /// `make install`'s (PREFIX /usr/local), then the package's.
    static let unitFiles = ["/etc/systemd/system/gestured.service", "/usr/local/lib/systemd/system/gestured.service",
                            "/usr/lib/systemd/system/gestured.service", "/lib/systemd/system/gestured.service"]

    /// The file to read, nil for the built-in configuration.
    var path: String? {
        switch source {
        case .given(let path), .installed(let path): path
        case .builtIn: nil
        }
    }

    /// The choice on this machine.
    static func resolve(given: String?) -> ConfigChoice {
        resolve(given: given, exists: { isAccessible($0, F_OK) }, read: { path in
            guard let bytes = try? readRegularFile(path: path, limit: 1 << 20) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        })
    }

    /// The choice given what exists: `exists` says whether a path exists, `read` returns a
    /// unit file's text (nil when it cannot be read).
    static func resolve(given: String?, exists: (String) -> Bool, read: (String) -> String?) -> ConfigChoice {
        if let given { return ConfigChoice(source: .given(given)) }
        let unit = unitFiles.lazy.compactMap(read).first
        let installed = unit.flatMap(configPath(unit:)) ?? installedPath
        return ConfigChoice(source: exists(installed) ? .installed(installed) : .builtIn)
    }

    /// The `--config` of a unit's `ExecStart=` (`gestured run --config FILE …`), or nil.
    static func configPath(unit: String) -> String? {
        for line in unit.split(separator: "\n") where line.hasPrefix("ExecStart=") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if let k = words.firstIndex(of: "--config"), k + 1 < words.count { return String(words[k + 1]) }
            if let word = words.first(where: { $0.hasPrefix("--config=") }) { return String(word.dropFirst("--config=".count)) }
        }
        return nil
    }

    /// `config: FILE` or `config: built-in`; with `assumedScreen` (no `screen` in the
    /// configuration and no panel to take a size from), the size the command pictures instead.
    func line(assumedScreen: Bool) -> String {
        var text = "config: " + (path ?? "built-in")
        if assumedScreen {
            let size = ScreenSizing.size(configured: nil)
            text += ", screen \(Int(size.width))×\(Int(size.height)) assumed: "
                + "no screen size from udev or the configuration"
        }
        return text
    }

    /// Writes `line` to stderr.
    func announce(assumedScreen: Bool) { Log.plain(line(assumedScreen: assumedScreen)) }
}
