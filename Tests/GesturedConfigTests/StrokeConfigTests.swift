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
        #expect(p.numberOfTouchesRequired == 1 && p.orientationSensitive && p.rotationTolerance.radians == .pi / 6)
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

    /// Found by the strokes fuzz target: a template with a point at 1e308 loaded, and the matcher
    /// dropped it without a word (its squared distances overflow), so the gesture could never
    /// match it. Points 1e-200 apart vanish the same way. Both are errors at the points now.
    @Test func templateWhosePathCannotBeMeasured() {
        let message = "the path cannot be measured: its coordinates are too large or too small (keep them within ±1e150 and apart by more than 1e-150)"
        #expect(diagnostics("""
            { views: [{ id: "v", gestures: [{ id: "s", type: "stroke",
                templates: [{ name: "far", points: [[35, 20], [30, 15], [1e308, 0]] }, { name: "near", points: [[0, 0], [1e-200, 0]] }] }] }] }
            """) == [
                "test.json5:2:40: views[0].gestures[0].templates[0].points: " + message,
                "test.json5:2:100: views[0].gestures[0].templates[1].points: " + message,
            ])
        #expect(diagnostics("""
            { views: [{ id: "v", gestures: [{ id: "s", type: "stroke", templates: [{ name: "wide", points: [[0, 0], [1e150, 0]] }] }] }] }
            """) == [])
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

    /// Files as the executable would read them: in memory here (the library makes no system
    /// calls; the binary's reading is tested in GesturedTests' StrokeRecordingTests).
    static func reader(_ files: [String: String]) -> ConfigLoader.ReadFile {
        { path in
            guard let text = files[path] else {
                return .failure(ConfigLoader.unreadable(file: path, message: "cannot open: No such file or directory"))
            }
            return .success(Array(text.utf8))
        }
    }

    static func load(_ config: String, _ files: [String: String]) -> [String] {
        do {
            _ = try ConfigLoader.parse(config, file: "/etc/gestured/gestured.json5", readFile: reader(files))
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func missingTemplateFile() throws {
        #expect(Self.load("""
            {
              views: [{ id: "v", gestures: [
                { id: "s", type: "stroke", templates: [{ file: "strokes/admin.json5" }] },
              ] }],
            }
            """, [:]) == [
                "/etc/gestured/gestured.json5:3:52: views[0].gestures[0].templates[0].file: /etc/gestured/strokes/admin.json5: cannot open: No such file or directory",
            ])
    }

    /// A template file relative to the configuration; its own mistakes are located in it.
    @Test func templateFileRelativeToTheConfiguration() throws {
        let admin = StrokeTemplateFile.text(
            [StrokeTemplate(name: "admin", points: [Point(x: 0, y: 0), Point(x: 50, y: 80), Point(x: 100, y: 0)])],
            comment: "recorded by hand")
        let files = ["/etc/gestured/strokes/admin.json5": admin,
                     "/etc/gestured/strokes/bad.json5": "{ templates: [{ name: 'b', points: [[0, 0]] }] }"]
        let configuration = try ConfigLoader.parse("""
            { views: [{ id: "v", gestures: [{ id: "s", type: "stroke", templates: ["v", { file: "strokes/admin.json5" }] }] }] }
            """, file: "/etc/gestured/gestured.json5", readFile: Self.reader(files))
        guard case .stroke(let p)? = configuration.views.first?.gestures.first?.kind else { Issue.record("no stroke"); return }
        #expect(p.templates.map(\.name) == ["v", "admin"])
        #expect(p.templates[1].points == [Point(x: 0, y: 0), Point(x: 50, y: 80), Point(x: 100, y: 0)])

        #expect(Self.load("""
            { views: [{ id: "v", gestures: [{ id: "s", type: "stroke", templates: [{ file: "/etc/gestured/strokes/bad.json5" }] }] }] }
            """, files) == [
                "/etc/gestured/strokes/bad.json5:1:36: templates[0].points: too few points: a template needs at least 2, found 1",
            ])
    }

    /// Without a file reader (a configuration parsed from text alone), a template file is an
    /// error, not a silent empty list.
    @Test func templateFileWithoutAReader() {
        #expect(diagnostics("{ views: [{ id: 'v', gestures: [{ id: 's', type: 'stroke', templates: [{ file: 'a.json5' }] }] }] }") == [
            "test.json5:1:80: views[0].gestures[0].templates[0].file: template files cannot be read here (no file reader was given)",
        ])
    }
}
