import GesturedCore
import GesturedIO
import GesturedSeeing
import GesturedTestSupport
import Testing

/// `gestured draw`'s files in a real browser: Debian's headless Chromium (the Makefile installs
/// it) loads the SVG and the HTML; the tests read the DOM it ends with (one element per view, one
/// path per touch, the timeline where it was sent or played to) and the colours of screenshot
/// pixels at points known from the configuration. Where Chromium cannot run, the suite is
/// skipped and says why.
@Suite(.enabled(if: Browser.problem == nil, Comment(rawValue: Browser.problem ?? "")))
struct BrowserTests {
    @Test func theSVGHasOneElementPerViewAndOnePathPerTouch() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-browser")
        let svg = try draw(DrawTests.goldens[3].arguments, to: directory.path + "/map.svg")
        let dom = try Browser.run(["--dump-dom", "file://" + svg], in: directory.path)
        let views = ["root", "panel", "under", "cover", "hidden", "disabled", "knob"]
        #expect(dom.split(separator: "data-view=\"").count - 1 == views.count)
        for id in views { #expect(dom.contains("id=\"\(id)\" data-view=\"\(id)\""), "\(id)") }
        #expect(dom.split(separator: "class=\"touch-path\"").count - 1 == 1)
    }

    @Test func theTimelineScrubsAndPlays() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-browser")
        let html = try draw(DrawTests.goldens[2].arguments, to: directory.path + "/map.html")
        let page = try readTextFile(path: html)
        let attribute = page.split(separator: "data-duration=\"").dropFirst().first?.split(separator: "\"").first
        let duration = try #require(attribute)
        #expect(duration == "0.2")   // the second tap's lift, 0.2 s after the first touch-down

        // Opened at the end (the default): everything shows.
        let end = try Browser.run(["--dump-dom", "file://" + html], in: directory.path)
        #expect(end.contains("data-now=\"0.200\""))
        #expect(!end.contains("display: none"))
        // At t=0 only the first touch has begun: its path shows, the second's and the gesture don't.
        let start = try Browser.run(["--dump-dom", "file://" + html + "#t=0"], in: directory.path)
        #expect(start.contains("data-now=\"0.000\""))
        #expect(start.contains("class=\"touch-path\" data-touch=\"1\"") && !segment(start, "data-touch=\"1\"").contains("display: none"))
        #expect(segment(start, "class=\"touch-path\" data-touch=\"2\"").contains("display: none"))
        #expect(segment(start, "class=\"gesture-line\"").contains("display: none"))
        // Played from the start on Chromium's virtual clock: it reaches the end by itself.
        let played = try Browser.run(["--virtual-time-budget=3000", "--dump-dom", "file://" + html + "#play"], in: directory.path)
        #expect(played.contains("data-played=\"true\""))
        #expect(played.contains("data-now=\"0.200\""))
        #expect(!played.contains("display: none"))
    }

    @Test func screenshotPixelsHaveTheViewsColours() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-browser")
        let svg = try draw(DrawTests.goldens[1].arguments, to: directory.path + "/map.svg")
        let png = directory.path + "/map.png"
        _ = try Browser.run(["--window-size=1000,1000", "--screenshot=" + png, "file://" + svg], in: directory.path)
        // Each view's fill over what is behind it, at RegionMapSVG.fillOpacity, on a white screen.
        func over(_ below: [Double], _ hex: String) -> [Double] {
            let v = Array(hex.utf8.dropFirst())
            let c = stride(from: 0, to: 6, by: 2).map { Double(Int(String(decoding: v[$0..<$0 + 2], as: UTF8.self), radix: 16)!) }
            return zip(below, c).map { $0 * (1 - RegionMapSVG.fillOpacity) + $1 * RegionMapSVG.fillOpacity }
        }
        let colors = RegionMapSVG.viewColors
        let root = over([255, 255, 255], colors[0])
        let expected: [(x: Int, y: Int, rgb: [Double], what: String)] = [
            (500, 400, root, "root alone"),
            (200, 200, over(root, colors[1]), "panel over root"),
            (850, 200, over(root, colors[3]), "cover over root"),
            (200, 700, root, "hidden: not filled"),
            (500, 700, root, "disabled: not filled"),
            (800, 700, over(root, colors[6]), "knob over root"),
        ]
        let pixels = try Browser.pixels(png, at: expected.map { ($0.x, $0.y) }, in: directory.path)
        #expect(pixels.count == expected.count && pixels.allSatisfy { $0.count == 3 })
        for (e, got) in zip(expected, pixels) {
            #expect(zip(e.rgb, got).allSatisfy { abs($0 - Double($1)) <= 3 }, "\(e.what) at \(e.x),\(e.y): \(got), expected \(e.rgb)")
        }
    }

    /// The text from `marker` to the end of its element's start tag.
    private func segment(_ dom: String, _ marker: String) -> String {
        guard let after = dom.split(separator: marker, maxSplits: 1).dropFirst().first else { return "" }
        return String(after.prefix { $0 != ">" })
    }

    private func draw(_ arguments: [String], to output: String) throws -> String {
        let done = try Subprocess.run(TestEnvironment.buildDirectory + "/gestured", arguments + ["--output", output],
                                      in: "/", deadline: deadline(milliseconds: 20_000))
        #expect(done.termination == .exited(0), "gestured \(arguments): \(done.stderr)")
        return output
    }
}

