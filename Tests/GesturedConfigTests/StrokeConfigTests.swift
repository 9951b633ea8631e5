import Glibc
import GesturedConfig
import GesturedCore
import Testing

/// Stroke gestures in the configuration: built-in names, inline templates, template files, and
/// every mistake at its file, key path and line:column.
@Suite struct StrokeConfigTests {
    @Test func builtInInlineAndDefaults() throws {
        let g = gestures("""
            { views: [{ id: "root", gestures: [
              { id: "admin", type: "stroke", templates: ["circle", { name: "my-s", points: [[0, 0], [10, 5], [0, 10]] }] },
            ] }] }
            """)
        guard case .stroke(let p)? = g.first?.kind else { Issue.record("not a stroke: \(g)"); return }
        #expect(p.templates.map(\.name) == ["circle", "my-s"])
        #expect(p.templates[0] == StrokeLibrary.template(named: "circle"))
        #expect(p.templates[1].points == [Point(x: 0, y: 0), Point(x: 10, y: 5), Point(x: 0, y: 10)])
        #expect(p.minimumScore == GestureDefaults.minimumStrokeScore)
        #expect(p.numberOfTouchesRequired == 1 && p.orientationSensitive && p.rotationTolerance == .pi / 6)
    }

    @Test func unknownTemplateNameWithSuggestion() {
        #expect(diagnostics("{ views: [{ id: 'v', gestures: [{ id: 's', type: 'stroke', templates: ['circel', 'blob'] }] }] }") == [
            #"test.json5:1:72: views[0].gestures[0].templates[0]: unknown stroke template "circel"; did you mean "circle"?"#,
            #"test.json5:1:82: views[0].gestures[0].templates[1]: unknown stroke template "blob"; expected one of circle, check, x, zigzag, triangle, rectangle, caret, v, arrow, star, pigtail, delete, leftSquareBracket, rightSquareBracket, leftCurlyBrace, rightCurlyBrace, an object with name and points, or one with file"#,
        ])
    }

    @Test func templateWithTooFewPoints() {
        #expect(diagnostics("""
            { views: [{ id: "v", gestures: [{ id: "s", type: "stroke",
                templates: [{ name: "dot", points: [[1, 2]] }, { name: "still", points: [[1, 2], [1, 2]] }] }] }] }
            """) == [
                "test.json5:2:40: views[0].gestures[0].templates[0].points: too few points: a template needs at least 2, found 1",
                "test.json5:2:77: views[0].gestures[0].templates[1].points: the points are all at one place: a template must draw a path",
            ])
    }

    @Test func missingTemplatesAndBadKeys() {
        #expect(diagnostics("{ views: [{ id: 'v', gestures: [{ id: 's', type: 'stroke', minimumScore: 1.5, templates: [] }] }] }") == [
            "test.json5:1:74: views[0].gestures[0].minimumScore: must be between 0 and 1, found 1.5",
            "test.json5:1:90: views[0].gestures[0].templates: must not be empty",
        ])
        #expect(diagnostics("{ views: [{ id: 'v', gestures: [{ id: 's', type: 'stroke' }] }] }") == [
            #"test.json5:1:33: views[0].gestures[0]: missing required key "templates""#,
        ])
    }

    @Test func missingTemplateFile() throws {
        let directory = try TemporaryFiles()
        let config = directory.write("gestured.json5", """
            {
              views: [{ id: "v", gestures: [
                { id: "s", type: "stroke", templates: [{ file: "strokes/admin.json5" }] },
              ] }],
            }
            """)
        do {
            _ = try ConfigLoader.load(path: config)
            Issue.record("accepted a missing template file")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "\(config):3:52: views[0].gestures[0].templates[0].file: \(directory.path)/strokes/admin.json5: cannot open: No such file or directory",
            ])
        }
    }

    /// A template file relative to the configuration; its own mistakes are located in it.
    @Test func templateFileRelativeToTheConfiguration() throws {
        let directory = try TemporaryFiles()
        _ = directory.write("strokes/admin.json5", StrokeTemplateFile.text(
            [StrokeTemplate(name: "admin", points: [Point(x: 0, y: 0), Point(x: 50, y: 80), Point(x: 100, y: 0)])],
            comment: "recorded by hand"))
        let bad = directory.write("strokes/bad.json5", "{ templates: [{ name: 'b', points: [[0, 0]] }] }")
        let config = directory.write("gestured.json5", """
            { views: [{ id: "v", gestures: [{ id: "s", type: "stroke", templates: ["v", { file: "strokes/admin.json5" }] }] }] }
            """)
        let configuration = try ConfigLoader.load(path: config)
        guard case .stroke(let p)? = configuration.views.first?.gestures.first?.kind else { Issue.record("no stroke"); return }
        #expect(p.templates.map(\.name) == ["v", "admin"])
        #expect(p.templates[1].points == [Point(x: 0, y: 0), Point(x: 50, y: 80), Point(x: 100, y: 0)])

        _ = directory.write("gestured.json5", """
            { views: [{ id: "v", gestures: [{ id: "s", type: "stroke", templates: [{ file: "strokes/bad.json5" }] }] }] }
            """)
        do {
            _ = try ConfigLoader.load(path: config)
            Issue.record("accepted a bad template file")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "\(bad):1:36: templates[0].points: too few points: a template needs at least 2, found 1",
            ])
        }
    }
}

/// A temporary directory for configuration files, removed with its files when released.
final class TemporaryFiles {
    let path: String
    private var files: [String] = []

    init() throws {
        var template = Array("/tmp/gestured-config-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure() }
        path = String(cString: made)
    }

    struct Failure: Error {}

    /// Writes `text` to `name` (creating its directory) and returns the file's path.
    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let file = path + "/" + name
        if let slash = name.lastIndex(of: "/") { mkdir(path + "/" + name[..<slash], 0o700) }
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        if !files.contains(file) { files.append(file) }
        return file
    }

    deinit {
        for file in files { unlink(file) }
        for file in files.reversed() {
            var directory = file
            while let slash = directory.lastIndex(of: "/"), directory.count > path.count {
                directory = String(directory[..<slash])
                if directory.count > path.count { rmdir(directory) }
            }
        }
        rmdir(path)
    }
}
