#if canImport(Glibc)
import Glibc
#endif

/// What a fuzz target does with a violation: prints it and aborts, which libFuzzer reports as a
/// crash and saves the input for (then `make fuzz` counts it).
public func violated(_ violation: Violation) -> Never {
    var message = "invariant violated: \(violation.message)\n"
    message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    abort()
}
