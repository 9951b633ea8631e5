@testable import gestured
import GesturedConfig
import GesturedCore
import GesturedIO
import GesturedSynthetic
import GesturedTestSupport
import Testing

/// The promise of ARCHITECTURE.md, checked: the daemon's parts and replay drive the same core
/// and decide the same things. The daemon side is `LivePipeline`, driven as the loop drives it
/// (a read of one or more whole frames at once, the timer at the pipeline's next deadline when
/// it comes before the next read, control requests and reloads between reads); the replay side
/// steps a pipeline as `Replay.Session.play` does (event by event, each deadline a step of its
/// own before the frame that passes it). Seeded random streams of up to three fingers on a
/// pass-through panel, with deadlines (double tap, long press), held touches
/// (`delaysTouchesBegan`), a strip that never forwards, control changes and reloads, idle
/// thresholds, locks and screens said to be off: the lines,
/// actions and application's touches are the same, in the same order.
@Suite struct ReplayEqualsDaemonTests {
    static let panel = DeviceDescription(sysname: "event0", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                         mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 4, hasTrackingID: true,
                                         isDirect: true)
    static let text = """
        { screen: { width: 1000, height: 1000 }, idle: [1, 3],
          devices: [ { match: { type: "touchscreen" }, passThrough: true } ],
          views: [ { id: "app", gestures: [
              { id: "single", type: "tap", requireToFail: ["double"], action: { run: ["/bin/true"] } },
              { id: "double", type: "tap", numberOfTapsRequired: 2 },
              { id: "hold", type: "longPress", numberOfTouchesRequired: 2, minimumPressDuration: 0.4 },
              { id: "drag", type: "pan", minimumNumberOfTouches: 3, cancelsTouchesInView: false },
            ],
            subviews: [
              { id: "strip", frame: [900, 0, 100, 1000], forwardsTouches: false },
              { id: "edge", frame: [0, 0, 100, 1000],
                gestures: [ { id: "back", type: "screenEdgePan", edges: ["left"], delaysTouchesBegan: true } ] },
            ] } ],
          layouts: { quiet: { edge: { isUserInteractionEnabled: false } }, busy: { edge: { isUserInteractionEnabled: true } } } }
        """
    /// The reloaded configuration: the strip forwards now, the edge is gone.
    static let reloaded = """
        { screen: { width: 1000, height: 1000 },
          devices: [ { match: { type: "touchscreen" }, passThrough: true } ],
          views: [ { id: "app", gestures: [ { id: "double", type: "tap", numberOfTapsRequired: 2 } ],
                     subviews: [ { id: "strip", frame: [900, 0, 100, 1000] } ] } ] }
        """

    /// What happens between frames: a control request or a reload.
    enum Interlude { case none, control(ControlRequest), reload(Configuration) }

    struct Frame {
        var events: [RawEvent]
        var time: Instant
        var interlude: Interlude = .none
    }

