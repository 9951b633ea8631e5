import GesturedCore

/// What `gestured draw` shows beside the views: where the application behind the
/// daemon gets no touch or gets it late, with a legend, and the canvas around the screen that
/// keeps views off the screen and every label in the picture.
extension RegionMapSVG {
    /// Touches that begin here never reach the application: hatched in this colour.
    public static let neverColor = "#d00000"
    /// Touches held back while a `delaysTouchesBegan` gesture is undecided: hatched in this colour.
    public static let heldColor = "#e69500"
    /// Around the screen, where views that lie outside it are drawn.
    public static let marginColor = "#d9d9d9"
    /// The margin's width beyond the farthest view, and its cap per side: a view far away makes
    /// the margin as wide as the screen, not the picture as wide as the view's coordinates.
    static let marginPadding = 8.0
    /// One legend line's height, in points.
    static let legendLine = 18.0
    /// Estimated advance per character of DejaVu Sans at the labels' 12 and the gestures' 10
    /// points (its average is about 0.6 em, capitals and `m` wider): enough to keep a label
    /// in the picture, checked on Chromium's rendering in BrowserTests.
    static let characterWidth = (label: 7.6, small: 6.4)

    /// The picture: the screen, a margin when a view lies outside it, and the legend below.
    struct Canvas {
        /// Screen and margin, in screen points.
        var area: Rect
        var hasMargin: Bool
        /// The legend's lines, wrapped to the picture's width: a swatch colour (nil for none, or
        /// for a line that goes on the one above, `indented`) and the text.
        var legend: [(color: String?, indented: Bool, text: String)]
        var bounds: Rect {
            Rect(x: area.minX, y: area.minY, width: area.size.width, height: area.size.height + Double(legend.count) * legendLine + (legend.isEmpty ? 0 : 6))
        }
    }

    /// A view's frame on the screen.
    func screenFrame(_ view: Index) -> Rect {
        let corner = tree.convert(.zero, to: view)
        return Rect(x: -corner.x, y: -corner.y, width: tree.nodes[view].frame.size.width, height: tree.nodes[view].frame.size.height)
    }

    func canvas() -> Canvas {
        let screen = Rect(x: 0, y: 0, width: tree.screen.width, height: tree.screen.height)
        var (minX, minY, maxX, maxY) = (0.0, 0.0, screen.maxX, screen.maxY)
        for view in tree.nodes.indices where !tree.nodes[view].isHidden {
            let f = screenFrame(view)
            guard f.size.width > 0, f.size.height > 0 else { continue }
            (minX, minY, maxX, maxY) = (min(minX, f.minX), min(minY, f.minY), max(maxX, f.maxX), max(maxY, f.maxY))
        }
        let hasMargin = minX < 0 || minY < 0 || maxX > screen.maxX || maxY > screen.maxY
        let pad = { (beyond: Double, cap: Double) in beyond > 0 ? min(beyond, cap) + Self.marginPadding : 0 }
        let left = pad(-minX, screen.size.width), right = pad(maxX - screen.maxX, screen.size.width)
        let top = pad(-minY, screen.size.height), bottom = pad(maxY - screen.maxY, screen.size.height)
        let area = Rect(x: -left, y: -top, width: screen.size.width + left + right, height: screen.size.height + top + bottom)
        var legend: [(color: String?, indented: Bool, text: String)] = []
        for entry in legendLines() {
            let indent = entry.color == nil ? 0.0 : 20
            for (k, line) in wrapped(entry.text, width: area.size.width - 8 - indent).enumerated() {
                legend.append((k == 0 ? entry.color : nil, k > 0 && indent > 0, line))
            }
        }
        return Canvas(area: area, hasMargin: hasMargin, legend: legend)
    }

