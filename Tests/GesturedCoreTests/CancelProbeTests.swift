import GesturedCore
import GesturedDoctor
import Testing

/// `doctor --probe-cancel`'s pure part (CancelProbe.swift, CancelProbeChecks.swift): transcripts
/// of `gestured-surface` lines in, each style's result and the verdict on the rules out.
@Suite struct CancelProbeTests {
    /// The style's transcript of `lines` (gestured-surface's words), finished at the deadline.
    static func result(_ style: CancelStyle, _ lines: [String]) -> CancelProbe.StyleResult {
        var transcript = CancelProbe.Transcript(style: style)
        for line in lines {
            guard let parsed = CancelProbe.SurfaceLine(line[...]) else { continue }
            if transcript.feed(parsed) { break }
        }
        return transcript.finish()
    }

    static let down = ["down 3 640.00 360.00", "frame"]

    @Test func theSurfaceLinesAreRead() {
        #expect(CancelProbe.SurfaceLine("ready 1280 720") == .ready(width: 1280, height: 720))
        #expect(CancelProbe.SurfaceLine("down 0 639.50 360.25") == .down(id: 0, x: 639.5, y: 360.25))
        #expect(CancelProbe.SurfaceLine("motion 1 1.00 2.00") == .motion(id: 1, x: 1, y: 2))
        #expect(CancelProbe.SurfaceLine("up 0") == .up(id: 0))
        #expect(CancelProbe.SurfaceLine("cancel") == .cancel)
        #expect(CancelProbe.SurfaceLine("frame") == .frame)
        for junk in ["", "ready 0 720", "ready 1280", "down x 1 2", "up", "cancel 1", "hello"] {
            #expect(CancelProbe.SurfaceLine(junk[...]) == nil, "\(junk)")
        }
    }

    @Test func eachEndingIsNamed() {
        #expect(Self.result(.lift, Self.down + ["up 3", "frame"]).received == .up)
        #expect(Self.result(.palm, Self.down + ["cancel"]).received == .cancel)
        #expect(Self.result(.palm, Self.down + ["motion 3 641.00 360.00", "frame"]).received == .nothing)
        // Another touch's up, or a cancel before the probe's down, is not the probe's ending.
        #expect(Self.result(.lift, Self.down + ["up 4", "frame"]).received == .nothing)
        #expect(Self.result(.palm, ["cancel"] + Self.down).received == .nothing)
        // No down at all: the touch never reached the surface; the style is not measured.
        #expect(Self.result(.lift, ["ready 1280 720", "up 3"]).received == nil)
        #expect(Self.result(.lift, ["ready 1280 720"]).fits == nil)
    }

    @Test func theOutcomeIsKnownAsSoonAsTheLinesSayIt() {
        var transcript = CancelProbe.Transcript(style: .palm)
        let known = [transcript.feed(.down(id: 0, x: 1, y: 1)), transcript.feed(.frame), transcript.feed(.cancel),
                     // An up after the cancel does not change it.
                     transcript.feed(.up(id: 0))]
        #expect(known == [false, false, true, true])
        #expect(transcript.finish() == CancelProbe.StyleResult(style: .palm, received: .cancel))
    }

    /// Debian 12's Wayland compositors (the matrix: "palm" left touches pressed): lift fits, palm not.
    static let dropsCancel = CancelProbe.Result(styles: [result(.lift, down + ["up 3", "frame"]), result(.palm, down)])
    /// A compositor that passes the cancel on (sway ≥ 1.9).
    static let passesCancel = CancelProbe.Result(styles: [result(.lift, down + ["up 3", "frame"]), result(.palm, down + ["cancel"])])

    @Test func theVerdictFollowsWhatPalmGave() {
        #expect(Self.dropsCancel.passesCancel == false)
        #expect(Self.dropsCancel.recommended == .lift)
        #expect(Self.dropsCancel.fits(.lift) == true && Self.dropsCancel.fits(.palm) == false)
        #expect(Self.passesCancel.passesCancel == true)
        #expect(Self.passesCancel.recommended == .palm)
        #expect(Self.passesCancel.fits(.lift) == true && Self.passesCancel.fits(.palm) == true)
        // X: both styles end as an up; lift is recommended, as CancelPassing's Xorg entry says.
        let bothUp = CancelProbe.Result(styles: [Self.result(.lift, Self.down + ["up 3"]), Self.result(.palm, Self.down + ["up 3"])])
        #expect(bothUp.passesCancel == false && bothUp.recommended == .lift && bothUp.fits(.palm) == true)
        let unmeasured = CancelProbe.Result(styles: [], failure: "no display")
        #expect(unmeasured.passesCancel == nil && unmeasured.recommended == nil && unmeasured.fits(.lift) == nil)
    }

