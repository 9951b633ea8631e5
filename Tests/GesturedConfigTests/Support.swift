import GesturedConfig
import GesturedCore
import Testing

/// The file name the tests' diagnostics carry.
let testFile = "test.json5"

/// The complete diagnostic transcript for `text`: one "FILE:LINE:COLUMN: KEYPATH: MESSAGE" line
/// per problem, in order; `[]` when the text is a valid configuration.
func diagnostics(_ text: String) -> [String] {
    do {
        _ = try ConfigLoader.parse(text, file: testFile)
        return []
    } catch {
        return error.diagnostics.map(\.description)
    }
}

/// Parses `text`, recording a test issue (with the diagnostics) when it is rejected.
func parsed(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Configuration? {
    do {
        return try ConfigLoader.parse(text, file: testFile)
    } catch {
        Issue.record("unexpected diagnostics:\n\(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The gestures of the first view of `text`.
func gestures(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [GestureSpec] {
    parsed(text, sourceLocation: sourceLocation)?.views.first?.gestures ?? []
}