    /// The legend's lines: a swatch colour (nil for none) and its text.
    func legendLines() -> [(color: String?, text: String)] {
        switch application {
        case .passThrough?:
            return [(Self.neverColor, "never reaches the application (forwardsTouches: false)"),
                    (Self.heldColor, "held from the application while a delaysTouchesBegan gesture is undecided"),
                    (nil, "elsewhere: forwarded to the application at once")]
        case .grabbed?:
            return [(Self.neverColor, "never reaches the application: a device rule grabs without passThrough")]
        case .direct?:
            return [(nil, "application: direct (no rule grabs: it reads the panel itself and gets every touch)")]
        case nil:
            return []
        }
    }

    /// The hatch patterns, the margin and its mark.
    func canvasBackground(_ canvas: Canvas) -> String {
        var out = ""
        if let application, application != .direct {
            out += "<defs>\n"
            for (id, color) in [("never-reaches", Self.neverColor), ("held", Self.heldColor)] {
                out += "<pattern id=\"\(id)\" patternUnits=\"userSpaceOnUse\" width=\"12\" height=\"12\" patternTransform=\"rotate(45)\">"
                    + "<rect x=\"0\" y=\"0\" width=\"6\" height=\"12\" fill=\"\(color)\" fill-opacity=\"0.55\"/></pattern>\n"
            }
            out += "</defs>\n"
        }
        let b = canvas.bounds
        out += "<rect id=\"canvas\" x=\"\(Self.n(b.minX))\" y=\"\(Self.n(b.minY))\" width=\"\(Self.n(b.size.width))\" height=\"\(Self.n(b.size.height))\" fill=\"#ffffff\"/>\n"
        if canvas.hasMargin {
            let a = canvas.area
            out += "<rect id=\"margin\" x=\"\(Self.n(a.minX))\" y=\"\(Self.n(a.minY))\" width=\"\(Self.n(a.size.width))\" height=\"\(Self.n(a.size.height))\" fill=\"\(Self.marginColor)\"/>\n"
        }
        return out
    }

    /// The screen's outline and the margin's mark, drawn over the views.
    func marginMark(_ canvas: Canvas) -> String {
        guard canvas.hasMargin else { return "" }
        let (w, h) = (Self.n(tree.screen.width), Self.n(tree.screen.height))
        let a = canvas.area
        // At the bottom of the widest strip of margin: it covers no view of the screen, and
        // labels go at the tops of views.
        let strips = [Rect(x: a.minX, y: a.minY, width: a.size.width, height: -a.minY),
                      Rect(x: a.minX, y: tree.screen.height, width: a.size.width, height: a.maxY - tree.screen.height),
                      Rect(x: a.minX, y: a.minY, width: -a.minX, height: a.size.height),
                      Rect(x: tree.screen.width, y: a.minY, width: a.maxX - tree.screen.width, height: a.size.height)]
        let strip = strips.filter { $0.size.height >= 12 && $0.size.width > 0 }.max { $0.size.width < $1.size.width } ?? a
        let text = fitted("off screen", width: strip.size.width - 8, small: true)
        return "<rect id=\"screen-edge\" x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\" fill=\"none\" stroke=\"#000000\" stroke-width=\"2\"/>\n"
            + "<text id=\"margin-label\" x=\"\(Self.n(strip.minX + 4))\" y=\"\(Self.n(strip.maxY - 4))\" fill=\"#333333\" font-size=\"10\">\(Self.escape(text))</text>\n"
    }

