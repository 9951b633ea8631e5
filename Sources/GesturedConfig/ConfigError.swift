/// Why a configuration was rejected: one or more located diagnostics.
///
/// The executable prints `description` and exits with status 78 (`EX_CONFIG`). The library never
/// prints anything itself (STYLE.md: libraries return errors, only the executable logs).
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    /// At least one; ordered by position in the file (line, then column).
    public var diagnostics: [ConfigDiagnostic]

    public init(diagnostics: [ConfigDiagnostic]) { self.diagnostics = diagnostics }

    /// One diagnostic per line, in order.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// One problem in a configuration file, pointing at the exact place.
///
/// `line` and `column` are 1-based; a column counts Unicode scalars from the start of the line (a
/// tab counts as one). A problem that has no position (the file could not be read) has line and
/// column 0, and its description then leaves the position out: `FILE: MESSAGE`.
public struct ConfigDiagnostic: Equatable, Sendable, CustomStringConvertible {
    /// The file name as given to `ConfigLoader.load(_:file:)` or `parse(_:file:)`.
    public var file: String
    public var line: Int
    public var column: Int
    /// Where in the document: `views[0].gestures[1].numberOfTapsRequired`; `""` for the root.
    public var keyPath: String
    public var message: String

    public init(file: String, line: Int, column: Int, keyPath: String, message: String) {
        self.file = file; self.line = line; self.column = column
        self.keyPath = keyPath; self.message = message
    }

    /// `FILE:LINE:COLUMN: KEYPATH: MESSAGE`, without `KEYPATH: ` when the key path is empty and
    /// without `:LINE:COLUMN` when there is no position.
    public var description: String {
        var text = file
        if line > 0 { text += ":\(line):\(column)" }
        text += ": "
        if !keyPath.isEmpty { text += keyPath + ": " }
        return text + message
    }
}