/// Headless Chromium, and a PNG reader for its screenshots.
enum Browser {
    static let chromium = TestEnvironment.which("chromium")

    /// Why the browser tests cannot run here, or nil when Chromium answers.
    static let problem: String? = {
        guard chromium != nil else { return "chromium is not installed (make deps installs Debian's chromium)" }
        guard let directory = try? TestEnvironment.TemporaryDirectory(prefix: "gestured-browser"),
              let dom = try? run(["--dump-dom", "about:blank"], in: directory.path) else {
            return "chromium could not be started"
        }
        return dom.contains("<html") ? nil : "chromium --headless --dump-dom about:blank printed no DOM"
    }()

    /// Runs headless Chromium with its own profile in `directory`; returns its stdout.
    static func run(_ arguments: [String], in directory: String) throws -> String {
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                     "--user-data-dir=" + directory + "/profile"]
        let done = try Subprocess.run(chromium!, flags + arguments, in: directory, deadline: deadline(milliseconds: 60_000))
        guard !done.timedOut, done.termination == .exited(0) else {
            throw BrowserError(message: "chromium \(arguments) ended with \(done.termination): \(done.stderr)")
        }
        return done.stdout
    }

    struct BrowserError: Error { var message: String }

    /// For each region of a PNG (x1, y1 excluded), how many pixels are text-dark and how many
    /// have the region's colour (each channel within 4).
    static func census(_ png: String, regions: [(x0: Int, y0: Int, x1: Int, y1: Int, rgb: [Double])],
                       in directory: String) throws -> [(dark: Int, match: Int)] {
        let arguments = regions.map { r in
            "\(r.x0),\(r.y0),\(r.x1),\(r.y1)," + r.rgb.map { String(Int($0.rounded())) }.joined(separator: ",")
        }
        return try pixels(png, at: [], regions: arguments, in: directory).map { ($0[0], $0[1]) }
    }

    /// `hex` (`#rrggbb`) at `opacity` over the colour `below`.
    static func over(_ below: [Double], _ hex: String, _ opacity: Double) -> [Double] {
        let v = Array(hex.utf8.dropFirst())
        let c = stride(from: 0, to: 6, by: 2).map { Double(Int(String(decoding: v[$0..<$0 + 2], as: UTF8.self), radix: 16)!) }
        return zip(below, c).map { $0 * (1 - opacity) + $1 * opacity }
    }

    /// The RGB values at `points` of a PNG: decoded by Debian's python3 (zlib, then PNG's row
    /// filters), which FoundationEssentials cannot inflate.
    static func pixels(_ png: String, at points: [(Int, Int)], regions: [String] = [], in directory: String) throws -> [[Int]] {
        try TestEnvironment.writeFile(path: directory + "/png.py", pngReader)
        let done = try Subprocess.run("/usr/bin/python3", [directory + "/png.py", png] + points.map { "\($0.0),\($0.1)" } + regions,
                                      in: directory, deadline: deadline(milliseconds: 20_000))
        guard done.termination == .exited(0) else { throw BrowserError(message: "png.py: \(done.stderr)") }
        return done.stdout.split(separator: "\n").map { $0.split(separator: " ").map { Int($0)! } }
    }

    static let pngReader = """
        import struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", "not a PNG"
        pos, idat = 8, b""
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b"IHDR":
                width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            elif kind == b"IDAT":
                idat += body
            pos += 12 + length
        assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
        bpp = 3 if color == 2 else 4
        raw, stride = zlib.decompress(idat), width * bpp
        rows, prev = [], bytearray(stride)
        for y in range(height):
            kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 2: line[i] = (line[i] + b) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line)
            prev = line
        for point in sys.argv[2:]:
            numbers = list(map(int, point.split(",")))
            if len(numbers) == 2:
                x, y = numbers
                print(*rows[y][x * bpp:x * bpp + 3])
                continue
            # A region x0,y0,x1,y1 (x1, y1 excluded), and a colour r,g,b: how many of its pixels
            # are text-dark, and how many have that colour (each channel within 4).
            x0, y0, x1, y1, cr, cg, cb = numbers
            dark = match = 0
            for y in range(max(y0, 0), min(y1, height)):
                for x in range(max(x0, 0), min(x1, width)):
                    r, g, b = rows[y][x * bpp:x * bpp + 3]
                    dark += r < 110 and g < 110 and b < 110
                    match += abs(r - cr) <= 4 and abs(g - cg) <= 4 and abs(b - cb) <= 4
            print(dark, match)

        """
}
