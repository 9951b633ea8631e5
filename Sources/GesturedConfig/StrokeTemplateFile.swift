import GesturedCore

/// Template files: what `gestured record-stroke` writes and a stroke gesture's `templates` may
/// name (`{ file: "strokes/admin.json5" }`, relative to the configuration file).
///
/// A template file is JSON5: `{ templates: [{ name: "admin", points: [[x, y], ...] }, ...] }`;
/// several templates of one name are several examples of that shape.
public enum StrokeTemplateFile {
    /// The templates in a template file's bytes; `file` is the name used in diagnostics.
    /// - Throws: `ConfigError` located in that file.
    public static func load(_ bytes: [UInt8], file: String) throws(ConfigError) -> [StrokeTemplate] {
        try ConfigLoader.load(bytes, file: file) { reader, document in reader.templateFile(document) }
    }

    /// `path` as seen from the directory of the file `base`: unchanged when absolute.
    static func resolve(_ path: String, relativeTo base: String) -> String {
        guard !path.hasPrefix("/"), let slash = base.lastIndex(of: "/") else { return path }
        return base[...slash] + path
    }

    /// The text of a template file holding `templates`, after a `//` comment line per line of
    /// `comment`. Coordinates are written with two decimals (screen points: finer means nothing).
    public static func text(_ templates: [StrokeTemplate], comment: String) -> String {
        var text = comment.split(separator: "\n", omittingEmptySubsequences: false).map { "// \($0)\n" }.joined()
        text += "{\n  templates: [\n"
        for template in templates {
            let points = template.points.map {
                "[\(LineEncoder.fixed($0.x, decimals: 2)), \(LineEncoder.fixed($0.y, decimals: 2))]"
            }
            text += "    {\n      name: \(LineEncoder.jsonString(template.name)),\n      points: [\n"
            var line = "       "
            for point in points {
                if line.count + point.count > 100 { text += line + "\n"; line = "       " }
                line += " " + point + ","
            }
            text += line + "\n      ],\n    },\n"
        }
        return text + "  ],\n}\n"
    }
}

enum StrokeTemplateKeys {
    static let inline = ["name", "points"]
    static let file = ["file"]
}

extension DocumentReader {
    /// A stroke gesture's `templates`: built-in names, inline templates and template files, in
    /// order. Nil after reporting when any entry is wrong.
    mutating func strokeTemplates(_ node: Node?, of gesture: Node) -> [StrokeTemplate]? {
        guard let node else { report("missing required key \"templates\"", at: gesture.path); return nil }
        guard let elements = array(node) else { return nil }
        guard !elements.isEmpty else { report("must not be empty", at: node.path); return nil }
        var templates: [StrokeTemplate] = []
        var valid = true
        for element in elements {
            switch element.value {
            case .string(let name):
                if let template = StrokeLibrary.template(named: name) {
                    templates.append(template)
                } else {
                    valid = false
                    let hint = closestMatch(to: name, among: StrokeLibrary.names).map { "did you mean \"\($0)\"?" }
                        ?? "expected one of \(StrokeLibrary.names.joined(separator: ", ")), an object with name and points, or one with file"
                    report("unknown stroke template \"\(name)\"; \(hint)", at: element.path)
                }
            case .object(let members) where members["file"] != nil:
                guard let members = object(element) else { valid = false; continue }
                checkKeys(members, of: element, known: StrokeTemplateKeys.file)
                if let loaded = templateFile(members["file"]!) { templates += loaded } else { valid = false }
            case .object:
                if let template = inlineTemplate(element) { templates.append(template) } else { valid = false }
            default:
                valid = false
                report("expected a template name, an object with name and points, or one with file; found \(element.value.kindDescription)",
                       at: element.path)
            }
        }
        return valid ? templates : nil
    }

    /// The templates of the file that `node` names, relative to this document's file; its own
    /// problems are reported in that file, and reading it at `node`. Read and parsed once per
    /// path (`templateFiles`): a large file named by many gestures costs one read, not one each.
    private mutating func templateFile(_ node: Node) -> [StrokeTemplate]? {
        guard let name = identifier(node) else { return nil }
        let path = StrokeTemplateFile.resolve(name, relativeTo: file)
        guard let readFile else {
            report("template files cannot be read here (no file reader was given)", at: node.path)
            return nil
        }
        if let known = templateFiles[path] { return known }
        templateFiles[path] = .some(nil)
        do {
            let templates = try StrokeTemplateFile.load(readFile(path).get(), file: path)
            templateFiles[path] = templates
            return templates
        } catch {
            for diagnostic in error.diagnostics {
                if diagnostic.line == 0 {
                    // The file could not be read: say so where the configuration names it.
                    report("\(path): \(diagnostic.message)", at: node.path)
                } else {
                    include(diagnostic, at: node.path)
                }
            }
            return nil
        }
    }

    /// A template file's document: `{ templates: [{ name, points }, ...] }`.
    mutating func templateFile(_ document: Node) -> [StrokeTemplate] {
        guard let members = object(document) else { return [] }
        checkKeys(members, of: document, known: ["templates"], required: ["templates"])
        guard let list = members["templates"], let elements = array(list) else { return [] }
        if elements.isEmpty { report("must not be empty", at: list.path) }
        return elements.compactMap { inlineTemplate($0) }
    }

    /// `{ name: "my-s", points: [[x, y], ...] }`: at least `StrokeTemplate.minimumPoints`
    /// points, and not all at one place.
    private mutating func inlineTemplate(_ node: Node) -> StrokeTemplate? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: StrokeTemplateKeys.inline, required: ["name", "points"])
        let name = identifier(members["name"])
        guard let pointsNode = members["points"], let elements = array(pointsNode) else { return nil }
        var points: [Point] = []
        for element in elements {
            guard let pair = array(element) else { return nil }
            guard pair.count == 2 else {
                report("expected a point [x, y], found an array of \(pair.count)", at: element.path)
                return nil
            }
            guard let x = number(pair[0]), let y = number(pair[1]) else { return nil }
            points.append(Point(x: x, y: y))
        }
        guard points.count >= StrokeTemplate.minimumPoints else {
            report("too few points: a template needs at least \(StrokeTemplate.minimumPoints), found \(points.count)",
                   at: pointsNode.path)
            return nil
        }
        guard points.contains(where: { $0 != points[0] }) else {
            report("the points are all at one place: a template must draw a path", at: pointsNode.path)
            return nil
        }
        guard let name else { return nil }
        let template = StrokeTemplate(name: name, points: points)
        // The matcher measures the path with squared distances: coordinates near the ends of a
        // Double (1e308, 1e-200) overflow or vanish there, and it would drop the template without
        // a word; say so here instead.
        guard StrokeMatcher(templates: [template]).templateCount == 1 else {
            report("the path cannot be measured: its coordinates are too large or too small (keep them within ±1e150 and apart by more than 1e-150)",
                   at: pointsNode.path)
            return nil
        }
        return template
    }
}
