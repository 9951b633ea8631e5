import Foundation
import Testing

/// Every cause is one step (issue 49 item 1): a device opened or closed with its line, a
/// screen's power read before a read, the idle clock's start and a reload with what it does to
/// each device are each one `Input` of the pipeline, so nothing in the shell changes the core
/// between two steps; and the forwarder decides in one place, from its own news, not as each
/// caller steers it.
@Suite struct OneStepRuleTests {
    /// The pipeline's files (its entry points, its step, what the step calls).
    static func pipelineFiles() throws -> [String] {
        try RepositoryTests.swiftFiles(under: "Sources/GesturedCore/Pipeline")
    }

    @Test func theForwarderDecidesInOnePlace() throws {
        let files = try Self.pipelineFiles()
        #expect(files.count > 10, "the walk found the pipeline's files")
        let decide = try DeliveryRuleTests.occurrences(of: "forwarder.decide(", in: files)
        #expect(decide.count == 1 && decide[0].hasPrefix("Sources/GesturedCore/Pipeline/GesturePipeline+EngineCalls.swift:"),
                "\(decide)")
        #expect(try DeliveryRuleTests.occurrences(of: "Deciding", in: files) == [], "no caller steers the decision")
        #expect(try DeliveryRuleTests.occurrences(of: "deciding:", in: files) == [])
    }

    /// The pipeline's public mutating functions are its entry points: each says what came in
    /// and runs one step (or, `prepareDevice`, builds what a step will add, which may fail).
    @Test func everyPublicChangeOfThePipelineIsAStep() throws {
        let allowed: Set<String> = ["prepareDevice", "addDevice"]   // addDevice(_:rule:…:into:) prepares, then steps
        var found: [String] = []
        for file in try Self.pipelineFiles() where file.contains("/GesturePipeline") {
            let lines = try SystemCallRuleTests.codeLines(file)
            for (k, line) in lines.enumerated() {
                guard let range = line.text.range(of: "public mutating func ") else { continue }
                let name = String(line.text[range.upperBound...].prefix { $0.isLetter || $0.isNumber })
                // The body, to its closing brace at the function's indentation.
                let indent = line.text.prefix { $0 == " " }
                var body = ""
                for next in lines[k...] {
                    body += next.text + "\n"
                    if next.text.hasPrefix(indent + "}") || (next.number == line.number && next.text.hasSuffix("}")) { break }
                }
                if !body.contains("step(.") && !allowed.contains(name) { found.append("\(file):\(line.number) \(name)") }
            }
        }
        #expect(found == [])
    }

    /// What changed the core outside a step is gone: the shell has no way to say a screen is
    /// off, start the idle clock, move a device to a screen or announce a device but through a
    /// step's input.
    @Test func theShellChangesTheCoreOnlyThroughSteps() throws {
        let files = try RepositoryTests.swiftFiles(under: "Sources")
        var found: [String] = []
        for needle in ["setScreenOff(", "startIdleClock(", ".setScreen(", ".announce(DeviceLine", "live.cancelForwarded("] {
            found += try DeliveryRuleTests.occurrences(of: needle, in: files).map { "\(needle) \($0)" }
        }
        #expect(found == [])
    }
}
