import GesturedConfig
import GesturedCore

/// The `config` fuzz target: configuration text through the loader (`ConfigLoader.check`, as
/// `gestured check-config` and the daemon use it). Every error and warning must be located
/// (`DiagnosticCheck`); a configuration the loader accepts must build a pipeline (the core
/// trusts the loader's checks and does not repeat them) and carry a short stream of touches
/// through it with every output well formed and every gesture ended.
public enum ConfigTarget {
    public static let file = "config-fuzz.json5"
    /// What a template file the configuration names holds (`{ file: "…" }`); a name containing
    /// "missing" cannot be read.
    static let templateFile = Array("{ templates: [{ name: \"hook\", points: [[0, 0], [10, 0], [10, 10]] }] }".utf8)

    public static func run(_ bytes: [UInt8]) throws(Violation) {
        var files = [file: bytes]
        let read: ConfigLoader.ReadFile = { path in
            if path.contains("missing") { return .failure(ConfigLoader.unreadable(file: path, message: "cannot open: No such file or directory")) }
            files[path] = templateFile
            return .success(templateFile)
        }
        let result: (configuration: Configuration, warnings: [ConfigDiagnostic])
        do {
            result = try ConfigLoader.check(bytes, file: file, readFile: read)
        } catch {
            try DiagnosticCheck(files: files).check(error.diagnostics)
            return
        }
        let check = DiagnosticCheck(files: files)
        for warning in result.warnings { try check.check(warning) }
        try play(result.configuration)
    }

    /// A tap, a two-finger pinch and a drag across the screen on the synthetic touchscreen (or
    /// on each screen's device), through the accepted configuration.
    static func play(_ configuration: Configuration) throws(Violation) {
        var events: [UInt8] = []
        func event(_ kind: PipelineScenario.EventKind, device: UInt8 = 0, dt: UInt8 = 0, _ v: UInt16) {
            events += [UInt8(kind.rawValue) | device << 4, dt, UInt8(v & 0xff), UInt8(v >> 8)]
        }
        let devices = min(configuration.screenSpecs.count, PipelineScenario.maximumDevices)
        for d in 0..<UInt8(devices) {
            // Tap at the centre.
            event(.trackingID, device: d, dt: 40, 1); event(.mtX, device: d, 32768); event(.mtY, device: d, 32768)
            event(.synReport, device: d, 0)
            event(.trackingID, device: d, dt: 200, 0xffff); event(.synReport, device: d, 0)
            // Two fingers spread, then a drag to the corner.
            event(.slot, device: d, dt: 250, 0); event(.trackingID, device: d, 2); event(.mtX, device: d, 20000); event(.mtY, device: d, 30000)
            event(.slot, device: d, 1); event(.trackingID, device: d, 3); event(.mtX, device: d, 40000); event(.mtY, device: d, 30000)
            event(.synReport, device: d, 0)
            for step in 1...12 {
                event(.slot, device: d, dt: 40, 0); event(.mtX, device: d, UInt16(20000 - step * 1500))
                event(.slot, device: d, 1); event(.mtX, device: d, UInt16(40000 + step * 1500)); event(.mtY, device: d, UInt16(30000 + step * 2000))
                event(.synReport, device: d, 0)
            }
        }
        let scenario = PipelineScenario(devices: (0..<devices).map { DeviceTable.device(0, 0, sysname: "event\($0)") },
                                        events: events, trace: false)
        try PipelineTarget.run(scenario, configuration: configuration)
    }
}
