/// `check-config [--strict] FILE`: errors exit 78; warnings print as `warning: FILE:L:C: KEYPATH:
/// MESSAGE` and exit 0, or 78 with `--strict` (CONTRACT.md §4).
enum CheckConfigCommand {
    static func run(file: String, strict: Bool) throws(CommandFailure) {
        let warnings = try checkConfiguration(file).warnings
        for warning in warnings { print("warning: \(warning)") }
        let count = warnings.count == 1 ? "1 warning" : "\(warnings.count) warnings"
        if strict && !warnings.isEmpty { throw CommandFailure(ExitStatus.config, "\(file): \(count) (--strict)") }
        print(warnings.isEmpty ? "\(file): valid" : "\(file): valid, with \(count)")
    }
}
