import FoundationEssentials
import GesturedTestSupport
import Testing

/// The executable stays a thin shell of small parts (docs/ARCHITECTURE.md, "Folders"): no Swift
/// file under Sources/gestured is over 300 lines, and the daemon's parts and the one-shot commands
/// live in their own folders.
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
