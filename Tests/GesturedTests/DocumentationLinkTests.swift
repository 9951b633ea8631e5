import FoundationEssentials
import GesturedIO
import GesturedTestSupport
import Testing

/// Every relative link in the repository's Markdown resolves to a file of the repository (the
/// docs are read on a forge, in a clone and in /usr/share/doc/gestured alike), and the README's
/// documentation list names every document in docs/.
@Suite struct DocumentationLinkTests {
    static let root = TestEnvironment.packageRoot
    /// Not the repository's own text: build output and tools' folders (and the other scratch
    /// paths, `.build-*`: the arm64 cross-build's `.build-arm64`).
    static let skipped: Set<String> = [".build", ".git", ".swiftpm", "dist"]

    /// The Markdown files under the root, as paths relative to it.
    static func markdownFiles() throws -> [String] {
        var found: [String] = []
        func walk(_ relative: String) throws {
            let path = relative.isEmpty ? root : root + "/" + relative
            for entry in try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            where !skipped.contains(entry) && !entry.hasPrefix(".build-") {
                let child = relative.isEmpty ? entry : relative + "/" + entry
                var isDirectory: Bool = false
                guard FileManager.default.fileExists(atPath: root + "/" + child, isDirectory: &isDirectory) else { continue }
                if isDirectory { try walk(child) } else if entry.hasSuffix(".md") { found.append(child) }
            }
        }
        try walk("")
        return found
    }

    struct Link: CustomStringConvertible {
        var file: String, line: Int, target: String
        var description: String { "\(file):\(line): \(target)" }
    }

    /// Inline links and images `[text](target "title")` and reference definitions
    /// `[name]: target`, outside fenced code blocks and code spans.
    static func links(in text: String, file: String) -> [Link] {
        var links: [Link] = []
        var fenced = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if rawLine.drop(while: { $0 == " " }).hasPrefix("```") { fenced.toggle(); continue }
            if fenced { continue }
            // Code spans hold examples, not links.
            var line = ""
            var inCode = false
            for character in rawLine {
                if character == "`" { inCode.toggle(); continue }
                if !inCode { line.append(character) }
            }
            let trimmed = String(line.drop(while: { $0 == " " }))
            if trimmed.hasPrefix("["), let end = trimmed.firstRange(of: "]: ") {
                links.append(Link(file: file, line: index + 1, target: String(trimmed[end.upperBound...].split(separator: " ").first ?? "")))
                continue
            }
            var rest = line
            while let close = rest.firstRange(of: "](") {
                let after = rest[close.upperBound...]
                guard let end = after.firstIndex(of: ")") else { break }
                let target = after[..<end].split(separator: " ").first.map(String.init) ?? ""
                links.append(Link(file: file, line: index + 1, target: target))
                rest = String(after[end...])
            }
        }
        return links
    }

    /// `target` relative to the folder of `file`, normalized; nil when it leaves the repository.
    static func resolve(_ target: String, from file: String) -> String? {
        var parts = file.split(separator: "/").dropLast().map(String.init)
        for part in target.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if parts.popLast() == nil { return nil }
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }

    @Test func everyRelativeLinkResolvesToAFileOfTheRepository() throws {
        let files = try Self.markdownFiles()
        #expect(files.contains("README.md") && files.contains("docs/CONFIG.md"), "\(files)")
        var checked = 0
        var broken: [String] = []
        for file in files {
            for link in Self.links(in: try readTextFile(path: Self.root + "/" + file), file: file) {
                let target = link.target
                if target.isEmpty || target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") { continue }
                let path = String(target.split(separator: "#", maxSplits: 1).first ?? "")
                checked += 1
                guard let resolved = Self.resolve(path, from: file) else { broken.append("\(link) (outside the repository)"); continue }
                if !FileManager.default.fileExists(atPath: Self.root + "/" + resolved) { broken.append("\(link) (no \(resolved))") }
            }
        }
        #expect(broken == [])
        #expect(checked >= 25, "only \(checked) relative links found: the parser misses some")
    }

    /// The parser itself: what counts as a link, and what resolves.
    @Test func linksAreFoundOutsideCodeOnly() {
        let text = """
            See [the config](docs/CONFIG.md#top) and ![a picture](images/a.svg "title").
            `[not](a-link.md)` and [x]: ref.md
            [ref]: docs/KIOSK.md
            ```
            [inside](code.md)
            ```
            """
        #expect(Self.links(in: text, file: "README.md").map(\.description)
                == ["README.md:1: docs/CONFIG.md#top", "README.md:1: images/a.svg", "README.md:3: docs/KIOSK.md"])
        #expect(Self.resolve("../README.md", from: "docs/CONFIG.md") == "README.md")
        #expect(Self.resolve("../../x.md", from: "docs/CONFIG.md") == nil)
    }

    @Test func theReadmeListsEveryDocument() throws {
        let readme = try readTextFile(path: Self.root + "/README.md")
        let section = try #require(readme.firstRange(of: "\n## Documentation\n"), "README.md has no Documentation section")
        let after = String(readme[section.upperBound...])
        let list = after.firstRange(of: "\n## ").map { String(after[..<$0.lowerBound]) } ?? after
        let documents = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/docs").filter { $0.hasSuffix(".md") }.sorted()
        #expect(documents.count >= 8)
        for document in documents {
            #expect(list.contains("[docs/\(document)](docs/\(document))"), "README's documentation list lacks docs/\(document)")
        }
    }
}
