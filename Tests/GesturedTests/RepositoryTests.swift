import FoundationEssentials
import GesturedTestSupport
import Testing

/// The executable stays a thin shell of small parts (docs/ARCHITECTURE.md, "Folders"): no Swift
/// file under Sources/ is over 300 lines (but the few being split, which may not grow), and the
/// daemon's parts and the one-shot commands live in their own folders.
@Suite struct RepositoryTests {
    static let root = TestEnvironment.packageRoot
    static let maximumLines = 300

    /// Swift files under `folder` (relative to the package root), recursively, sorted.
    static func swiftFiles(under folder: String) throws -> [String] {
        var found: [String] = []
        func walk(_ relative: String) throws {
            for entry in try FileManager.default.contentsOfDirectory(atPath: root + "/" + relative).sorted() {
                let child = relative + "/" + entry
                var isDirectory: Bool = false
                guard FileManager.default.fileExists(atPath: root + "/" + child, isDirectory: &isDirectory) else { continue }
                if isDirectory { try walk(child) } else if entry.hasSuffix(".swift") { found.append(child) }
            }
        }
        try walk(folder)
        return found
    }

    static func lineCount(_ relative: String) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative))
        return data.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    @Test func noExecutableFileIsOverThreeHundredLines() throws {
        let files = try Self.swiftFiles(under: "Sources/gestured")
        #expect(files.count > 30, "the walk found the executable's files")
        let long = try files.compactMap { file in
            let lines = try Self.lineCount(file)
            return lines > Self.maximumLines ? "\(file): \(lines) lines" : nil
        }
        #expect(long.isEmpty, "\(long)")
    }

    /// Files over the limit that colleagues are changing this round (issue #34 item 8), each at
    /// most at its present length: none may grow, a file brought under the limit leaves the list
    /// (`theAllowListOnlyHoldsLongFiles`), and no other file may pass the limit.
    static let longFilesBeingSplit: [String: Int] = [
        "Sources/GesturedCore/Engine/GestureEngine.swift": 718,
        "Sources/GesturedCore/Output/LineEncoder.swift": 670,
    ]

    @Test func noSourceFileIsOverThreeHundredLines() throws {
        let files = try Self.swiftFiles(under: "Sources")
        #expect(files.count > 150, "the walk found the sources")
        let long = try files.compactMap { file -> String? in
            let lines = try Self.lineCount(file)
            let limit = Self.longFilesBeingSplit[file] ?? Self.maximumLines
            return lines > limit ? "\(file): \(lines) lines (at most \(limit))" : nil
        }
        #expect(long.isEmpty, "\(long)")
    }

    @Test func theAllowListOnlyHoldsLongFiles() throws {
        for (file, limit) in Self.longFilesBeingSplit {
            let lines = try Self.lineCount(file)
            #expect(lines > Self.maximumLines, "\(file) has \(lines) lines: take it off the list")
            #expect(limit > Self.maximumLines)
        }
    }

    @Test func daemonPartsAndCommandsHaveTheirOwnFolders() throws {
        let files = try Self.swiftFiles(under: "Sources/gestured")
        #expect(files.contains("Sources/gestured/Daemon/Shell.swift"))
        #expect(files.contains("Sources/gestured/Commands/ReplayCommand.swift"))
        let topLevel = files.filter { $0.split(separator: "/").count == 3 }
        let commandsAtTop = topLevel.filter { $0.hasSuffix("Command.swift") }
        #expect(commandsAtTop.isEmpty, "\(commandsAtTop)")
        #expect(topLevel.count <= 8, "top level keeps only main and what both halves share: \(topLevel)")
    }
}

/// Every system call goes through the one wrapper (`syscall`, `negativeErrno` in
/// GesturedIO/SystemError.swift), which turns `-1`/`errno` into a typed `SystemError` with the
/// interruption policy chosen at the call; and the core, which makes no system calls, holds no
/// errno numbers (the shell tells it what a write did as a `WriteResult`).
@Suite struct SystemCallRuleTests {
    static let wrapperFile = "Sources/GesturedIO/SystemError.swift"