    static func facts(_ style: CancelStyle) -> DoctorFacts {
        DoctorFacts(socket: DoctorChecksTests.listening, caller: DoctorChecksTests.user, devices: [DoctorChecksTests.panel],
                    needsUinput: true, clones: [DoctorChecksTests.clone(style, readers: [DoctorChecksTests.cage])],
                    guards: [DoctorFacts.Guard(pid: 800, slots: 10)])
    }

    @Test func aStyleTheProbeLeftPressedIsAProblem() {
        let report = Self.facts(.palm).report(probe: Self.dropsCancel, display: "wayland-1")
        #expect(!report.ok)
        let probe = report.checks.filter { $0.check == "probe" }
        #expect(probe.map(\.status) == [.ok, .warning, .problem])
        #expect(probe.map(\.message) == [
            "cancelStyle \"lift\": the surface on the compositor at wayland-1 received wl_touch.up",
            "cancelStyle \"palm\": the surface on the compositor at wayland-1 received nothing: the touch stays pressed",
            "devices[0] cancelStyle \"palm\" does not fit the compositor at wayland-1: the probe's touch stayed pressed",
        ])
        #expect(probe[1].fix == "if touches no longer reach the application now (weston 10 sends every touch to the surface of "
                + "the first touch still down, and the probe's stays down), restart the compositor")
        #expect(probe[2].fix == "set cancelStyle: \"lift\" in devices[0], then systemctl reload gestured")
    }

    @Test func aFittingStyleIsOKAndLiftWhereACancelPassesIsAWarning() {
        let fits = Self.facts(.lift).report(probe: Self.dropsCancel, display: "wayland-1")
        #expect(fits.ok)
        #expect(fits.checks.last == DoctorCheck("probe", .ok, "devices[0] cancelStyle \"lift\" fits the compositor at wayland-1"))
        let couldCancel = Self.facts(.lift).report(probe: Self.passesCancel, display: "wayland-1")
        #expect(couldCancel.ok)
        #expect(couldCancel.checks.last?.status == .warning)
        #expect(couldCancel.checks.last?.fix == "set cancelStyle: \"palm\" in devices[0], then systemctl reload gestured")
    }

    @Test func aProbeThatCouldNotRunOrNeverTouchedIsAProblem() {
        let failed = Self.facts(.lift).report(probe: CancelProbe.Result(styles: [], failure: "no Wayland display"), display: "wayland-0")
        #expect(!failed.ok)
        #expect(failed.checks.last?.message == "the probe did not finish: no Wayland display")
        let untouched = Self.facts(.lift).report(probe: CancelProbe.Result(styles: [Self.result(.lift, ["ready 800 600"])]),
                                                 display: "wayland-0")
        #expect(!untouched.ok)
        #expect(untouched.checks.contains { $0.status == .problem && $0.message.hasSuffix("never received the probe's touch: it was "
                + "lifted at once and the probe stopped, so no more presses land on what covers the surface") })
    }

    @Test func theJSONGainsAProbeKeyAndKeepsTheOthers() {
        let plain = Self.facts(.lift).report()
        let probed = Self.facts(.lift).report(probe: Self.dropsCancel, display: "wayland-1")
        #expect(!plain.json.contains("\"probe\""))
        #expect(probed.json.hasPrefix("{\"ok\":true,\"checks\":["))
        #expect(probed.json.hasSuffix(",\"probe\":{\"results\":[{\"cancelStyle\":\"lift\",\"received\":\"up\"},"
                                      + "{\"cancelStyle\":\"palm\",\"received\":\"nothing\"}],\"passesCancel\":false,"
                                      + "\"recommendedCancelStyle\":\"lift\",\"failure\":null}}\n"))
        #expect(probed.json.contains("\"clones\":[{\"device\":\"Panel\""))
    }
}

