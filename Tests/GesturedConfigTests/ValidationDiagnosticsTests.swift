import Testing
import GesturedConfig
import GesturedCore

/// Well-formed JSON5 that is not a valid configuration: every problem, each at its key path.
@Suite struct ValidationDiagnosticsTests {
    @Test func wrongType() {
        #expect(diagnostics("""
            {
              views: [{ id: "root", alpha: "0.5", isHidden: 1 }],
            }
            """) == [
                "test.json5:2:32: views[0].alpha: expected a number, found a string; did you mean 0.5 (no quotes)?",
                "test.json5:2:49: views[0].isHidden: expected a boolean, found a number",
            ])
    }

    @Test func unknownKeyWithSuggestion() {
        #expect(diagnostics("""
            {
              views: [{
                id: "root",
                gestures: [{ id: "t", type: "tap", numberOfTapRequired: 2 }],
              }],
            }
            """) == [
                #"test.json5:4:40: views[0].gestures[0].numberOfTapRequired: unknown key "numberOfTapRequired"; did you mean "numberOfTapsRequired"?"#,
            ])
    }

    @Test func unknownKeyWithoutSuggestion() {
        #expect(diagnostics("{ views: [], colour: 'red' }")
                == [#"test.json5:1:14: colour: unknown key "colour""#])
    }

    @Test func parameterOfAnotherGestureType() {
        #expect(diagnostics("{ views: [{ id: 'v', gestures: [{ id: 'g', type: 'tap', direction: ['left'] }] }] }")
                == [#"test.json5:1:57: views[0].gestures[0].direction: unknown key "direction" for type "tap" (only swipe takes it)"#])
    }

    @Test func parameterOfSeveralOtherGestureTypes() {
        #expect(diagnostics("{ views: [{ id: 'v', gestures: [{ id: 'g', type: 'pan', numberOfTouchesRequired: 2 }] }] }")
                == [#"test.json5:1:57: views[0].gestures[0].numberOfTouchesRequired: unknown key "numberOfTouchesRequired" for type "pan" (only tap, swipe, longPress and stroke take it)"#])
    }

    @Test func angleToleranceBeyondAQuarterTurn() {
        #expect(diagnostics("{ views: [{ id: 'v', gestures: [{ id: 's', type: 'swipe', angleTolerance: 1 }] }] }")
                == ["test.json5:1:75: views[0].gestures[0].angleTolerance: must be between 0 and π/4 (0.785398), found 1"])
    }

    @Test func unknownGestureType() {
        #expect(diagnostics("""
            { views: [{ id: "v", gestures: [
                { id: "a", type: "tapp" },
                { id: "b", type: "wiggle", wiggliness: 3 },
            ] }] }
            """) == [
                #"test.json5:2:22: views[0].gestures[0].type: unknown gesture type "tapp"; did you mean "tap"?"#,
                #"test.json5:3:22: views[0].gestures[1].type: unknown gesture type "wiggle"; expected one of tap, swipe, pan, pinch, rotation, longPress, screenEdgePan, stroke"#,
                #"test.json5:3:32: views[0].gestures[1].wiggliness: unknown key "wiggliness""#,
            ])
    }

    @Test func missingRequiredKeys() {
        #expect(diagnostics("{ views: [{ gestures: [{ type: 'pan' }, { id: 'e', type: 'screenEdgePan' }] }] }") == [
            #"test.json5:1:11: views[0]: missing required key "id""#,
            #"test.json5:1:24: views[0].gestures[0]: missing required key "id""#,
            #"test.json5:1:41: views[0].gestures[1]: missing required key "edges""#,
        ])
    }

    @Test func badRotation() {
        #expect(diagnostics("{ devices: [{ match: { name: 'ILITEK*' }, rotation: 45 }] }")
                == ["test.json5:1:53: devices[0].rotation: must be 0, 90, 180 or 270 (degrees clockwise), found 45"])
    }

    @Test func calibrationOfFiveNumbers() {
        #expect(diagnostics("{ devices: [{ calibration: [1, 0, 0, 0, 1] }] }")
                == ["test.json5:1:28: devices[0].calibration: expected exactly 6 numbers [a, b, c, d, e, f], found 5"])
    }

    @Test func calibrationMustBeFinite() {
        #expect(diagnostics("{ devices: [{ calibration: [1, 0, NaN, 0, 1, 0] }] }")
                == ["test.json5:1:35: devices[0].calibration[2]: expected a finite number, found NaN"])
    }

    @Test func deviceMatchKeysAreChecked() {
        #expect(diagnostics("{ devices: [{ match: { vendor: 0x10000, product: -1, type: 'pen', properties: { ID_BUS: 3 } }, maximumTouches: 0 }] }") == [
            "test.json5:1:32: devices[0].match.vendor: must be at most 65535 (0xffff), found 65536",
            "test.json5:1:50: devices[0].match.product: must be at least 0, found -1",
            "test.json5:1:60: devices[0].match.type: must be one of touchscreen, touchpad, tablet, other, found \"pen\"",
            "test.json5:1:89: devices[0].match.properties.ID_BUS: expected a string, found a number; did you mean \"3\"?",
            "test.json5:1:112: devices[0].maximumTouches: must be at least 1, found 0",
        ])
    }

    @Test func deviceMatchKeysAreRead() throws {
        let configuration = try #require(parsed("{ devices: [{ match: { vendor: 0x0eef, type: 'touchpad', properties: { ID_PATH: 'pci-*' } }, add: true, maximumTouches: 2 }] }"))
        #expect(configuration.devices == [DeviceRule(match: DeviceMatch(vendor: 0x0eef, type: .touchpad, properties: ["ID_PATH": "pci-*"]),
                                                     add: true, maximumTouches: 2)])
    }

    @Test func alphaOutOfRange() {
        #expect(diagnostics("{ views: [{ id: 'v', alpha: 1.5 }] }")
                == ["test.json5:1:29: views[0].alpha: must be between 0 and 1, found 1.5"])
    }

    @Test func frameArrayOfThreeNumbers() {
        #expect(diagnostics("{ views: [{ id: 'v', frame: [0, 0, 100] }] }")
                == ["test.json5:1:29: views[0].frame: expected 4 numbers [x, y, width, height], found 3"])
    }

    @Test func negativeFrameWidth() {
        #expect(diagnostics("{ views: [{ id: 'v', frame: { width: -1, height: 5 } }] }")
                == ["test.json5:1:38: views[0].frame.width: must be at least 0, found -1"])
    }

    @Test func maximumTouchesBelowMinimum() {
        #expect(diagnostics("""
            { views: [{ id: "v", gestures: [
                { id: "drag", type: "pan", minimumNumberOfTouches: 2, maximumNumberOfTouches: 1 },
            ] }] }
            """) == ["test.json5:2:83: views[0].gestures[0].maximumNumberOfTouches: must be at least minimumNumberOfTouches (2), found 1"])
    }

    @Test func countsAndDurations() {
        #expect(diagnostics("""
            { views: [{ id: "v", gestures: [
                { id: "a", type: "tap", numberOfTapsRequired: 0, numberOfTouchesRequired: 1.5 },
                { id: "b", type: "longPress", numberOfTapsRequired: 0, minimumPressDuration: -0.1 },
                { id: "c", type: "swipe", direction: [], maximumDuration: Infinity },
                { id: "d", type: "screenEdgePan", edges: ["left", "rigth"] },
            ] }] }
            """) == [
                "test.json5:2:51: views[0].gestures[0].numberOfTapsRequired: must be at least 1, found 0",
                "test.json5:2:79: views[0].gestures[0].numberOfTouchesRequired: expected an integer, found 1.5",
                "test.json5:3:82: views[0].gestures[1].minimumPressDuration: must be between 0 and 86400, found -0.1",
                "test.json5:4:42: views[0].gestures[2].direction: must not be empty",
                "test.json5:4:63: views[0].gestures[2].maximumDuration: expected a finite number, found Infinity",
                #"test.json5:5:55: views[0].gestures[3].edges[1]: unknown edge "rigth"; did you mean "right"?"#,
            ])
    }

    @Test func hitShapes() {
        #expect(diagnostics("""
            { views: [
                { id: "a", hitShape: { polygon: [[0, 0], [1, 1]] } },
                { id: "b", hitShape: { circle: { x: 0, y: 0, radius: 5 }, polygon: [] } },
                { id: "c", hitShape: { circle: { x: 0, radius: 5 } } },
            ] }
            """) == [
                "test.json5:2:37: views[0].hitShape.polygon: a polygon needs at least 3 points, found 2",
                #"test.json5:3:26: views[1].hitShape: needs only one of "circle" and "polygon""#,
                #"test.json5:4:36: views[2].hitShape.circle: missing required key "y""#,
            ])
    }

    @Test func duplicateKey() {
        #expect(diagnostics("{ views: [{ id: 'a', alpha: 0.5, alpha: 1 }] }")
                == [#"test.json5:1:34: views[0].alpha: duplicate key "alpha" (first at 1:22)"#])
    }

    @Test func rootMustBeAnObject() {
        #expect(diagnostics("[1, 2]") == ["test.json5:1:1: expected an object, found an array"])
    }

    @Test func everyProblemIsReportedInOrderOfPosition() {
        // Found in different passes (reading, then cross-checks), reported by position.
        #expect(diagnostics("""
            { views: [
                { id: "v", gestures: [{ id: "g", type: "tap", requireToFail: ["x"] }] },
                { id: "v", alpha: 2 },
            ] }
            """) == [
                #"test.json5:2:67: views[0].gestures[0].requireToFail[0]: no gesture has the id "x""#,
                #"test.json5:3:11: views[1].id: duplicate view id "v" (first used at 2:11)"#,
                "test.json5:3:23: views[1].alpha: must be between 0 and 1, found 2",
            ])
    }

    @Test func diagnosticsAreBounded() {
        let views = (0..<80).map { "{ id: 'v\($0)', alpha: 9 }" }.joined(separator: ",\n")
        let lines = diagnostics("{ views: [\n\(views)\n] }")
        #expect(lines.count == ConfigLoader.maximumDiagnostics + 1)
        #expect(lines.last == "test.json5:52:21: too many errors; 30 more not shown")
    }
}
