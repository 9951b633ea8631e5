import GesturedConfig
import GesturedCore

/// The `strokes` fuzz target: a stroke template file (what `gestured record-stroke` writes and a
/// stroke gesture's `{ file: … }` names) through its loader. Errors must be located
/// (`DiagnosticCheck`). Templates it accepts must be usable: each has a name and at least two
/// points that are not all at one place, the matcher keeps every one of them (none silently
/// dropped), each scores in 0…1 against every drawing, and drawing a template's own path
/// scores its name at least `selfScore`. Writing them back (`StrokeTemplateFile.text`) and
/// loading that gives the same templates, to its two decimals.
public enum StrokeTarget {
    public static let file = "strokes-fuzz.json5"
    /// A template drawn exactly as itself is the same shape: Protractor's score is 1 up to
    /// rounding.
    static let selfScore = 0.99

    public static func run(_ bytes: [UInt8]) throws(Violation) {
        let templates: [StrokeTemplate]
        do {
            templates = try StrokeTemplateFile.load(bytes, file: file)
        } catch {
            try DiagnosticCheck(files: [file: bytes]).check(error.diagnostics)
            return
        }
        try require(!templates.isEmpty, "a template file accepted without templates")
        for t in templates {
            try require(!t.name.isEmpty, "a template without a name")
            try require(t.points.count >= StrokeTemplate.minimumPoints, "template \(t.name) with \(t.points.count) points")
            try require(t.points.contains { $0 != t.points[0] }, "template \(t.name) whose points are all at one place")
            try require(t.points.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "template \(t.name) with a non-finite point")
        }
        var matcher = StrokeMatcher(templates: templates)
        try require(matcher.templateCount == templates.count,
                    "the matcher kept \(matcher.templateCount) of \(templates.count) templates: \(templates.map(\.name))")
        for t in templates.prefix(8) {
            let scores = matcher.scores(t.points)
            for (name, score) in zip(matcher.names, scores) {
                try require(score >= 0 && score <= 1, "score \(score) of \(name) for \(t.name)'s own path")
            }
            if let i = matcher.names.firstIndex(of: t.name) {
                try require(scores[i] >= selfScore, "template \(t.name) drawn as itself scores \(scores[i]): \(t.points)")
            }
        }
        // Written back with two decimals (screen points) and read again: the same templates,
        // when their coordinates are within what two decimals of a screen can say.
        guard templates.allSatisfy({ $0.points.allSatisfy { abs($0.x) < 1e9 && abs($0.y) < 1e9 } }) else { return }
        let text = StrokeTemplateFile.text(templates, comment: "written back by the strokes fuzz target")
        let again: [StrokeTemplate]
        do { again = try StrokeTemplateFile.load(Array(text.utf8), file: "written.json5") } catch {
            throw Violation("a template file written by StrokeTemplateFile.text does not load:\n\(error)\n\(text)")
        }
        try require(again.map(\.name) == templates.map(\.name), "written back, the names changed: \(again.map(\.name))")
        for (a, b) in zip(templates, again) {
            try require(a.points.count == b.points.count, "written back, \(a.name) has \(b.points.count) points")
            for (p, q) in zip(a.points, b.points) {
                try require(abs(p.x - q.x) <= 0.005 + abs(p.x) * 1e-12 && abs(p.y - q.y) <= 0.005 + abs(p.y) * 1e-12,
                            "written back, a point of \(a.name) moved from \(p) to \(q)")
            }
        }
    }
}
