/// An invariant that did not hold: what was expected, and the evidence.
///
/// The fuzz targets trap on one (libFuzzer then saves the input as a crash); the regression
/// tests of `swift test` run the same harnesses and expect none.
public struct Violation: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Throws a `Violation` with `message` unless `condition` holds.
@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(Violation) {
    if !condition { throw Violation(message()) }
}
