import FoundationEssentials
import Testing

/// What the source tree may not do, read from the tree itself: shipped code never imports a
/// module of the test tree (the layering the targets show must be true), errno values are named
/// (`Errno.busy`, `SystemError.isBusy`) outside the one wrapper that turns them into errors,
/// every build keeps Swift's run-time exclusivity checks (Package.swift says why), one rule sizes
/// screens, and comments give reasons, not instruction counts or history.
@Suite struct SourceTreeRuleTests {
    static let wrapperFile = SystemCallRuleTests.wrapperFile

    /// Files still being restructured by a colleague (issue 49), each with the raw comparison it
    /// holds: the list only shrinks (`theRawErrnoAllowListIsStillNeeded`).
    static let rawErrnoPending: Set<String> = []

    static func packageText() throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: RepositoryTests.root + "/Package.swift"))
        return String(decoding: data, as: UTF8.self)
    }

    /// The modules whose targets live under Tests/, from the manifest's text: test targets
    /// without a `path:`, and any target whose `path:` is under Tests/.
    static func testTreeModules(manifest: String) throws -> Set<String> {
        let target = try Regex(#"\.(target|testTarget|executableTarget|systemLibrary)\(name:\s*"([^"]+)""#)
        let path = try Regex(#"path:\s*"([^"]+)""#)
        let starts = manifest.matches(of: target)
        var modules: Set<String> = []
        for (k, match) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1].range.lowerBound : manifest.endIndex
            let declaration = manifest[match.range.lowerBound..<end]
            let kind = String(match.output[1].substring ?? "")
            let name = String(match.output[2].substring ?? "")
            let place = declaration.firstMatch(of: path).map { String($0.output[1].substring ?? "") }
                ?? (kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
            if place.hasPrefix("Tests/") { modules.insert(name) }
        }
        return modules
    }

    /// The module a line imports (`import X`, `@testable import X`), or nil.
    static func importedModule(_ line: Substring) -> String? {
        let words = line.split(separator: " ")
        guard let k = words.firstIndex(of: "import"), words[..<k].allSatisfy({ $0.hasPrefix("@") }), k + 1 < words.count else {
            return nil
        }
        return String(words[k + 1])
    }

    @Test func noSourceImportsATestModule() throws {
        let testModules = try Self.testTreeModules(manifest: try Self.packageText())
        #expect(testModules.contains("GesturedTestSupport") && testModules.contains("GesturedCoreTests"),
                "the manifest was read: \(testModules.sorted())")
        let files = try RepositoryTests.swiftFiles(under: "Sources")
        #expect(files.count > 150, "the walk found the sources")
        var found: [String] = []
        for file in files {
            for line in try SystemCallRuleTests.codeLines(file) {
                if let module = Self.importedModule(line.text), testModules.contains(module) {
                    found.append("\(file):\(line.number): imports \(module)")
                }
            }
        }
        #expect(found == [])
    }

    /// A raw errno comparison: `errno.rawValue` read, an `E…` constant compared or matched, or an
    /// `Errno` made from one.
    static func rawErrnoUse(_ text: Substring) throws -> String? { try RawErrno().use(in: text) }

    /// `rawErrnoUse`'s patterns, compiled once per walk (a regex compiled per line makes the walk
    /// take seconds).
    struct RawErrno {
        static let patterns = [#"errno\.rawValue"#, #"[=!]=\s*-?E[A-Z][A-Z0-9]+\b"#, #"\bcase\s+-?E[A-Z][A-Z0-9]+\b"#,
                               #"Errno\(rawValue:\s*-?E[A-Z]"#]
        let compiled: [Regex<AnyRegexOutput>]
        init() throws { compiled = try Self.patterns.map { try Regex($0) } }

        func use(in text: Substring) -> String? {
            // Every pattern holds `E` or `errno`: most lines are passed over without a match.
            guard text.contains("E") || text.contains("errno") else { return nil }
            for (k, regex) in compiled.enumerated() where text.contains(regex) { return Self.patterns[k] }
            return nil
        }
    }

    @Test func noRawErrnoOutsideTheWrapper() throws {
        let files = try RepositoryTests.swiftFiles(under: "Sources")
        #expect(files.contains(Self.wrapperFile), "the walk found the wrapper")
        let raw = try RawErrno()
        var found: [String] = []
        for file in files where file != Self.wrapperFile && !Self.rawErrnoPending.contains(file) {
            for line in try SystemCallRuleTests.codeLines(file) where raw.use(in: line.text) != nil {
                found.append("\(file):\(line.number): \(line.text.trimmingPrefix(while: { $0 == " " }))")
            }
        }
        #expect(found == [])
    }

    @Test func theRawErrnoAllowListIsStillNeeded() throws {
        for file in Self.rawErrnoPending {
            let raw = try SystemCallRuleTests.codeLines(file).contains { try Self.rawErrnoUse($0.text) != nil }
            #expect(raw, "\(file) no longer compares errno raw: take it off the list")
        }
    }

    @Test func everyBuildKeepsExclusivityChecks() throws {
        let manifest = try Self.packageText()
        #expect(manifest.contains("swiftLanguageModes"), "the manifest was read")
        #expect(!manifest.contains("enforce-exclusivity"))
    }

    /// One screen-size rule: only `ScreenSizing` reads its fallback size; everything else asks
    /// the rule (`ScreenSizing.size(configured:)`), so the fallback cannot drift between parts.
    @Test func onlyScreenSizingReadsTheFallbackScreen() throws {
        let rule = "Sources/GesturedCore/Input/ScreenSizing.swift"
        let files = try RepositoryTests.swiftFiles(under: "Sources")
        #expect(files.contains(rule), "the walk found the rule")
        var found: [String] = []
        for file in files where file != rule {
            for line in try SystemCallRuleTests.codeLines(file)
            where line.text.contains("ScreenSizing.fallback") || line.text.contains("fallbackScreen") {
                found.append("\(file):\(line.number)")
            }
        }
        #expect(found == [])
    }

    /// Files being restructured by a colleague whose comments still carry a figure or a story;
    /// the list only shrinks (`theFigureAllowListIsStillNeeded`).
    static let figuresPending: Set<String> = []

    /// A comment that carries an instruction count or a piece of history (an issue, a review)
    /// rather than a reason: those live in docs/PERFORMANCE.md and the commit messages.
    static func figureOrHistory(_ line: Substring) -> Bool {
        guard let comment = line.firstRange(of: "//").map({ line[$0.lowerBound...] }) else { return false }
        let words = comment.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ")" || $0 == "~" })
        for (k, word) in words.enumerated().dropFirst() {
            let before = words[k - 1]
            let number = !before.isEmpty && before.allSatisfy { $0.isNumber || $0 == "," || $0 == "." }
            if number && word.hasPrefix("instruction") { return true }
            if before == "issue" && word.first?.isNumber == true { return true }
            if before == "security" && word.hasPrefix("review") { return true }
        }
        return false
    }

    @Test func commentsSayWhyNotHowMuchOrWhen() throws {
        let files = try RepositoryTests.swiftFiles(under: "Sources")
        var found: [String] = []
        for file in files where !Self.figuresPending.contains(file) {
            for line in try SystemCallRuleTests.codeLines(file, comments: true) where Self.figureOrHistory(line.text) {
                found.append("\(file):\(line.number)")
            }
        }
        #expect(found == [])
    }

    @Test func theFigureAllowListIsStillNeeded() throws {
        for file in Self.figuresPending {
            let still = try SystemCallRuleTests.codeLines(file, comments: true).contains { Self.figureOrHistory($0.text) }
            #expect(still, "\(file) no longer carries a figure: take it off the list")
        }
    }

    /// The rules' own checks: what they catch and what they let through.
    @Test func theRulesCatchWhatTheyShould() throws {
        #expect(try Self.rawErrnoUse("} catch where error.errno.rawValue == EBUSY {") != nil)
        #expect(try Self.rawErrnoUse("switch error.errno.rawValue {") != nil)
        #expect(try Self.rawErrnoUse("case EMFILE, ENFILE: pause()") != nil)
        #expect(try Self.rawErrnoUse("if result == -EAGAIN { return }") != nil)
        #expect(try Self.rawErrnoUse("return error.errno == Errno(rawValue: EACCES)") != nil)
        #expect(try Self.rawErrnoUse("} catch where error.errno == .wouldBlock {") == nil)
        #expect(try Self.rawErrnoUse("} catch where error.isBusy {") == nil)
        #expect(try Self.rawErrnoUse("if event.type == EventCode.EV_SYN {") == nil)
        #expect(try Self.rawErrnoUse("case EV_ABS: break") == nil)
        #expect(Self.figureOrHistory("    // indexing it cost about 13 instructions an event."))
        #expect(Self.figureOrHistory("/// the look-ups cost ~1,500 instructions."))
        #expect(Self.figureOrHistory("/// What draw shows (issue 37): where"))
        #expect(Self.figureOrHistory("/// (28,810 in one wakeup in the security review)."))
        #expect(!Self.figureOrHistory("let instructions = 3   // the count of instructions it runs"))
        #expect(!Self.figureOrHistory("/// one conversion instruction, where a loop takes several"))
        #expect(!Self.figureOrHistory("let issue = 4   // an issue with four fingers"))
        #expect(Self.importedModule("@testable import GesturedTestSupport") == "GesturedTestSupport")
        #expect(Self.importedModule("import Glibc") == "Glibc")
        #expect(Self.importedModule("let important = 1") == nil)
        let manifest = """
            .target(name: "Lib", dependencies: ["Core"]),
            .target(name: "Helpers", dependencies: ["Lib"],
                    path: "Tests/Helpers"),
            .testTarget(name: "LibTests", dependencies: ["Lib"]),
            .executableTarget(name: "tool", path: "Sources/tool"),
            """
        #expect(try Self.testTreeModules(manifest: manifest) == ["Helpers", "LibTests"])
    }
}
