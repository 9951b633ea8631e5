import Glibc

/// What the command-line test tools (gestured-inject, gestured-vm-bench) print: each line in one
/// `write(2)`, so a test reading their output never waits for a buffer to fill.
public enum ToolOutput {
    /// `message` as one line on stdout.
    public static func say(_ message: String) { line(1, message) }

    /// "TOOL: message" on stderr, then exit with `status`.
    public static func fail(_ tool: String, _ message: String, status: Int32) -> Never {
        line(2, "\(tool): \(message)")
        exit(status)
    }

    private static func line(_ descriptor: Int32, _ text: String) {
        var line = text + "\n"
        line.withUTF8 { _ = write(descriptor, $0.baseAddress, $0.count) }
    }
}
