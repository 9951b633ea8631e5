import GesturedCore
import GesturedIO
import GesturedSeeing
import Glibc

/// `gestured draw`: the region map (and a recording's touches and gestures) as SVG or HTML, from
/// the configuration `ConfigChoice` picks (said on stderr).
enum DrawCommand {
    static func run(config: String?, screen: String?, layout: String?, background: String?, recording: String?,
                    description: String?, output: String) throws(CommandFailure) {
        let choice = ConfigChoice.resolve(given: config)
        var configuration = try loadConfiguration(choice.path, screen: screen, layout: layout)
        var picture: RecordingPicture?
        if let recording {
            let (device, events) = try ReplayCommand.load(recording: recording, description: description)
            // Without `screen`, the replay maps the device onto the size it implies: draw that.
            if configuration.screen == nil { configuration.screen = Replay.setting(of: device, in: configuration).screen }
            do { picture = RecordingPicture(try Replay.outputs(device: device, events: events, configuration: configuration)) } catch {
                throw CommandFailure(ExitStatus.failure, "\(recording): \(error)")
            }
        }
        choice.announce(assumedScreen: configuration.screen == nil)
        let tree = ViewTree(views: configuration.views, screen: ScreenSizing.size(configured: configuration.screen))
        let map = RegionMapSVG(tree: tree, recording: picture, background: try background.map(dataURL),
                               application: configuration.applicationPath)
        let text = output.hasSuffix(".html")
            ? RegionMapHTML.page(map, title: "gestured: \(choice.path ?? "built-in configuration")" + (recording.map { ", \($0)" } ?? ""))
            : map.svg()
        do { try writeFile(path: output, bytes: Array(text.utf8)) } catch {
            throw CommandFailure(ExitStatus.failure, "\(error)")
        }
    }

    /// The image as a `data:` URL, so the drawing stands alone.
    private static func dataURL(_ path: String) throws(CommandFailure) -> String {
        let types = ["png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
                     "webp": "image/webp", "svg": "image/svg+xml"]
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard let type = types[ext] else {
            throw CommandFailure(ExitStatus.usage, "--background: \(path): not a PNG, JPEG, GIF, WebP or SVG file name")
        }
        do { return "data:\(type);base64," + Base64.encode(try readFile(path: path)) } catch {
            throw CommandFailure(ExitStatus.failure, "\(error)")
        }
    }
}
