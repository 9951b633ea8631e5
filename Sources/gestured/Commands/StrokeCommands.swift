import GesturedConfig
import GesturedCore
import GesturedIO
import Glibc

/// `gestured record-stroke` and `gestured replay --strokes`: templates from recordings, and how
/// every stroke of a recording scores against every template.
enum StrokeCommands {
    /// `record-stroke --name NAME [--output FILE] RECORDING [--description DESC]`: the first
    /// stroke of the recording as a template file, to FILE or stdout.
    static func record(name: String, output: String?, recording: String, description: String?) throws(CommandFailure) {
        let strokes = try strokes(configuration: try loadConfiguration(nil), recording: recording, description: description)
        try write(name: name, output: output, source: recording, strokes: strokes)
    }

    /// `record-stroke --name NAME [--output FILE] [--config FILE] [--timeout SECONDS]`: the first
    /// stroke drawn on a live touch device (`LiveStrokeCapture`), written as `record` writes it.
    static func recordLive(name: String, output: String?, config: String?, timeout: Double) throws(CommandFailure) {
        let configuration = try loadConfiguration(config)
        let capture = try LiveStrokeCapture.capture(configuration: configuration, timeout: timeout)
        let strokes: [StrokeCollector.Stroke]
        do { strokes = try Replay.strokes(device: capture.device, events: capture.events, configuration: configuration) } catch {
            throw CommandFailure(ExitStatus.failure, "\(capture.label): \(error)")
        }
        try write(name: name, output: output, source: capture.label, strokes: strokes)
    }

    /// The first of `strokes` as a template called `name`, to `output` or stdout.
    private static func write(name: String, output: String?, source: String,
                              strokes: [StrokeCollector.Stroke]) throws(CommandFailure) {
        guard let stroke = strokes.first else {
            throw CommandFailure(ExitStatus.failure, "\(source): no stroke: no touch went down and lifted")
        }
        guard stroke.points.count >= StrokeTemplate.minimumPoints else {
            throw CommandFailure(ExitStatus.failure, "\(source): the first stroke did not move")
        }
        var comment = "gestured record-stroke --name \(name): the first stroke of \(source)"
        comment += "\n(\(stroke.touches) touch\(stroke.touches == 1 ? "" : "es"), \(stroke.points.count) points, "
            + "\(LineEncoder.fixed((stroke.end - stroke.start).seconds, decimals: 3)) s)"
        let text = StrokeTemplateFile.text([StrokeTemplate(name: name, points: stroke.points)], comment: comment)
        guard let output else { print(text, terminator: ""); return }
        do { try writeFile(path: output, bytes: Array(text.utf8)) } catch {
            throw CommandFailure(ExitStatus.failure, "\(output): \(error)")
        }
    }

    /// `replay --strokes`: one line per stroke, `stroke N time=… touches=K` and every template's
    /// best score, highest first (`name=0.953`). The templates are those of the configuration's
    /// stroke gestures (of every screen), or the built-in ones when it has none.
    static func scores(config: String?, recording: String, description: String?) throws(CommandFailure) {
        let configuration = try loadConfiguration(config)
        var templates: [StrokeTemplate] = []
        func collect(_ views: [ViewSpec]) {
            for view in views {
                for gesture in view.gestures {
                    if case .stroke(let p) = gesture.kind { templates += p.templates.filter { !templates.contains($0) } }
                }
                collect(view.subviews)
            }
        }
        collect(configuration.allViews)
        if templates.isEmpty { templates = StrokeLibrary.all }
        var matcher = StrokeMatcher(templates: templates)
        let strokes = try strokes(configuration: configuration, recording: recording, description: description)
        for (i, stroke) in strokes.enumerated() {
            let scores = matcher.scores(stroke.points)
            let ranked = zip(matcher.names, scores).sorted { $0.1 > $1.1 }
            var line = "stroke \(i + 1) time=\(stroke.start) touches=\(stroke.touches) points=\(stroke.points.count)"
            for (name, score) in ranked { line += " \(LineEncoder.textString(name))=\(LineEncoder.fixed(score, decimals: 3))" }
            print(line)
        }
    }

    /// The strokes of `recording`, streamed through a replay (`RecordingStream`): what is held
    /// is the strokes, not the file.
    private static func strokes(configuration: Configuration, recording: String,
                                description: String?) throws(CommandFailure) -> [StrokeCollector.Stroke] {
        let sysname = ReplayCommand.sysname(0)
        var streams = [try RecordingStream(path: recording, description: try RecordingStream.description(description, sysname: sysname),
                                           sysname: sysname)]
        var session: Replay.Session
        do { session = try Replay.Session(devices: [streams[0].device], configuration: configuration, touches: true) } catch {
            throw CommandFailure(ExitStatus.failure, "\(recording): \(error)")
        }
        var collector = StrokeCollector()
        try RecordingStream.play(&streams, session: &session) { session in
            for case .touch(let touch) in session.batch.outputs { collector.add(touch) }
        }
        return collector.strokes
    }
}
