import GesturedConfig
import GesturedCore
import GesturedTestSupport
import Testing

/// `gestured replay --forwarded` shows what the application behind a pass-through panel gets,
/// when the daemon gives it: the cases where it used to differ from the daemon (issue 24), as
/// transcripts. The kernel guest measured the daemon: a held three-finger long press cancels the
/// application's touches when it begins (libinput: TOUCH_CANCEL 1.97 s after the press), and a
/// lone tap under a double tap reaches the application's lift when the double tap fails (TOUCH_UP
/// 0.36 s after the press).
@Suite struct ReplayForwardedTests {
    static let kiosk = """
        { screen: { width: 1000, height: 1000 },
          devices: [ { match: { type: "touchscreen" }, passThrough: true } ],
          views: [ { id: "app", gestures: [
            { id: "service", type: "longPress", numberOfTouchesRequired: 3, minimumPressDuration: 2 },
            { id: "double", type: "tap", numberOfTapsRequired: 2 },
          ] } ] }
        """

    static func replay(_ script: ReplayEndTests.Script) throws -> [String] {
        let configuration = try ConfigLoader.parse(kiosk, file: "kiosk.json5")
        var lines: [String] = []
        try Replay.run(device: ReplayEndTests.device(), events: script.events, configuration: configuration,
                       options: Replay.Options(forwarded: true)) { lines.append($0) }
        // The kind, phase or type, and time: what the transcripts compare.
        return lines.map { line in
            let words = line.split(separator: " ")
            let time = words.first { $0.hasPrefix("time=") }.map { $0.dropFirst(5) } ?? ""
            return words[0] == "forward" ? "\(time) forward \(words[1]) \(words[2])" : "\(time) \(words[1]) \(words[2]) \(words[3])"
        }
    }

    /// Three fingers held still for 3 s: the application's touches are cancelled at 2 s, when
    /// the long press begins, not at the lift a second later.
    @Test func aHeldLongPressCancelsTheApplicationsTouchesWhenItBegins() throws {
        var s = ReplayEndTests.Script()
        s.frame(at: 0, [(0, 1, 1000, 1000), (1, 2, 2000, 1000), (2, 3, 3000, 1000)])
        s.frame(at: 3000, [(0, -1, nil, nil), (1, -1, nil, nil), (2, -1, nil, nil)])
        #expect(try Self.replay(s) == [
            "0.000000 forward down 1", "0.000000 forward down 2", "0.000000 forward down 3",
            "2.000000 longPress began service",
            "2.000000 forward cancel 1", "2.000000 forward up 1", "2.000000 forward cancel 2", "2.000000 forward up 2",
            "2.000000 forward cancel 3", "2.000000 forward up 3",
            "3.000000 longPress ended service",
        ])
    }

    /// A lone tap, the last thing in the recording: its lift is held while the double tap may
    /// still need it, and reaches the application when the double tap fails (0.3 s after the
    /// lift), as in the daemon, where the panel is still there.
    @Test func aLoneTapsHeldLiftReachesTheApplicationWhenTheDoubleTapFails() throws {
        var s = ReplayEndTests.Script()
        s.frame(at: 0, [(0, 1, 1000, 1000)])
        s.frame(at: 60, [(0, -1, nil, nil)])
        #expect(try Self.replay(s) == ["0.000000 forward down 1", "0.360000 forward up 1"])
    }

    /// The same tap followed by another touch a second later: the held lift goes at 0.36 s,
    /// before the next touch's down, not with it.
    @Test func aHeldLiftIsNotDeferredToTheNextTouch() throws {
        var s = ReplayEndTests.Script()
        s.frame(at: 0, [(0, 1, 1000, 1000)])
        s.frame(at: 60, [(0, -1, nil, nil)])
        s.frame(at: 1000, [(0, 2, 3000, 3000)])
        s.frame(at: 1050, [(0, -1, nil, nil)])
        #expect(try Self.replay(s) == ["0.000000 forward down 1", "0.360000 forward up 1",
                                       "1.000000 forward down 2", "1.350000 forward up 2"])
    }

    /// Replay applies the device rules the daemon applies: an ignored device's recording is not
    /// replayed, and it says so; a passThrough that cannot apply says why there are no forward
    /// lines.
    @Test func replaySaysWhatTheRulesDoWithTheRecordedDevice() throws {
        var s = ReplayEndTests.Script()
        s.frame(at: 0, [(0, 1, 1000, 1000)])
        s.frame(at: 60, [(0, -1, nil, nil)])
        let device = try ReplayEndTests.device()
        func run(_ config: String, device: DeviceDescription) throws -> (lines: [String], notices: [String]) {
            var lines: [String] = [], notices: [String] = []
            try Replay.run(recordings: [(device, s.events)], configuration: try ConfigLoader.parse(config, file: "c.json5"),
                           options: Replay.Options(forwarded: true), notice: { notices.append($0) }) { bytes in
                lines += String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
                bytes.removeAll()
            }
            return (lines, notices)
        }
        let ignored = try run("{ devices: [ { match: { name: \"gestured synthetic*\" }, ignore: true } ], views: [ { id: \"v\", gestures: [ { id: \"t\", type: \"tap\" } ] } ] }",
                              device: device)
        #expect(ignored.lines == [])
        #expect(ignored.notices == ["event0 (gestured synthetic touchscreen): ignored (devices[0] says ignore); its recording is not replayed"])
        var single = device
        single.mtX = nil; single.mtY = nil; single.slotCount = 0; single.hasTrackingID = false
        let refused = try run("{ devices: [ { match: {}, passThrough: true } ], views: [ { id: \"v\", gestures: [ { id: \"t\", type: \"tap\" } ] } ] }",
                              device: single)
        #expect(!refused.lines.contains { $0.hasPrefix("forward") }, "\(refused.lines)")
        #expect(refused.notices == ["event0 (gestured synthetic touchscreen): no forward lines: it cannot pass through: it is single-touch "
                                    + "(ABS_X/ABS_Y only), and only multitouch protocol B devices can be cloned"])
    }
}
