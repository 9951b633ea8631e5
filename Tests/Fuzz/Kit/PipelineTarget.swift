import GesturedConfig
import GesturedCore
import Synchronization

/// The `pipeline` fuzz target: devices, a configuration and their event streams from the input
/// (`PipelineScenario`), played through the pipeline as replay plays recordings
/// (`drivePipeline`), every output checked as it comes (`OutputLedger`, `ClientPanel`,
/// `LineCheck`), and once every finger has lifted and every deadline passed: nothing running,
/// nothing down, nothing held in an application.
public enum PipelineTarget {
    /// The clients every output is published to: what the daemon's client hub would send.
    static let subscriptions: [ClientSubscription] = {
        var all = ClientSubscription()
        all.touches = true; all.failed = true
        var json = all
        json.format = .json
        var filtered = ClientSubscription()
        filtered.filter = try? LineFilter(parsing: "state=began|ended|cancelled view=root*|v[12]* device=event[0-1]")
        return [all, json, filtered, ClientSubscription()]
    }()

    /// What a run saw: how many gesture lines and forwarded touches (the seed tests check the
    /// target reaches the recognizers and the forwarder at all).
    public struct Tally: Sendable {
        public var gestures = 0
        public var forwarded = 0
        public var types: Set<String> = []
    }

    @discardableResult
    public static func run(_ bytes: [UInt8]) throws(Violation) -> Tally {
        let scenario = PipelineScenario(bytes)
        let configuration: Configuration
        if let known = cache.withLock({ $0[scenario.configurationText] }) {
            configuration = known
        } else {
            do {
                configuration = try ConfigLoader.parse(scenario.configurationText, file: "pipeline-fuzz.json5")
            } catch {
                throw Violation("the generated configuration was rejected (a bug of the target):\n\(error)\n\(scenario.configurationText)")
            }
            cache.withLock { known in
                if known.count >= cacheCapacity { known.removeAll() }
                known[scenario.configurationText] = configuration
            }
        }
        return try run(scenario, configuration: configuration)
    }

    /// The configurations already parsed, by text: inputs that differ only in their events share
    /// one, and parsing is a good part of a short input's time. Bounded.
    static let cache = Mutex<[String: Configuration]>([:])
    static let cacheCapacity = 256

    /// Plays a scenario with its configuration and checks everything it produces (the config and
    /// evemu targets use it too).
    @discardableResult
    public static func run(_ scenario: PipelineScenario, configuration: Configuration) throws(Violation) -> Tally {
        var tally = Tally()
        var ledger = OutputLedger(monotonic: scenario.devices.count == 1)
        var panel = ClientPanel(subscriptions)
        let names = scenario.devices.map { DeviceName($0.sysname) ?? "" }
        var forwardSeq: UInt64 = 0
        var sampler = LineSampler()
        do {
            try drivePipeline(devices: scenario.devices, recordings: scenario.recordings, configuration: configuration,
                              trace: scenario.trace, step: { step throws(Violation) in
                if let bug = step.bugs.first { throw Violation("the engine reported a bug of its own: \(bug)") }
                for line in step.trace { try LineCheck.check(trace: line) }
                for output in step.outputs {
                    if case .gesture(let g) = output { tally.gestures += 1; tally.types.insert(g.type) }
                    try ledger.take(output)
                    try panel.publish(output, lines: sampler.shouldCheck(output))
                }
                for f in step.forwarded {
                    tally.forwarded += 1
                    try ledger.take(f)
                    forwardSeq += 1
                    try LineCheck.check(f, device: names[f.device.value], seq: forwardSeq)
                }
            }, settled: { () throws(Violation) in
                try ledger.checkSettled("every finger lifted and every deadline passed")
            })
        } catch let violation as Violation {
            throw violation
        } catch {
            // The replay refused a device or the configuration (`ReplayError`), as `gestured
            // replay` would: nothing was played.
            return tally
        }
        try ledger.checkSettled("the devices removed")
        return tally
    }
}
