import FoundationEssentials
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// What the Debian package states about itself agrees with the code and the repository: one
/// version (debian/changelog, `gestured --version`, the man pages), and a machine-readable
/// debian/copyright whose licences are the repository's LICENSE files word for word.
/// `make deb` builds the package and lintian checks it; the systemd guest installs it.
@Suite struct PackagingTests {
    static let root = TestEnvironment.packageRoot

    /// `gestured (0.1.0-1) bookworm; urgency=medium` → ("0.1.0", "1").
    func changelogVersion() throws -> (upstream: String, revision: String) {
        let first = try #require(try readTextFile(path: Self.root + "/debian/changelog").split(separator: "\n").first)
        let open = try #require(first.firstIndex(of: "(")), close = try #require(first.firstIndex(of: ")"))
        #expect(first.hasPrefix("gestured ("), "\(first)")
        let version = first[first.index(after: open)..<close]
        let dash = try #require(version.lastIndex(of: "-"), "\(version) has no Debian revision")
        return (String(version[..<dash]), String(version[version.index(after: dash)...]))
    }

    @Test func thePackageAndTheBinaryHaveOneVersion() throws {
        let (upstream, revision) = try changelogVersion()
        #expect(!revision.isEmpty && revision.allSatisfy(\.isNumber), "revision \(revision)")
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-version")
        let run = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", ["--version"], in: directory.path,
                                     deadline: deadline(milliseconds: 20_000))
        #expect(run.stdout == "gestured \(upstream) (protocol 1)\n", "debian/changelog says \(upstream)")
        // Sources/gestured/Version.swift is where the number lives; the man pages name it too.
        let source = try readTextFile(path: Self.root + "/Sources/gestured/Version.swift")
        #expect(source.contains("static let string = \"\(upstream)\""), "\(source)")
        for page in ["gestured.8", "gestured.json5.5"] {
            let header = try #require(try readTextFile(path: Self.root + "/man/" + page).split(separator: "\n").first)
            #expect(header.hasSuffix("\"gestured \(upstream)\" \"\(page.hasSuffix(".8") ? "System Administration" : "File Formats")\""),
                    "\(page): \(header)")
        }
    }

    /// DEP-5 paragraphs: each `Field: value` with its continuation lines.
    func paragraphs(_ text: String) -> [[String: String]] {
        text.split(separator: "\n\n").map { block in
            var fields: [String: String] = [:]
            var current: String?
            for line in block.split(separator: "\n") {
                if line.hasPrefix(" "), let key = current {
                    fields[key, default: ""] += "\n" + line.dropFirst()
                } else if let colon = line.firstIndex(of: ":") {
                    let key = String(line[..<colon])
                    fields[key] = String(line[line.index(after: colon)...].drop { $0 == " " })
                    current = key
                }
            }
            return fields
        }
    }

    /// The words of a licence text, so line breaks, DEP-5's " ." and spaces do not count.
    func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0.isWhitespace }).filter { $0 != "." }
    }

    @Test func copyrightIsMachineReadableAndMatchesTheLicenceFiles() throws {
        let all = paragraphs(try readTextFile(path: Self.root + "/debian/copyright"))
        let header = try #require(all.first)
        #expect(header["Format"] == "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
        #expect(header["Upstream-Name"] == "gestured")
        let files = all.filter { $0["Files"] != nil }
        let licences = Dictionary(all.filter { $0["Files"] == nil && $0["License"] != nil }.map { paragraph -> (String, String) in
            let value = paragraph["License"]!
            let newline = value.firstIndex(of: "\n") ?? value.endIndex
            return (String(value[..<newline]), String(value[newline...]))
        }, uniquingKeysWith: { first, _ in first })
        #expect(files.first?["Files"] == "*", "the first Files paragraph must cover every file")
        for paragraph in files {
            #expect(paragraph["Copyright"]?.isEmpty == false, "\(paragraph)")
            let name = try #require(paragraph["License"], "\(paragraph)")
            #expect(licences[name] != nil, "License: \(name) has no paragraph with its text")
        }

        // The project's licence: LICENSE at the root, after its title and copyright line.
        let project = try readTextFile(path: Self.root + "/LICENSE")
        #expect(project.hasPrefix("MIT License\n\nCopyright (c) 2026 gestured contributors\n"))
        #expect(files.first?["Copyright"] == "2026 gestured contributors")
        let projectText = project.split(separator: "\n").dropFirst(2).joined(separator: "\n")
        #expect(words(projectText) == words(licences["Expat"] ?? ""), "debian/copyright's Expat text differs from LICENSE")

        // The vendored recordings keep theirs: the paragraph for their folder names their holder
        // and carries their text.
        let recordings = try #require(files.first { $0["Files"] == "Tests/Fixtures/evemu-devices/*" })
        let theirs = try readTextFile(path: Self.root + "/Tests/Fixtures/evemu-devices/LICENSE")
        let holder = try #require(theirs.split(separator: "\n").first)
        #expect(holder == "Copyright © " + (recordings["Copyright"] ?? ""), "\(holder)")
        let theirText = theirs.split(separator: "\n").dropFirst(1).joined(separator: "\n")
        #expect(words(theirText) == words(licences[recordings["License"] ?? ""] ?? ""), "the recordings' licence text differs")
        #expect(FileManager.default.fileExists(atPath: Self.root + "/Tests/Fixtures/evemu-devices/README.md"))
    }

    /// The conffile, the sysusers and udev files debhelper installs, and every unit, come from
    /// the files the Makefile installs: nothing in debian/ is a second copy that could drift.
    @Test func debianReusesTheRepositorysFiles() throws {
        var link = [CChar](repeating: 0, count: 256)
        for (file, target) in [("gestured.sysusers", "../systemd/gestured.sysusers"),
                               ("gestured.gestured-uinput.udev", "../systemd/60-gestured-uinput.rules")] {
            let count = readlink(Self.root + "/debian/" + file, &link, link.count - 1)
            #expect(count > 0 && String(decoding: link[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == target,
                    "debian/\(file) must be a link to \(target)")
        }
        let rules = try readTextFile(path: Self.root + "/debian/rules")
        #expect(rules.contains("$(MAKE) install DESTDIR=$(CURDIR)/debian/tmp PREFIX=/usr"))
        let install = try readTextFile(path: Self.root + "/debian/gestured.install")
        #expect(install.split(separator: "\n").contains("etc/gestured/gestured.json5"))
    }
}
