import FoundationEssentials
import Testing

/// Modules show the layers (issue 49 item 7; STYLE.md, docs/ARCHITECTURE.md "Modules"): the
/// gesture engine is one module, `GesturedCore`, that imports nothing of the package; the tools
/// beside it (doctor, calibration, pictures, evemu parsing) and the MQTT bridge are modules that
/// depend on it, never the reverse. The compiler enforces a target's dependencies only loosely
/// (a module a dependency uses can be imported without being declared), so every file's imports
/// are read here: each is one of its target's declared dependencies in Package.swift, and the
/// modules of Sources/ declare exactly what `layers` (the documented picture) says.
@Suite struct ModuleLayeringTests {
    /// What each module of Sources/ may import of the package: docs/ARCHITECTURE.md's table.
    /// A new dependency is a change to the picture: here, in Package.swift and in the document.
    static let layers: [String: Set<String>] = [
        "GesturedCore": [],
        "GesturedEvemu": ["GesturedCore"],
        "GesturedSeeing": ["GesturedCore"],
        "GesturedDoctor": ["GesturedCore"],
        "GesturedCalibration": ["GesturedCore", "GesturedDoctor"],
        "GesturedMQTT": ["GesturedCore"],
        "GesturedConfig": ["GesturedCore", "GesturedSeeing"],
        "GesturedIO": ["GesturedCore", "GesturedDoctor", "CEvdev", "CUdev", "CLinux"],
        "GesturedSynthetic": ["GesturedCore"],
        "GesturedBenchKit": ["GesturedCore", "GesturedConfig", "GesturedSynthetic"],
        "gestured": ["GesturedCore", "GesturedConfig", "GesturedIO", "GesturedMQTT", "GesturedEvemu", "GesturedSeeing",
                     "GesturedDoctor", "GesturedCalibration", "CLinux", "CMosquitto"],
    ]
    /// The tools beside the engine and the bridges: nothing under Sources/GesturedCore imports them.
    static let besideTheCore: Set = ["GesturedEvemu", "GesturedSeeing", "GesturedDoctor", "GesturedCalibration", "GesturedMQTT"]
    /// Pure modules: the Swift standard library and the package's pure modules only (no Glibc,
    /// no Foundation), as the core.
    static let pure: Set = ["GesturedCore", "GesturedEvemu", "GesturedSeeing", "GesturedDoctor", "GesturedCalibration",
                            "GesturedMQTT", "GesturedConfig"]

    struct Target: Equatable {
        var name: String
        var path: String
        var dependencies: Set<String>
        var hasSwift: Bool
    }

    /// The targets of a Package.swift's text: each `.target`, `.executableTarget`, `.testTarget`
    /// and `.systemLibrary` call with a literal name, its `dependencies` (the string literals of
    /// the list) and its `path` (else Sources/NAME, Tests/NAME for a test target). Names built
    /// at run time (the fuzz executables) are left out.
    static func targets(ofManifest text: String) -> [Target] {
        var found: [Target] = []
        let kinds = [(".target(", true, "Sources/"), (".executableTarget(", true, "Sources/"), (".testTarget(", true, "Tests/"),
                     (".systemLibrary(", false, "Sources/")]
        var rest = text[...]
        while let start = kinds.compactMap({ kind in rest.firstRange(of: kind.0).map { (range: $0, kind: kind) } })
                .min(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            let arguments = Self.balanced(rest[start.range.upperBound...])
            rest = rest[arguments.endIndex...]
            guard let name = Self.string(after: "name:", in: arguments), !name.contains("\\(") else { continue }
            var dependencies: Set<String> = []
            if let list = arguments.firstRange(of: "dependencies:").map({ arguments[$0.upperBound...] }),
               let open = list.firstIndex(of: "["), let close = list.firstIndex(of: "]") {
                dependencies = Set(list[list.index(after: open)..<close].split(separator: "\"", omittingEmptySubsequences: false)
                    .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
            }
            let path = Self.string(after: "path:", in: arguments) ?? start.kind.2 + name
            found.append(Target(name: name, path: path, dependencies: dependencies, hasSwift: start.kind.1))
        }
        return found
    }

    /// The text of a call's arguments: up to the parenthesis that closes it, strings and `//`
    /// comments skipped.
    static func balanced(_ text: Substring) -> Substring {
        var depth = 1, inString = false, inComment = false, previous: Character = " "
        for index in text.indices {
            let c = text[index]
            defer { previous = c }
            if inComment { if c == "\n" { inComment = false }; continue }
            if inString { if c == "\"" && previous != "\\" { inString = false }; continue }
            switch c {
            case "\"": inString = true
            case "/" where previous == "/": inComment = true
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return text[..<index] }
            default: break
            }
        }
        return text
    }

    /// The string literal after `label` in `text`.
    static func string(after label: String, in text: Substring) -> String? {
        guard let range = text.firstRange(of: label) else { return nil }
        let parts = text[range.upperBound...].split(separator: "\"", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].allSatisfy(\.isWhitespace) else { return nil }
        return String(parts[1])
    }

