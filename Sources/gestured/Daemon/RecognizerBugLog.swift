import GesturedCore

/// Writes the engines' recognizer bugs (`Batch.bugs`, typed) to the log, rate-limited under one
/// key: a recognizer that misbehaves on every frame costs five lines per window, and the engine
/// itself keeps a bounded number of them between steps.
enum RecognizerBugLog {
    static let key = "recognizer bug"

    static func log(_ bugs: [RecognizerBug]) {
        for bug in bugs { Log.limited(.error, key: key, "\(bug.traceLine); proposal ignored") }
    }
}
