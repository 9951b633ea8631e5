import GesturedIO
import GesturedTestSupport
import Testing

/// docs/KIOSK.md's Raspberry Pi OS kiosk guide says only what the tests run (issue #33 item 4):
/// its autostart block is docs/kiosk/labwc-autostart, the file KioskGuideVMTests gives labwc; its
/// configuration is the shipped example the guest's daemon runs; every command of its other
/// `sh` blocks is one Tests/VMSystemd runs (an argument list there, joined by spaces).
@Suite struct KioskGuideTests {
    static let root = TestEnvironment.packageRoot

    /// The guide's section of KIOSK.md, up to the next `## ` heading.
    static func guide() throws -> String {
        let text = try readTextFile(path: Self.root + "/docs/KIOSK.md")
        let start = try #require(text.firstRange(of: "\n## Raspberry Pi OS kiosk guide\n"))
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.firstRange(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The `sh` code blocks of `text`, each with its indentation taken off.
    static func shellBlocks(_ text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        var indent = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if current == nil, trimmed == "```sh" {
                current = []
                indent = line.count - trimmed.count
            } else if current != nil, trimmed == "```" {
                blocks.append(current ?? [])
                current = nil
            } else if current != nil {
                current?.append(String(line.dropFirst(min(indent, line.count - trimmed.count))))
            }
        }
        return blocks
    }

    @Test func theAutostartBlockIsTheFileTheGuestRuns() throws {
        let file = try readTextFile(path: Self.root + "/docs/kiosk/labwc-autostart")
        let blocks = Self.shellBlocks(try Self.guide())
        #expect(blocks.contains { $0.joined(separator: "\n") + "\n" == file }, "no block of the guide is docs/kiosk/labwc-autostart")
        #expect(file.contains("chromium --kiosk --disable-pinch --overscroll-history-navigation=0 \"$KIOSK_URL\" &"))
        let vm = try readTextFile(path: Self.root + "/Tests/GesturedVMTests/KioskGuideVMTests.swift")
        #expect(vm.contains("\"/docs/kiosk/labwc-autostart\"") && vm.contains("\"/config/kiosk-rpi-7inch.json5\""))
    }

    @Test func theDeviceRuleIsTheShippedExampleTheGuestRuns() throws {
        let guide = try Self.guide()
        let example = try readTextFile(path: Self.root + "/config/kiosk-rpi-7inch.json5")
        let rule = "{ match: { type: \"touchscreen\" }, passThrough: true, cancelStyle: \"lift\" }"
        #expect(guide.contains("`" + rule + "`") && example.contains(rule + ","))
        #expect(guide.contains("/usr/share/doc/gestured/examples/kiosk-rpi-7inch.json5"))
    }

    @Test func everyCommandIsOneTheSystemdGuestRuns() throws {
        var runs = ""
        for name in ["BootChecks", "Guest", "PackageChecks", "ServiceChecks", "main"] {
            runs += try readTextFile(path: Self.root + "/Tests/VMSystemd/\(name).swift")
        }
        let blocks = Self.shellBlocks(try Self.guide()).filter { !($0.first ?? "").hasPrefix("#") }
        let commands = blocks.flatMap { $0 }.filter { !$0.isEmpty }
        #expect(commands.count == 5, "\(commands)")
        for command in commands {
            let words = command.split(separator: " ").map(String.init)
            #expect(words.first == "sudo", "\(command)")
            let literal = "[" + words.dropFirst().map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            #expect(runs.contains(literal), "Tests/VMSystemd does not run \(command) (\(literal))")
        }
    }

    /// A block the tests do not run says so on its first line, with the reason: a comment-led
    /// block escapes `everyCommandIsOneTheSystemdGuestRuns`, so it must be one of the files the
    /// guide shows (the autostart, a script) or begin `# not run by the tests`.
    @Test func everyBlockNotRunSaysWhy() throws {
        let file = try readTextFile(path: Self.root + "/docs/kiosk/labwc-autostart")
        var unexplained: [String] = []
        for block in Self.shellBlocks(try Self.guide()) {
            guard let first = block.first, first.hasPrefix("#") else { continue }
            if first.hasPrefix("# not run by the tests") || first.hasPrefix("#!") || block.joined(separator: "\n") + "\n" == file {
                continue
            }
            unexplained.append(first)
        }
        #expect(unexplained == [], "blocks the tests skip without saying why")
    }

    /// The block parser on a made-up section, so a guide with no block cannot pass.
    @Test func theBlocksAreFound() {
        let text = "a\n   ```sh\n   x y\n\n   z\n   ```\n```js\nw\n```\n```sh\nv\n```\n"
        #expect(Self.shellBlocks(text) == [["x y", "", "z"], ["v"]])
    }
}