    /// Up to three fingers going down, moving, holding and lifting, frames 1 ms to 0.7 s apart
    /// (so deadlines fire between them), now and then a control request or a reload.
    static func frames(seed: UInt64) throws -> [Frame] {
        var rng = SplitMix64(seed: seed)
        let alternative = try ConfigLoader.parse(reloaded, file: "reloaded.json5")
        var frames: [Frame] = []
        var ms: Int64 = 0
        var down: [Int32: (Int32, Int32)] = [:]
        var script = PanelScript()
        for _ in 0..<(60 + Int(rng.next() % 60)) {
            ms += [1, 8, 30, 120, 350, 700][Int(rng.next() % 6)]
            if down.isEmpty, rng.next() % 6 == 0 {
                // A double tap now and then: random touches seldom make one.
                let (x, y) = (Int32(100 + rng.next() % 700), Int32(rng.next() % 1000))
                let touch: [PanelScript.Contact] = [.down(slot: 0, x: x, y: y), .up(slot: 0)]
                for (step, contact) in zip([Int64(0), 40, 120, 160], touch + touch) {
                    let t = Instant(microseconds: (ms + step) * 1000)
                    frames.append(Frame(events: script.frame(at: t, [contact]), time: t))
                }
                ms += 160
                continue
            }
            let t = Instant(microseconds: ms * 1000)
            var contacts: [PanelScript.Contact] = []
            for slot in Int32(0)..<3 {
                switch (down[slot], rng.next() % 4) {
                case (nil, 0):
                    let p = (Int32(rng.next() % 1000), Int32(rng.next() % 1000))
                    contacts.append(.down(slot: slot, x: p.0, y: p.1))
                    down[slot] = p
                case (.some, 0):
                    contacts.append(.up(slot: slot))
                    down[slot] = nil
                case (.some(let p), 1):
                    let q = (min(999, p.0 + Int32(rng.next() % 60)), max(0, p.1 - Int32(rng.next() % 30)))
                    contacts.append(.move(slot: slot, x: q.0, y: q.1))
                    down[slot] = q
                default: break   // held still, or stays up
                }
            }
            guard !contacts.isEmpty else { continue }
            var frame = Frame(events: script.frame(at: t, contacts), time: t)
            switch rng.next() % 40 {
            case 0: frame.interlude = .control(.layout("quiet", screen: nil))
            case 1: frame.interlude = .control(.layout("busy", screen: nil))
            case 2: frame.interlude = .control(.view("strip", .hidden(rng.next() % 2 == 0)))
            case 3: frame.interlude = .reload(alternative)
            case 4: frame.interlude = .control(.lock(seconds: 1 + Int(rng.next() % 2)))
            case 5: frame.interlude = .control(.unlock())
            case 6: frame.interlude = .control(.screenPower(on: false))
            default: break
            }
            frames.append(frame)
        }
        return frames
    }

    /// The interlude's time: just after its frame, before the next one.
    static func after(_ frame: Frame) -> Instant { frame.time + Interval(microseconds: 500) }

    /// The daemon's parts: reads of one to three frames, the timer before a read when a
    /// deadline comes first, control requests through the control path (with its answer).
    static func daemon(_ frames: [Frame], configuration: Configuration) throws -> Decisions {
        let recorder = Recorder()
        let pipeline = try GesturePipeline(configuration: configuration, sizes: [Size(width: 1000, height: 1000)])
        let live = LivePipeline(pipeline, shell: recorder)
        live.start(now: .zero)   // the daemon's start
        let admitted = try DeviceAdmission.admit(panel, properties: ["ID_INPUT_TOUCHSCREEN": "1"], configuration: configuration).get()
        let device = try live.add(panel, admitted)
        var rng = SplitMix64(seed: 99)
        var layouts = ControlDesk.layouts(of: configuration)
        var i = 0
        while i < frames.count {
            // A read ends at a frame followed by a control request or a reload: those come
            // between reads.
            var count = min(frames.count - i, 1 + Int(rng.next() % 3))
            if let k = frames[i..<(i + count)].firstIndex(where: { if case .none = $0.interlude { false } else { true } }) {
                count = k - i + 1
            }
            let read = frames[i..<(i + count)]
            while let deadline = live.pipeline.nextDeadline, deadline < read.first!.time { live.advance(to: deadline) }
            live.read(read.flatMap(\.events), from: device)
            for frame in read { apply(frame.interlude, to: live, layouts: &layouts, at: after(frame)) }
            i += count
        }
        while let deadline = live.pipeline.nextDeadline { live.advance(to: deadline) }
        live.shutdown(now: frames.last!.time + Interval(seconds: 10))
        return recorder.decisions
    }

    /// Takes what the daemon's `Shell` would carry out.
    final class Recorder: BatchCarrying {
        var decisions = Decisions()
        func carryOut(_ batch: Batch, requester: ClientID?) { decisions.take(batch) }
    }

    private static func apply(_ interlude: Interlude, to live: LivePipeline, layouts: inout [ControlDesk.ScreenLayouts], at now: Instant) {
        switch interlude {
        case .none: break
        case .control(let request):
            _ = live.control(request, from: ClientID(rawValue: 1), format: .text, layouts: layouts, now: now)
        case .reload(let configuration):
            // A reload's sizes are the screens' (the daemon's DeviceHub+Reload computes them).
            while let deadline = live.pipeline.nextDeadline, deadline <= now { live.advance(to: deadline) }
            try? live.reload(configuration, sizes: [Size(width: 1000, height: 1000)], now: now)
            layouts = ControlDesk.layouts(of: configuration)
        }
    }