extension CancelProbeTests {
    /// The probe's frames are the forwarder's: a finger down at the middle; "lift" ends it with
    /// the lift alone, "palm" with the palm frame first (CloneEncoder's rules).
    @Test func theProbePressesAndEndsAsTheForwarderDoes() {
        func words(_ events: [RawEvent]) -> [String] {
            events.map { e in
                switch (e.type, e.code) {
                case (EventCode.EV_SYN, _): "SYN"
                case (EventCode.EV_KEY, EventCode.BTN_TOUCH): "BTN_TOUCH \(e.value)"
                case (EventCode.EV_ABS, EventCode.ABS_MT_SLOT): "SLOT \(e.value)"
                case (EventCode.EV_ABS, EventCode.ABS_MT_TOOL_TYPE): "TOOL \(e.value)"
                case (EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID): "ID \(e.value)"
                case (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_X): "X \(e.value)"
                case (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_Y): "Y \(e.value)"
                default: "\(e.type):\(e.code) \(e.value)"
                }
            }
        }
        let lift = CancelProbe.frames(.lift, trackingID: 7), palm = CancelProbe.frames(.palm, trackingID: 8)
        #expect(words(lift.press) == ["SLOT 0", "TOOL 0", "ID 7", "X 2048", "Y 2048", "BTN_TOUCH 1", "SYN"])
        #expect(words(lift.end) == ["SLOT 0", "ID -1", "BTN_TOUCH 0", "SYN"])
        #expect(words(palm.press) == ["SLOT 0", "TOOL 0", "ID 8", "X 2048", "Y 2048", "BTN_TOUCH 1", "SYN"])
        #expect(words(palm.end) == ["SLOT 0", "TOOL 2", "SYN", "SLOT 0", "ID -1", "BTN_TOUCH 0", "SYN"])
    }

    /// Runs a session the way CancelProbeRun does: `lines[k]` are the surface's lines after the
    /// k-th write (nil: its deadline passes after them). Returns every write and the result.
    static func run(_ lines: [[String]]) -> (writes: [[RawEvent]], result: CancelProbe.Result?) {
        var session = CancelProbe.Session()
        var step = session.start()
        var writes: [[RawEvent]] = []
        for batch in lines + [[]] {
            switch step {
            case .finish(let lift, let result):
                if !lift.isEmpty { writes.append(lift) }
                return (writes, result)
            case .write(let frames, _):
                writes.append(frames)
                var next: CancelProbe.Session.Step?
                for line in batch {
                    guard let parsed = CancelProbe.SurfaceLine(line[...]), next == nil else { continue }
                    next = session.feed(parsed)
                }
                step = next ?? session.deadlinePassed()
            }
        }
        return (writes, nil)
    }

    /// Issue #44 item 4: the surface misses the first press (something covers it, and the press
    /// went there): exactly one press is made, lifted at once, and the probe stops and says so.
    @Test func theProbeStopsAtTheFirstPressItsSurfaceMissed() throws {
        let (writes, result) = Self.run([["ready 1280 720"]])
        let lift = CancelProbe.frames(.lift, trackingID: 1)
        #expect(writes == [lift.press, lift.end])
        #expect(result == CancelProbe.Result(styles: [CancelProbe.StyleResult(style: .lift, received: nil)]))
        let report = Self.facts(.lift).report(probe: try #require(result), display: "wayland-0")
        #expect(report.checks.filter { $0.check == "probe" }.map(\.message) == [
            "cancelStyle \"lift\": the surface on the compositor at wayland-0 never received the probe's touch: it was lifted at once "
                + "and the probe stopped, so no more presses land on what covers the surface",
        ])
        #expect(!report.ok)
    }

    /// Both presses received: each style pressed and ended in turn, with its own tracking id.
    @Test func aSessionPressesEachStyleInTurn() {
        let (writes, result) = Self.run([["down 0 640.00 360.00", "frame"], ["up 0", "frame"],
                                         ["down 1 640.00 360.00", "frame"], ["motion 1 641.00 360.00"]])
        let lift = CancelProbe.frames(.lift, trackingID: 1), palm = CancelProbe.frames(.palm, trackingID: 2)
        #expect(writes == [lift.press, lift.end, palm.press, palm.end])
        #expect(result == Self.dropsCancel)
        // The second press missed: the first style's result stays, the second press is lifted.
        let (missed, partial) = Self.run([["down 0 640.00 360.00"], ["up 0"], ["frame"]])
        #expect(missed == [lift.press, lift.end, palm.press, CancelProbe.frames(.lift, trackingID: 2).end])
        #expect(partial?.styles == [CancelProbe.StyleResult(style: .lift, received: .up),
                                    CancelProbe.StyleResult(style: .palm, received: nil)])
    }
}