    /// Hatches the regions whose touches never reach the application, then those held back.
    func applicationLayer() -> String {
        guard let application, application != .direct else { return "" }
        var out = "<g id=\"application\">\n"
        let hatch = { (pattern: String, r: Rect, view: String) in
            "<rect class=\"\(pattern)\" data-view=\"\(Self.escape(view))\" x=\"\(Self.n(r.minX))\" y=\"\(Self.n(r.minY))\" width=\"\(Self.n(r.size.width))\" height=\"\(Self.n(r.size.height))\" fill=\"url(#\(pattern))\"/>\n"
        }
        if application == .grabbed {
            out += hatch("never-reaches", Rect(x: 0, y: 0, width: tree.screen.width, height: tree.screen.height), "")
            return out + "</g>\n"
        }
        for view in tree.nodes.indices where tree.acceptsTouches(view) {
            let frame = screenFrame(view)
            for gesture in tree.nodes[view].gestures where gesture.delivery.delaysTouchesBegan {
                // A screen-edge pan holds only touches that begin in its edge zone; it fails at
                // once elsewhere.
                guard case .screenEdgePan(let p) = gesture.kind else { out += hatch("held", frame, tree.nodes[view].id); continue }
                let zone = p.edgeZoneWidth.points
                for edge in p.edges.sorted(by: { $0.rawValue < $1.rawValue }) {
                    let strip: Rect = switch edge {
                    case .left: Rect(x: 0, y: 0, width: zone, height: tree.screen.height)
                    case .right: Rect(x: tree.screen.width - zone, y: 0, width: zone, height: tree.screen.height)
                    case .top: Rect(x: 0, y: 0, width: tree.screen.width, height: zone)
                    case .bottom: Rect(x: 0, y: tree.screen.height - zone, width: tree.screen.width, height: zone)
                    }
                    if let r = intersection(strip, frame) { out += hatch("held", r, tree.nodes[view].id) }
                }
            }
        }
        for view in tree.nodes.indices where tree.acceptsTouches(view) && !tree.nodes[view].forwardsTouches
            && tree.nodes[view].parent.map({ tree.nodes[$0].forwardsTouches }) ?? true {
            out += hatch("never-reaches", screenFrame(view), tree.nodes[view].id)
        }
        return out + "</g>\n"
    }

    /// The legend, under the screen (and margin).
    func legend(_ canvas: Canvas) -> String {
        guard !canvas.legend.isEmpty else { return "" }
        var out = "<g id=\"legend\">\n"
        var y = canvas.area.maxY + 6
        for line in canvas.legend {
            var x = canvas.area.minX + 4 + (line.indented ? 20 : 0)
            if let color = line.color {
                let pattern = color == Self.neverColor ? "never-reaches" : "held"
                out += "<rect class=\"swatch\" x=\"\(Self.n(x))\" y=\"\(Self.n(y + 2))\" width=\"14\" height=\"12\" fill=\"url(#\(pattern))\" stroke=\"\(color)\"/>"
                x += 20
            }
            let text = fitted(line.text, width: canvas.area.maxX - x - 4, small: false)
            out += "<text x=\"\(Self.n(x))\" y=\"\(Self.n(y + 13))\" fill=\"#000000\">\(Self.escape(text))</text>\n"
            y += Self.legendLine
        }
        return out + "</g>\n"
    }

    /// `text` in lines that fit `width` points at the labels' size, broken between words (a word
    /// wider than a line is shortened by `fitted`).
    func wrapped(_ text: String, width: Double) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if line.isEmpty || Double(candidate.count) * Self.characterWidth.label <= width {
                line = candidate
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `text`, shortened with "…" to fit `width` points at the labels' size (`small`: the
    /// gestures' size), as estimated by `characterWidth`.
    func fitted(_ text: String, width: Double, small: Bool) -> String {
        let per = small ? Self.characterWidth.small : Self.characterWidth.label
        let room = Int(max(width, 0) / per + 0.001)
        guard text.count > room else { return text }
        return room <= 1 ? String(text.prefix(room)) : String(text.prefix(room - 1)) + "…"
    }

    /// The estimated width of a label of `label` and `gestures` lines, with its padding.
    static func labelWidth(_ label: String, _ gestures: String) -> Double {
        max(Double(label.count) * characterWidth.label, Double(gestures.count) * characterWidth.small) + 8
    }

    private func intersection(_ a: Rect, _ b: Rect) -> Rect? {
        let (x0, y0, x1, y1) = (max(a.minX, b.minX), max(a.minY, b.minY), min(a.maxX, b.maxX), min(a.maxY, b.maxY))
        return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }
}
