import GesturedBenchKit
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc

extension DaemonBenchmarks {
    /// `gestured replay` of ten fingers moving together (translating, turning, spreading) with a
    /// pan, a pinch and a rotation recognized together: three lines per frame, 250,000 frames
    /// (about 150 MB of recording). Frames per second of the whole command, and its peak RSS
    /// (GNU time's %M) in one more run whose output is counted: the recording is streamed, so
    /// the peak is the program's, not the file's.
    static func replayTenFingers(_ gestured: String, scratch: String, runs: Int, log: (String) -> Void) throws -> [Figure] {
        let recording = scratch + "/ten-fingers.events", description = recording + ".desc", config = recording + ".json5"
        let frames = try writeTenFingers(frames: 250_000, path: recording)
        let size = fileSize(recording)
        log("  replay ten fingers: \(frames) frames, \(size >> 20) MiB recording")
        let arguments = ["replay", "--config", config, "--description", description, recording]
        let samples = try DaemonBenchmarks.replayRates(gestured, arguments, frames: frames, runs: runs, label: "replay ten fingers")
        var figure = Figure(name: "gestured replay, ten fingers, 3 lines/frame", unit: "frames/s", samples: samples)
        figure.target = "≥ 200,000"; figure.met = figure.median >= 200_000
        log("  replay ten fingers: \(Format.number(figure.median)) frames/s")
        var result = [figure]
        // Peak RSS and lines per frame, in one more run.
        guard isAccessible("/usr/bin/time", X_OK) else {
            log("  replay ten fingers: /usr/bin/time is absent (Debian package time), no peak RSS figure")
            return result
        }
        let output = scratch + "/ten-fingers.out", rss = scratch + "/ten-fingers.rss"
        let process = try Subprocess("/usr/bin/time", ["-f", "%M", "-o", rss, gestured] + arguments,
                                     stdout: .file(output), stderr: .discard)
        let (termination, timedOut) = try process.wait(deadline: deadline(milliseconds: 120_000))!
        guard !timedOut, termination == .exited(0) else { throw BenchError("replay ten fingers under time: \(termination)") }
        let kib = Double(try readTextFile(path: rss).split(separator: "\n").last.flatMap { Double($0) } ?? .nan)
        let lines = try countLines(output)
        _ = unlink(output)
        var peak = Figure(name: "gestured replay, ten fingers, peak RSS", unit: "MiB", samples: [kib / 1024])
        peak.target = "bounded, not the recording's \(size >> 20) MiB"; peak.met = kib / 1024 < Double(size >> 20) / 4
        peak.note = "\(Format.number(Double(lines) / Double(frames))) lines per frame"
        log("  replay ten fingers: peak RSS \(Format.number(kib / 1024)) MiB, \(peak.note)")
        result.append(peak)
        return result
    }

    /// Writes the ten-finger recording to `path`, its device description to `path.desc` and the
    /// configuration (a pan, a pinch and a rotation recognized together) to `path.json5`;
    /// returns the frame count (`frames` rounded up to whole 1,202-frame sequences).
    static func writeTenFingers(frames: Int, path: String) throws -> Int {
        try TestEnvironment.writeFile(path: path + ".desc", deviceDescription)
        try TestEnvironment.writeFile(path: path + ".json5", """
            { views: [{ id: "root", gestures: [
                { id: "drag", type: "pan", recognizeSimultaneouslyWith: ["zoom", "spin"] },
                { id: "zoom", type: "pinch", recognizeSimultaneouslyWith: ["drag", "spin"] },
                { id: "spin", type: "rotation", recognizeSimultaneouslyWith: ["drag", "zoom"] } ] }] }
            """)
        return tenFingerStream(frames: frames, into: path)
    }

    /// Writes the ten-finger recording in pieces (never the whole text in memory); returns its
    /// frame count.
    private static func tenFingerStream(frames count: Int, into path: String) -> Int {
        let center = Point(x: Scenario.screen.width / 2, y: Scenario.screen.height / 2)
        let file = fopen(path, "w")!
        defer { fclose(file) }
        var written = 0
        while written < count {
            var stream = FrameStream()
            func fingers(_ i: Int) -> [(slot: Int, point: Point?)] {
                let t = Double(i) / 60
                let scale = 1 + 0.25 * sin(t), angle = 0.5 * sin(0.7 * t)
                let shift = Vector(dx: 200 * sin(0.4 * t), dy: 120 * sin(0.3 * t))
                return (0..<10).map { k in
                    let a = Double(k) * 0.6283 + angle, r = 140 * scale
                    return (k, center + shift + Vector(dx: r * cos(a), dy: r * sin(a)))
                }
            }
            stream.frame(fingers(0))
            for i in 1...1200 { stream.frame(fingers(i)) }
            stream.frame((0..<10).map { ($0, nil) })
            stream.pause(microseconds: 400_000)
            var text: [UInt8] = []
            stream.evemuLines(into: &text)
            _ = text.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            written += stream.frames.count
        }
        return written
    }

    private static func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    private static func countLines(_ path: String) throws -> Int {
        var lines = 0
        let reader = try LineReader(path: path)
        while let piece = try reader.next() { for byte in piece where byte == UInt8(ascii: "\n") { lines += 1 } }
        return lines
    }
}