    /// The lines of a Swift file, numbered from 1, without their `//` comments unless `comments`.
    static func codeLines(_ relative: String, comments: Bool = false) throws -> [(number: Int, text: Substring)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: RepositoryTests.root + "/" + relative))
        let text = String(decoding: data, as: UTF8.self)
        let lines: [Substring] = text.split(separator: "\n", omittingEmptySubsequences: false)
        var numbered: [(number: Int, text: Substring)] = []
        for (index, line) in lines.enumerated() {
            let code: Substring = comments ? line : line.firstRange(of: "//").map { line[..<$0.lowerBound] } ?? line
            numbered.append((index + 1, code))
        }
        return numbered
    }

    /// Where `word` stands in `text` as a whole identifier (not `x.word`, not `wordy`), and is
    /// not a label (`word:`).
    static func usesIdentifier(_ word: String, in text: Substring) -> Bool {
        var rest = text[...]
        while let range = rest.firstRange(of: word) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            let isPart = { (c: Character?) in c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
            if !isPart(before) && before != "." && !isPart(after) && after != ":" { return true }
            rest = text[range.upperBound...]
        }
        return false
    }

    /// What a hand-made check of a system call looks like: a result compared with -1, or
    /// `errno` read outside the wrapper.
    static func handCheck(_ text: Substring) -> String? {
        for pattern in ["== -1", "!= -1", "Errno.current", "errno: .current", "Glibc.errno"] where text.contains(pattern) {
            return pattern
        }
        return usesIdentifier("errno", in: text) ? "errno" : nil
    }

    @Test func noSystemCallIsCheckedByHandOutsideTheWrapper() throws {
        let files = try RepositoryTests.swiftFiles(under: "Sources")
        #expect(files.contains(Self.wrapperFile) && files.count > 150, "the walk found the sources")
        var found: [String] = []
        for file in files where file != Self.wrapperFile {
            for line in try Self.codeLines(file) {
                if let pattern = Self.handCheck(line.text) { found.append("\(file):\(line.number): \(pattern)") }
            }
        }
        #expect(found == [])
    }

    @Test func theCoreHoldsNoErrnoNumbers() throws {
        let files = try RepositoryTests.swiftFiles(under: "Sources/GesturedCore")
        #expect(files.count > 50, "the walk found the core's files")
        // An errno number is a bare integer to the compiler, so the names are looked for in the
        // comments too: code that acts on errno values says which (`= 4 // EINTR`).
        let numbers = ["errno", "EINTR", "EAGAIN", "EWOULDBLOCK", "EPIPE", "ENOENT"], types = ["Errno", "Glibc"]
        var found: [String] = []
        for file in files {
            for line in try Self.codeLines(file, comments: true) {
                for name in numbers where Self.usesIdentifier(name, in: line.text) { found.append("\(file):\(line.number): \(name)") }
            }
            for line in try Self.codeLines(file) {
                for name in types where Self.usesIdentifier(name, in: line.text) { found.append("\(file):\(line.number): \(name)") }
            }
        }
        #expect(found == [])
    }

    /// The rule's own checks: what they catch and what they let through.
    @Test func theRuleCatchesHandChecks() {
        #expect(Self.handCheck("if fstat(fd, &s) == -1 { throw x }") == "== -1")
        #expect(Self.handCheck("if count < 0 && errno == EINTR { continue }") == "errno")
        #expect(Self.handCheck("throw BenchError(\"errno \\(errno)\")") == "errno")
        #expect(Self.handCheck("} catch where error.errno == .wouldBlock {") == nil)
        #expect(Self.handCheck("SystemError(operation: o, errno: error)") == nil)
        #expect(Self.usesIdentifier("EINTR", in: "static let interrupted: Int32 = 4 // EINTR") == true)
        #expect(Self.usesIdentifier("EINTR", in: "case notEINTRy") == false)
    }
}

