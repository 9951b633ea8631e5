/// Writes the engine's recognizer bugs (the `BUG:` entries of its trace) to the log,
/// rate-limited under one key: a recognizer that misbehaves on every frame costs five lines
/// per window, and the engine itself keeps a bounded trace between drains.
enum RecognizerBugLog {
    static let key = "recognizer bug"

    static func log(_ trace: [String]) {
        for entry in trace { Log.limited(.error, key: key, "\(entry); proposal ignored") }
    }
}
