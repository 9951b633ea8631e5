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