    /// The module a line imports, or nil: `import M`, `@testable import M`, `public import M`,
    /// `import struct M.T`. Only at the start of a line, as Swift's imports in this package are
    /// (a script's `import` in a string literal is indented).
    static func importedModule(_ line: Substring) -> String? {
        var words = line.split(separator: " ", omittingEmptySubsequences: true)[...]
        while let first = words.first, first.hasPrefix("@") || ["public", "internal", "package"].contains(first) {
            words = words.dropFirst()
        }
        guard line.first.map({ $0 != " " && $0 != "\t" }) ?? false, words.first == "import", words.count >= 2 else { return nil }
        words = words.dropFirst()
        if ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var"].contains(words.first ?? ""), words.count >= 2 {
            words = words.dropFirst()
        }
        guard let path = words.first, let module = path.split(separator: ".").first,
              module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return String(module)
    }

    /// Each file of `target` with the modules it imports.
    static func imports(of target: Target) throws -> [(file: String, modules: [String])] {
        try RepositoryTests.swiftFiles(under: target.path).map { file in
            (file, try SystemCallRuleTests.codeLines(file).compactMap { Self.importedModule($0.text) })
        }
    }

    static func manifest() throws -> [Target] {
        let data = try Data(contentsOf: URL(fileURLWithPath: RepositoryTests.root + "/Package.swift"))
        return Self.targets(ofManifest: String(decoding: data, as: UTF8.self))
    }

    @Test func everyImportIsADeclaredDependency() throws {
        let targets = try Self.manifest()
        let names = Set(targets.map(\.name))
        #expect(targets.count > 20 && names.isSuperset(of: Self.layers.keys), "the manifest's targets were found: \(names)")
        var found: [String] = [], files = 0
        for target in targets where target.hasSwift {
            for (file, modules) in try Self.imports(of: target) {
                files += 1
                for module in modules where names.contains(module) && !target.dependencies.contains(module) {
                    found.append("\(file) (\(target.name)) imports \(module), not among its dependencies")
                }
            }
        }
        #expect(files > 400, "the walk found the package's files")
        #expect(found == [])
    }

    @Test func theModulesOfSourcesDeclareTheDocumentedLayers() throws {
        let manifest = try Self.manifest()
        let inSources = try manifest.filter { $0.hasSwift && $0.path.hasPrefix("Sources/") }
            .filter { try !RepositoryTests.swiftFiles(under: $0.path).isEmpty }.map(\.name)
        #expect(Set(inSources) == Set(Self.layers.keys), "every Swift module of Sources/ has its layer")
        let targets = Dictionary(manifest.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for (module, allowed) in Self.layers {
            #expect(targets[module]?.dependencies == allowed, "\(module): Package.swift says \(targets[module]?.dependencies ?? [])")
            #expect(targets[module]?.path == "Sources/\(module)")
        }
    }

    /// Nothing under Sources/GesturedCore imports a tool, a bridge, or anything else: the engine
    /// is the bottom layer.
    @Test func theCoreImportsNothing() throws {
        let core = try #require(try Self.manifest().first { $0.name == "GesturedCore" })
        let files = try Self.imports(of: core)
        #expect(files.count > 50, "the walk found the core's files")
        let found = files.flatMap { file, modules in modules.map { "\(file) imports \($0)" } }
        #expect(found == [])
        for tool in Self.besideTheCore { #expect(Self.layers[tool]?.contains("GesturedCore") == true, "\(tool) sits on the core") }
    }

    /// The tools, the bridge and the configuration are pure as the core is: no Glibc, no
    /// Foundation, only what their layer names.
    @Test func thePureModulesImportOnlyTheirLayers() throws {
        let targets = try Self.manifest().filter { Self.pure.contains($0.name) }
        #expect(targets.count == Self.pure.count)
        var found: [String] = []
        for target in targets {
            for (file, modules) in try Self.imports(of: target) {
                for module in modules where !(Self.layers[target.name] ?? []).contains(module) {
                    found.append("\(file) imports \(module)")
                }
            }
        }
        #expect(found == [])
    }

    /// The rule's own checks: what it reads and what it lets through.
    @Test func theRuleReadsImportsAndTargets() {
        #expect(Self.importedModule("import GesturedCore") == "GesturedCore")
        #expect(Self.importedModule("@testable import GesturedEvemu") == "GesturedEvemu")
        #expect(Self.importedModule("public import struct Glibc.timespec") == "Glibc")
        #expect(Self.importedModule("        import struct, sys, zlib") == nil)
        #expect(Self.importedModule("/// import GesturedIO in a comment") == nil)
        #expect(Self.importedModule("let imported = 1") == nil)
        let manifest = """
            .target(name: "A", // a comment (with a parenthesis
                    dependencies: ["B", "C"]),
            .testTarget(name: "ATests", dependencies: ["A"]),
            .executableTarget(name: "tool", dependencies: ["A"], path: "Tests/Tool"),
            .systemLibrary(name: "CLib", path: "Sources/CLib", pkgConfig: "lib"),
            .executableTarget(name: "fuzz-\\(name)", dependencies: ["A"]),
            .target(name: "D"),
            """
        #expect(Self.targets(ofManifest: manifest) == [
            Target(name: "A", path: "Sources/A", dependencies: ["B", "C"], hasSwift: true),
            Target(name: "ATests", path: "Tests/ATests", dependencies: ["A"], hasSwift: true),
            Target(name: "tool", path: "Tests/Tool", dependencies: ["A"], hasSwift: true),
            Target(name: "CLib", path: "Sources/CLib", dependencies: [], hasSwift: false),
            Target(name: "D", path: "Sources/D", dependencies: [], hasSwift: true),
        ])
    }
}