/// One delivery out of the core (issue #34 item 1): one step function runs every pipeline input
/// (the batch is emptied, and each engine called, in one place), recognizer bugs are typed
/// values rather than strings fished out by prefix, and device lines leave through the batch
/// rather than past it.
@Suite struct DeliveryRuleTests {
    static func text(_ relative: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: RepositoryTests.root + "/" + relative)), as: UTF8.self)
    }

    static func occurrences(of needle: String, in files: [String]) throws -> [String] {
        var found: [String] = []
        for file in files {
            for line in try SystemCallRuleTests.codeLines(file) where line.text.contains(needle) {
                found.append("\(file):\(line.number)")
            }
        }
        return found
    }

    /// The pipeline's entry points and the control desk only say what came in.
    static func pipelineFiles() throws -> [String] {
        try RepositoryTests.swiftFiles(under: "Sources/GesturedCore/Pipeline").filter { $0.contains("/GesturePipeline") }
            + ["Sources/GesturedCore/Clients/ControlDesk.swift"]
    }

    @Test func oneStepEmptiesTheBatchAndCallsTheEngines() throws {
        let files = try Self.pipelineFiles()
        #expect(files.count > 4, "the walk found the pipeline's files")
        let step = try Self.occurrences(of: "batch.removeAll()", in: files)
        #expect(step.count == 1 && step[0].hasPrefix("Sources/GesturedCore/Pipeline/GesturePipeline+Step.swift:"), "\(step)")
        for call in [".engine.handle(", ".engine.advance(", ".engine.cancelAll(", ".engine.cancelGestures(", ".engine.change("] {
            let found = try Self.occurrences(of: call, in: files)
            #expect(found.count == 1 && found[0].hasPrefix("Sources/GesturedCore/Pipeline/GesturePipeline+EngineCalls.swift:"),
                    "\(call): \(found)")
        }
        let collect = try Self.occurrences(of: "drainTrace(", in: files)
        #expect(collect.count == 1 && collect[0].hasPrefix("Sources/GesturedCore/Pipeline/GesturePipeline+Step.swift:"), "\(collect)")
    }

    /// The pipeline's devices are in a table that cannot be asked for a device it does not hold
    /// (`DeviceTable`): no `devices[i]!` is left, nor any other force unwrap of the pipeline.
    @Test func thePipelineUnwrapsNoDevice() throws {
        let files = try Self.pipelineFiles() + ["Sources/GesturedCore/Pipeline/DeviceTable.swift"]
        var found: [String] = []
        for file in files {
            for line in try SystemCallRuleTests.codeLines(file) where line.text.contains("]!") || line.text.contains(")!") {
                found.append("\(file):\(line.number)")
            }
        }
        #expect(found == [])
    }

    @Test func recognizerBugsAreTypedNotStrings() throws {
        let files = try RepositoryTests.swiftFiles(under: "Sources")
        var found: [String] = []
        for file in files {
            for line in try SystemCallRuleTests.codeLines(file, comments: true)
            where line.text.contains("\"BUG: ") || line.text.contains("hasPrefix(\"BUG") {
                found.append("\(file):\(line.number)")
            }
        }
        #expect(found == [])
    }

    @Test func deviceLinesLeaveThroughTheBatch() throws {
        let shell = try Self.text("Sources/gestured/Daemon/Shell.swift")
        #expect(!shell.contains("func announce"), "the shell's announce goes: device lines are in the batch")
        let daemon = try RepositoryTests.swiftFiles(under: "Sources/gestured/Daemon")
        #expect(try Self.occurrences(of: "shell.announce(", in: daemon) == [])
    }

    /// The shell does not re-enter the core to encode or number lines within a step: the step's
    /// value carries the bytes (`Batch.delivery`). Allowed: `LineEncoder.fixed` (numbers in log
    /// messages), and the files that answer a client outside a step (`hello`, `stats`).
    @Test func theShellEncodesNoLineOfAStep() throws {
        let allowed: Set<String> = ["Sources/gestured/Daemon/ClientHub+Requests.swift", "Sources/gestured/Daemon/ClientHub+Stats.swift"]
        let files = try RepositoryTests.swiftFiles(under: "Sources/gestured/Daemon").filter { !allowed.contains($0) }
        #expect(files.contains("Sources/gestured/Daemon/Shell.swift") && files.contains("Sources/gestured/Daemon/ClientHub.swift"))
        var found: [String] = []
        for file in files {
            for line in try SystemCallRuleTests.codeLines(file) {
                let text = line.text.replacing("LineEncoder.fixed(", with: "")
                if text.contains("LineEncoder") || text.contains("LinePublisher") { found.append("\(file):\(line.number)") }
            }
        }
        #expect(found == [])
    }
}