    /// Replay's stepping (`Replay.Session.play`): frame by frame, each deadline a step of its own
    /// before the frame at or after it, interludes at the same instants.
    static func replay(_ frames: [Frame], configuration: Configuration) throws -> Decisions {
        var pipeline = try GesturePipeline(configuration: configuration, sizes: [Size(width: 1000, height: 1000)])
        var decisions = Decisions()
        var batch = Batch()
        pipeline.start(at: .zero, into: &batch); decisions.take(batch)
        let device = try pipeline.addDevice(panel, rule: configuration.devices.first)
        var layouts = ControlDesk.layouts(of: configuration)
        func fire(through time: Instant) {
            while let deadline = pipeline.nextDeadline, deadline <= time {
                pipeline.advance(to: deadline, into: &batch); decisions.take(batch)
            }
        }
        for frame in frames {
            fire(through: frame.events.last!.time)
            pipeline.handle(frame.events, from: device, into: &batch); decisions.take(batch)
            let now = after(frame)
            switch frame.interlude {
            case .none: break
            case .control(let request):
                _ = ControlDesk.apply(request, to: &pipeline, layouts: layouts, devices: pipeline.deviceList, now: now, into: &batch)
                decisions.take(batch)
            case .reload(let configuration):
                fire(through: now)
                try? pipeline.reload(configuration: configuration, sizes: [Size(width: 1000, height: 1000)], now: now, into: &batch)
                decisions.take(batch)
                layouts = ControlDesk.layouts(of: configuration)
            }
        }
        fire(through: Instant(microseconds: .max))
        pipeline.shutdown(now: frames.last!.time + Interval(seconds: 10), into: &batch); decisions.take(batch)
        return decisions
    }

    static func lines(_ d: Decisions) -> [String] {
        var seq: UInt64 = 0
        var lines = d.outputs.map { o -> String in seq += 1; return LineEncoder.output(o, seq: seq, format: .text) }
        lines += d.forwarded.map { f -> String in
            var bytes: [UInt8] = []
            LineEncoder.forwarded(f, device: "event0", seq: 0, format: .text, into: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        lines += d.actions.map { "action \($0.event.name) \($0.event.state.rawValue) \($0.event.time)" }
        lines += d.replies
        return lines
    }

    @Test(arguments: 0..<60 as Range<UInt64>)
    func theDaemonsPartsDecideWhatReplayDecides(seed: UInt64) throws {
        let configuration = try ConfigLoader.parse(Self.text, file: "kiosk.json5")
        let frames = try Self.frames(seed: seed)
        let daemon = try Self.daemon(frames, configuration: configuration)
        let replay = try Self.replay(frames, configuration: configuration)
        let (a, b) = (Self.lines(daemon), Self.lines(replay))
        let first = a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? (a.count == b.count ? nil : a.count)
        #expect(first == nil, "seed \(seed): first difference at line \(first ?? 0):\ndaemon: \(a[(first ?? 0)...].prefix(4))\nreplay: \(b[(first ?? 0)...].prefix(4))")
        // Not vacuous: the streams reach the application, hold and cancel touches, fire deadlines.
        #expect(!daemon.forwarded.isEmpty && !daemon.outputs.isEmpty)
    }

    /// Over all seeds, every kind of decision shows up at least once.
    @Test func theStreamsExerciseEveryKindOfDecision() throws {
        let configuration = try ConfigLoader.parse(Self.text, file: "kiosk.json5")
        var kinds: Set<String> = []
        for seed in 0..<60 as Range<UInt64> {
            let d = try Self.daemon(try Self.frames(seed: seed), configuration: configuration)
            for f in d.forwarded {
                switch f.kind {
                case .down: kinds.insert("down")
                case .move: kinds.insert("move")
                case .cancel: kinds.insert("cancel")
                case .up: kinds.insert("up")
                }
            }
            for case .gesture(let g) in d.outputs { kinds.insert("\(g.name) \(g.state.rawValue)") }
            for case .kiosk(let k) in d.outputs { kinds.insert(k.name) }
            if !d.actions.isEmpty { kinds.insert("action") }
        }
        for kind in ["down", "move", "cancel", "up", "single ended", "double ended", "hold began", "back began",
                     "back failed", "drag began", "action", "idle", "active", "lock", "unlock", "wake"] {
            #expect(kinds.contains(kind), "no \(kind) in any stream")
        }
    }
}
