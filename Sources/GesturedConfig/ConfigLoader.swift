import GesturedCore
import GesturedSeeing

/// Turns a JSON5 configuration file into a validated `Configuration`, or into located diagnostics.
///
/// Two passes: `JSON5Parser` reads the text into a tree of located values (or finds the first
/// syntax error, with its line and column); `DocumentReader` gives the tree its meaning,
/// reporting every problem where its value stands. Validation collects problems rather than
/// stopping at the first, so one run of `gestured check-config` shows them all.
public enum ConfigLoader {
    /// At most this many diagnostics are returned; the rest are summarized in a last one. Past
    /// a few dozen, later errors are mostly echoes of earlier ones.
    public static let maximumDiagnostics = 50

    /// Larger files are refused by the caller that reads them: a configuration is a few
    /// kilobytes, and the file may be anyone's.
    public static let maximumFileSize = 4 << 20

    /// How the library reads the files a configuration names (stroke template files): given by
    /// the caller, as this library makes no system calls. The failure is
    /// `unreadable(file:message:)`'s error.
    public typealias ReadFile = (String) -> Result<[UInt8], ConfigError>

    /// Validates the bytes of a configuration file (read by the caller: this library makes no
    /// system calls); `file` is the name used in diagnostics and the directory that the files
    /// it names are relative to, read with `readFile`.
    /// - Throws: `ConfigError`; bytes that are not UTF-8 are located at the first bad one.
    public static func load(_ bytes: [UInt8], file: String, readFile: ReadFile? = nil) throws(ConfigError) -> Configuration {
        try check(bytes, file: file, readFile: readFile).configuration
    }

    /// Validates the bytes of a configuration file and finds its warnings
    /// (`Configuration.warnings`), each located like an error: file, key path, line:column.
    public static func check(_ bytes: [UInt8], file: String, readFile: ReadFile? = nil) throws(ConfigError)
        -> (configuration: Configuration, warnings: [ConfigDiagnostic]) {
        try load(bytes, file: file) { reader, document in checked(&reader, document, readFile: readFile) }
    }

    /// The bytes of a file as UTF-8 text, given meaning by `body` (see `read`).
    static func load<T>(_ bytes: [UInt8], file: String, _ body: (inout DocumentReader, Node) -> T) throws(ConfigError) -> T {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let offset = firstInvalidUTF8Offset(bytes)
            let valid = String(decoding: bytes[..<offset], as: UTF8.self)
            let position = SourceText(valid).position(of: valid.utf8.count)
            throw ConfigError(diagnostics: [ConfigDiagnostic(file: file, line: position.line, column: position.column,
                                                             keyPath: "", message: "invalid UTF-8")])
        }
        return try read(text, file: file, body)
    }

    /// The error for a file that cannot be read: one diagnostic without a position (line and
    /// column 0) whose message says why ("cannot open: No such file or directory").
    public static func unreadable(file: String, message: String) -> ConfigError {
        ConfigError(diagnostics: [ConfigDiagnostic(file: file, line: 0, column: 0, keyPath: "", message: message)])
    }

    /// The byte offset where UTF-8 decoding of `bytes` first fails (`bytes.count` if it does not).
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return offset
            }
        }
    }

    /// Validates `text`; `file` is the name used in diagnostics (and the directory that files
    /// named in it are relative to, read with `readFile`).
    public static func parse(_ text: String, file: String, readFile: ReadFile? = nil) throws(ConfigError) -> Configuration {
        try check(text, file: file, readFile: readFile).configuration
    }

    /// Validates `text` and finds its warnings, located in it.
    public static func check(_ text: String, file: String, readFile: ReadFile? = nil) throws(ConfigError)
        -> (configuration: Configuration, warnings: [ConfigDiagnostic]) {
        try read(text, file: file) { reader, document in checked(&reader, document, readFile: readFile) }
    }

    /// The configuration in a decoded document, with its cross-references checked, and its
    /// warnings located (they matter only when there is no error).
    private static func checked(_ reader: inout DocumentReader, _ document: Node, readFile: ReadFile?)
        -> (configuration: Configuration, warnings: [ConfigDiagnostic]) {
        reader.readFile = readFile
        var references = ReferenceTable()
        let configuration = reader.configuration(document, references: &references)
        reader.checkReferences(references)
        let warnings = configuration.warnings().map { warning in
            let p = reader.source.position(of: reader.valueOffset(of: warning.keyPath))
            return ConfigDiagnostic(file: reader.file, line: p.line, column: p.column, keyPath: warning.keyPath,
                                    message: warning.message)
        }
        return (configuration, warnings.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
    }

    /// The two passes over `text`; `body` gives the parsed document its meaning, reporting every
    /// problem through the reader.
    static func read<T>(_ text: String, file: String, _ body: (inout DocumentReader, Node) -> T) throws(ConfigError) -> T {
        let source = SourceText(text)
        let document: JSON5Document
        do {
            document = try JSON5Parser.parse(source)
        } catch {
            let p = source.position(of: error.offset)
            throw ConfigError(diagnostics: [ConfigDiagnostic(file: file, line: p.line, column: p.column,
                                                             keyPath: error.path, message: error.message)])
        }
        let map = document.map
        var reader = DocumentReader(file: file, source: source, map: map)
        for duplicate in map.duplicateKeys {
            let key = duplicate.path.split(separator: ".").last.map(String.init) ?? duplicate.path
            reader.report("duplicate key \"\(key)\" (first at \(source.positionText(of: duplicate.firstOffset)))",
                          path: duplicate.path, offset: duplicate.offset)
        }
        let result = body(&reader, Node(located: document.root, path: ""))

        var diagnostics = reader.sortedDiagnostics
        guard !diagnostics.isEmpty else { return result }
        if diagnostics.count > maximumDiagnostics {
            var last = diagnostics[maximumDiagnostics]
            last.keyPath = ""
            last.message = "too many errors; \(diagnostics.count - maximumDiagnostics) more not shown"
            diagnostics = Array(diagnostics.prefix(maximumDiagnostics)) + [last]
        }
        throw ConfigError(diagnostics: diagnostics)
    }

    /// The embedded default configuration, parsed. A test proves that it parses.
    public static func defaultConfiguration() -> Configuration { parsedDefault }

    private static let parsedDefault: Configuration = {
        do {
            return try parse(defaultText, file: defaultFileName)
        } catch {
            preconditionFailure("the embedded default configuration is invalid:\n\(error)")
        }
    }()

    /// The name diagnostics of the embedded default configuration would carry.
    static let defaultFileName = "<default configuration>"
}
