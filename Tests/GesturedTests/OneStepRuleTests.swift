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

/// Parts know each other one way (issue 49 item 2): what the shell must do next (grab a panel,
/// take a client's subscription into the core) comes back as data the loop hands on
/// (`Daemon.handOn`), never through a stored closure that calls into another part, so a client
/// dropped while a batch is carried out cannot re-enter the pipeline.
@Suite struct OneWayRuleTests {
    /// A stored property of function type: `var name: (…) -> …` or `let name: (…) -> …`.
    static func storesAClosure(_ text: Substring) -> Bool {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard let k = words.firstIndex(where: { $0 == "var" || $0 == "let" }), k + 2 < words.count,
              words[k + 1].hasSuffix(":") else { return false }
        let type = words[(k + 2)...].joined(separator: " ")
        return type.hasPrefix("(") && type.contains(") -> ") || type.hasPrefix("@escaping")
    }

    @Test func noDaemonPartStoresAClosure() throws {
        var found: [String] = []
        for file in try RepositoryTests.swiftFiles(under: "Sources/gestured/Daemon") {
            // Properties are declared at a type's top level: four spaces in.
            for line in try SystemCallRuleTests.codeLines(file)
            where line.text.hasPrefix("    ") && !line.text.hasPrefix("     ") && Self.storesAClosure(line.text) {
                found.append("\(file):\(line.number)")
            }
        }
        #expect(found == [])
    }

    @Test func theRuleCatchesAStoredClosure() {
        #expect(Self.storesAClosure("    var grabPanel: (GesturePipeline.DeviceID, Bool) -> Void = { _, _ in }"))
        #expect(Self.storesAClosure("    private let changed: (ClientID, ClientSubscription?) -> Void"))
        #expect(!Self.storesAClosure("    var count: Int { devices.count }"))
        #expect(!Self.storesAClosure("    func isOpen(syspath: String) -> Bool { true }"))
    }

    /// Who may name whom: the shell and the client hub name no part that drives them, so no
    /// call goes back up (the loop, `ClientRequests` and `DeviceHub` drive `LivePipeline`).
    @Test func theShellAndTheClientHubNameNoPartAboveThem() throws {
        var found: [String] = []
        for (file, names) in [("Sources/gestured/Daemon/Shell.swift", ["LivePipeline", "DeviceHub", "ClientRequests"]),
                              ("Sources/gestured/Daemon/ClientHub.swift", ["LivePipeline", "DeviceHub", "Shell"]),
                              ("Sources/gestured/Daemon/ClientHub+Requests.swift", ["LivePipeline", "DeviceHub", "Shell"]),
                              ("Sources/gestured/Daemon/LivePipeline.swift", ["DeviceHub", "ClientHub", "ClientRequests"])] {
            for line in try SystemCallRuleTests.codeLines(file) {
                for name in names where SystemCallRuleTests.usesIdentifier(name, in: line.text) {
                    found.append("\(file):\(line.number) \(name)")
                }
            }
        }
        #expect(found == [])
    }
}
