import GesturedCore

/// `gestured draw`: the region map as SVG, pure string building (same input, same bytes).
///
/// Views are drawn in z-order (parents before children, back to front), each a `<g>` whose `id`
/// and `data-view` are the view's id (CONTRACT.md §4): its frame filled with its colour at
/// `fillOpacity`, its hit area outlined (dashed) where it differs from the frame, and a label
/// with its id and gestures, kept inside the picture. Views that take no touches by design
/// (hidden, disabled, transparent) are drawn as grey dashed outlines; views that can never be hit
/// (`ViewTree.unreachable`) get a red outline and say why. A recording adds each touch's path
/// (one colour per touch, a dot where it went down, a ring where it lifted) and a marker for
/// every gesture line, labelled with its type, state and name. With `application`, the regions
/// the application behind the daemon never gets or gets late are hatched, with a legend; views
/// outside the screen are drawn in a marked margin (RegionMapSVG+Application.swift).
public struct RegionMapSVG: Sendable {
    /// View fill colours, by view index (cycled).
    public static let viewColors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#393b79", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"]
    /// Touch path colours, by touch (cycled).
    public static let touchColors = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4",
                                     "#42d4f4", "#f032e6", "#469990", "#9a6324", "#800000"]
    public static let fillOpacity = 0.25
    /// Under the views: the screen, when no background image is given.
    public static let screenColor = "#ffffff"

    public var tree: ViewTree
    public var recording: RecordingPicture?
    /// A `data:` URL of an image drawn under everything, stretched to the screen.
    public var background: String?
    /// How the configuration's device rules give the application touches: with it, the regions
    /// that never reach the application and those held back are hatched, and a legend says so.
    public var application: ApplicationPath?

    public init(tree: ViewTree, recording: RecordingPicture? = nil, background: String? = nil, application: ApplicationPath? = nil) {
        self.tree = tree; self.recording = recording; self.background = background; self.application = application
    }

    /// The whole document; `attributes` go on the root element (the HTML page adds an id).
    /// Screen points are the picture's units; a margin around the screen (views outside it) and
    /// the legend below widen the view box.
    public func svg(attributes: String = "") -> String {
        let (w, h) = (Self.n(tree.screen.width), Self.n(tree.screen.height))
        let canvas = canvas()
        let b = canvas.bounds
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.n(b.size.width))" height="\(Self.n(b.size.height))" \
            viewBox="\(Self.n(b.minX)) \(Self.n(b.minY)) \(Self.n(b.size.width)) \(Self.n(b.size.height))" \
            font-family="DejaVu Sans, sans-serif" font-size="12"\(attributes)>
            <title>gestured region map (\(w)×\(h) points)</title>

            """
        out += canvasBackground(canvas)
        out += "<rect id=\"screen\" x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\" fill=\"\(Self.screenColor)\"/>\n"
        if let background {
            out += "<image id=\"background\" x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\" preserveAspectRatio=\"none\" href=\"\(background)\"/>\n"
        }
        out += applicationLayer()
        out += "<g id=\"views\">\n"
        // A label goes in a corner of its view (top-left, top-right, bottom-left, bottom-right:
        // the first clear of the labels already placed), else top-left below them; then it is
        // moved into the picture, and shortened if it is wider. Front views first: they are
        // smaller, and an ancestor has other corners.
        let screen = Rect(x: 0, y: 0, width: tree.screen.width, height: tree.screen.height)
        var placed: [Rect] = []
        var labels = Array(repeating: (x: 0.0, y: 0.0, width: 0.0), count: tree.nodes.count)
        for view in tree.nodes.indices.reversed() {
            let frame = screenFrame(view)
            let (x, y, size) = (frame.minX, frame.minY, frame.size)
            let (label, gestures) = labelText(view)
            // A view on the screen keeps its label on the screen; one off it, in the margin.
            let onScreen = frame.minX < screen.maxX && screen.minX < frame.maxX && frame.minY < screen.maxY && screen.minY < frame.maxY
            let area = onScreen ? screen : canvas.area
            let width = min(Self.labelWidth(label, gestures), area.size.width)
            let clear = { (box: Rect) in
                !placed.contains { $0.minX < box.maxX && box.minX < $0.maxX && $0.minY < box.maxY && box.minY < $0.maxY }
            }
            let inside = { (box: Rect) -> Rect in
                var box = box
                box.origin.x = min(max(box.minX, area.minX), area.maxX - width)
                box.origin.y = min(max(box.minY, area.minY), max(area.maxY - 30, area.minY))
                return box
            }
            let candidates = [(x, y), (x + size.width - width, y), (x, y + size.height - 30), (x + size.width - width, y + size.height - 30)]
                .map { inside(Rect(x: $0.0, y: $0.1, width: width, height: 30)) }
            var box = candidates.first(where: clear) ?? candidates[0]
            if !clear(box) {
                while !clear(box) && box.maxY + 30 <= area.maxY { box.origin.y += 30 }
            }
            placed.append(box)
            labels[view] = (box.minX, box.minY, width)
        }
        for view in tree.nodes.indices { out += self.view(view, label: labels[view]) }
        out += "</g>\n"
        out += marginMark(canvas)
        if let recording { out += Self.recording(recording) }
        return out + legend(canvas) + "</svg>\n"
    }

    /// A view's label: its id with why it takes no touches or is never hit, and its gestures.
    private func labelText(_ view: Index) -> (label: String, gestures: String) {
        let node = tree.nodes[view]
        var label = node.id
        if !tree.acceptsTouches(view) { label += " (\(notHittableReason(view)))" }
        switch tree.unreachable(view) {
        case .covered(let front)?: label += " (never hit: covered by \(tree.nodes[front].id))"
        case .offScreen?: label += " (never hit: off screen)"
        case nil: break
        }
        return (label, node.gestures.map { "\($0.kind.typeName) \($0.id)" }.joined(separator: ", "))
    }

    /// - Parameter label: where the label goes, in screen points: its top-left corner, and the
    ///   width it may take (its text is shortened to fit).
    private func view(_ view: Index, label place: (x: Double, y: Double, width: Double)) -> String {
        let node = tree.nodes[view]
        let frame = screenFrame(view)
        let (x, y) = (frame.minX, frame.minY)
        let color = Self.viewColors[view % Self.viewColors.count]
        let id = Self.escape(node.id)
        let takesTouches = tree.acceptsTouches(view)
        let unreachable = tree.unreachable(view)
        var classes = "view"
        if !takesTouches { classes += " not-hittable" }
        if unreachable != nil { classes += " never-hit" }
        var out = "<g id=\"\(id)\" data-view=\"\(id)\" class=\"\(classes)\">\n"
        let frameText = "x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" width=\"\(Self.n(node.frame.size.width))\" height=\"\(Self.n(node.frame.size.height))\""
        if takesTouches {
            let stroke = unreachable == nil ? color : "#d00000"
            out += "<rect class=\"frame\" \(frameText) fill=\"\(color)\" fill-opacity=\"\(Self.fillOpacity)\" stroke=\"\(stroke)\" stroke-width=\"\(unreachable == nil ? 1 : 3)\"/>\n"
            out += hitArea(view, at: x, y, color: color)
        } else {
            out += "<rect class=\"frame\" \(frameText) fill=\"none\" stroke=\"#999999\" stroke-dasharray=\"4 4\"/>\n"
        }
        let (label, gestures) = labelText(view)
        let lx = place.x + 4
        let text = fitted(label, width: place.width - 8, small: false)
        out += "<text class=\"label\" x=\"\(Self.n(lx))\" y=\"\(Self.n(place.y + 14))\" fill=\"#000000\">\(Self.escape(text))</text>\n"
        if !gestures.isEmpty {
            let small = fitted(gestures, width: place.width - 8, small: true)
            out += "<text class=\"gestures\" x=\"\(Self.n(lx))\" y=\"\(Self.n(place.y + 27))\" fill=\"#333333\" font-size=\"10\">\(Self.escape(small))</text>\n"
        }
        return out + "</g>\n"
    }

    public typealias Index = ViewTree.Index

    /// The hit area's outline where it differs from the frame.
    private func hitArea(_ view: Index, at x: Double, _ y: Double, color: String) -> String {
        let node = tree.nodes[view]
        let style = "class=\"hit-area\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" stroke-dasharray=\"6 3\""
        switch node.hitShape {
        case .circle(let c, let r)?:
            return "<circle \(style) cx=\"\(Self.n(x + c.x))\" cy=\"\(Self.n(y + c.y))\" r=\"\(Self.n(r))\"/>\n"
        case .polygon(let vertices)?:
            let points = vertices.map { "\(Self.n(x + $0.x)),\(Self.n(y + $0.y))" }.joined(separator: " ")
            return "<polygon \(style) points=\"\(points)\"/>\n"
        case nil:
            guard node.hitTestInsets != .zero else { return "" }
            let b = tree.hitBounds(view)   // in the parent's coordinates
            let (dx, dy) = (x - node.frame.minX, y - node.frame.minY)
            return "<rect \(style) x=\"\(Self.n(b.minX + dx))\" y=\"\(Self.n(b.minY + dy))\" width=\"\(Self.n(b.size.width))\" height=\"\(Self.n(b.size.height))\"/>\n"
        }
    }

    private func notHittableReason(_ view: Index) -> String {
        for v in tree.path(from: view) {
            let node = tree.nodes[v]
            let whose = v == view ? "" : " through \(node.id)"
            if node.isHidden { return "hidden\(whose)" }
            if !node.isUserInteractionEnabled { return "interaction disabled\(whose)" }
            if node.alpha < ViewTree.minimumHitTestAlpha { return "alpha < 0.01\(whose)" }
        }
        return "takes no touches"
    }

    /// Touch paths, then gesture markers, each with `data-t` (seconds) for the HTML timeline.
    private static func recording(_ r: RecordingPicture) -> String {
        var out = "<g id=\"touches\">\n"
        for (i, touch) in r.touches.enumerated() {
            let color = touchColors[i % touchColors.count]
            guard let first = touch.samples.first, let last = touch.samples.last else { continue }
            let d = touch.samples.enumerated().map { "\($0 == 0 ? "M" : "L")\(n($1.location.x)) \(n($1.location.y))" }.joined(separator: " ")
            let points = touch.samples.map { "\(n($0.t, 6)),\(n($0.location.x)),\(n($0.location.y))" }.joined(separator: " ")
            out += "<g class=\"touch\" data-touch=\"\(touch.id)\">\n"
            out += "<path class=\"touch-path\" data-touch=\"\(touch.id)\" data-points=\"\(points)\" d=\"\(d)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"3\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
            out += "<circle class=\"touch-down\" data-t=\"\(n(first.t, 6))\" cx=\"\(n(first.location.x))\" cy=\"\(n(first.location.y))\" r=\"6\" fill=\"\(color)\"><title>touch \(touch.id) down at \(n(first.t, 3)) s</title></circle>\n"
            if touch.lifted {
                out += "<circle class=\"touch-up\" data-t=\"\(n(last.t, 6))\" cx=\"\(n(last.location.x))\" cy=\"\(n(last.location.y))\" r=\"8\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"><title>touch \(touch.id) up at \(n(last.t, 3)) s</title></circle>\n"
            }
            out += "</g>\n"
        }
        out += "</g>\n<g id=\"gesture-lines\">\n"
        for g in r.gestures {
            let label = "\(g.type) \(g.state) \(g.name)"
            let (x, y) = (n(g.location.x), n(g.location.y))
            out += "<g class=\"gesture-line\" data-t=\"\(n(g.t, 6))\" data-state=\"\(g.state)\"><title>\(escape(label)) at \(n(g.t, 3)) s</title>"
            out += "<path d=\"M\(x) \(y) m-5 0 l5 -5 l5 5 l-5 5 z\" fill=\"#000000\"/>"
            if g.state != "changed" {
                out += "<text x=\"\(n(g.location.x + 8))\" y=\"\(n(g.location.y - 8))\" fill=\"#000000\" font-weight=\"bold\">\(escape(label))</text>"
            }
            out += "</g>\n"
        }
        return out + "</g>\n"
    }

    /// At most `decimals` decimals, trailing zeros dropped.
    static func n(_ value: Double, _ decimals: Int = 2) -> String { FailReason.number(value, decimals: decimals) }

    /// Text and attribute values: `&`, `<`, `>`, `"` escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
