import Testing
import GesturedConfig
import GesturedCore

/// Valid input: what each key becomes, and what omitted keys default to.
@Suite struct ParsingTests {
    @Test func omittedKeysTakeTheModelDefaults() throws {
        let configuration = try #require(parsed("""
            {
              devices: [{}],
              views: [{ id: "v", gestures: [
                { id: "t", type: "tap" }, { id: "s", type: "swipe" }, { id: "p", type: "pan" },
                { id: "l", type: "longPress" }, { id: "e", type: "screenEdgePan", edges: "top" },
              ] }],
            }
            """))
        #expect(configuration.screen == nil)
        #expect(configuration.devices == [DeviceRule()])
        let view = configuration.views[0]
        #expect(view == ViewSpec(id: "v", gestures: view.gestures))
        var edge = ScreenEdgePanParameters(); edge.edges = [.top]
        #expect(view.gestures.map(\.kind) == [
            .tap(TapParameters()), .swipe(SwipeParameters()), .pan(PanParameters()),
            .longPress(LongPressParameters()), .screenEdgePan(edge),
        ])
    }

    @Test func emptyDocumentHasNoViews() throws {
        #expect(parsed("{}") == Configuration())
    }

    @Test func frameInBothForms() throws {
        let views = parsed("""
            { views: [
                { id: "a", frame: { x: 10, y: 20, width: 300, height: 40 } },
                { id: "b", frame: [10, 20, 300, 40] },
                { id: "c", frame: { width: 5, height: 6 } },
                { id: "d" },
                { id: "e", frame: null },
            ] }
            """)?.views ?? []
        #expect(views.map(\.frame) == [
            Rect(x: 10, y: 20, width: 300, height: 40), Rect(x: 10, y: 20, width: 300, height: 40),
            Rect(x: 0, y: 0, width: 5, height: 6), nil, nil,
        ])
    }

    @Test func parametersAreRead() throws {
        let specs = gestures("""
            { views: [{ id: "v", gestures: [
                { id: "t", type: "tap", numberOfTapsRequired: 3, maximumTapInterval: 0.25, movementSlop: 4 },
                { id: "l", type: "longPress", minimumPressDuration: 1.2, numberOfTapsRequired: 1 },
                { id: "p", type: "pan", minimumNumberOfTouches: 2, maximumNumberOfTouches: null },
            ] }] }
            """)
        var tap = TapParameters()
        tap.numberOfTapsRequired = 3; tap.maximumTapInterval = Interval(microseconds: 250_000); tap.movementSlop = 4
        var longPress = LongPressParameters()
        longPress.minimumPressDuration = Interval(microseconds: 1_200_000); longPress.numberOfTapsRequired = 1
        var pan = PanParameters(); pan.minimumNumberOfTouches = 2
        #expect(specs.map(\.kind) == [.tap(tap), .longPress(longPress), .pan(pan)])
    }

    @Test func json5Features() throws {
        let configuration = try #require(parsed("""
            // a line comment
            {
              /* a block
                 comment */
              screen: { 'width': 0x500, "height": +800., },   // hex, quotes, plus, trailing point
              views: [
                { id: 'it\\'s', alpha: .5, frame: [-.5, 1e1, 0X10, 2E+1,], },
              ],
            }
            """))
        #expect(configuration.screen == Size(width: 1280, height: 800))
        #expect(configuration.views[0].id == "it's")
        #expect(configuration.views[0].alpha == 0.5)
        #expect(configuration.views[0].frame == Rect(x: -0.5, y: 10, width: 16, height: 20))
    }

    @Test func byteOrderMarkAndCRLFAreAccepted() throws {
        #expect(diagnostics("\u{FEFF}{\r\n  views: [{ id: 'v', alpha: 2 }],\r\n}")
                == ["test.json5:2:29: views[0].alpha: must be between 0 and 1, found 2"])
    }

    @Test func hitShapeAndInsets() throws {
        let views = parsed("""
            { views: [
                { id: "a", hitTestInsets: { left: -8 }, hitShape: { polygon: [{ x: 0, y: 0 }, [4, 0], [0, 4]] } },
            ] }
            """)?.views ?? []
        #expect(views.first?.hitTestInsets == EdgeInsets(left: -8))
        #expect(views.first?.hitShape == .polygon([Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 0, y: 4)]))
    }

    @Test func singleStringDirection() throws {
        var swipe = SwipeParameters(); swipe.direction = [.up]
        #expect(gestures("{ views: [{ id: 'v', gestures: [{ id: 's', type: 'swipe', direction: 'up' }] }] }")
                .map(\.kind) == [.swipe(swipe)])
    }

    /// The config keys of each gesture type are exactly the fields of its parameters struct.
    @Test(arguments: ExpectedKeys.byType.map(\.type))
    func gestureKeysMatchTheParameterStructs(type: String) throws {
        let keys = try #require(ExpectedKeys.byType.first { $0.type == type }?.keys)
        var text = "{ views: [{ id: 'v', gestures: [{ id: 'g', type: '\(type)'"
        for key in keys { text += ", \(key): \(sampleValue(for: key))" }
        text += ", notAParameter: 1 }] }] }"
        // Every field is accepted; only the extra key is refused.
        #expect(diagnostics(text).map { $0.contains("unknown key") } == [true])
    }

    private func sampleValue(for key: String) -> String {
        switch key {
        case "direction": "['up']"
        case "edges": "['left']"
        case "angleTolerance": "0.5"
        case "templates": "['circle']"
        case "orientationSensitive": "false"
        case "minimumScore": "0.5"
        default: "1"
        }
    }
}

/// Loading a file's bytes (the executable reads the file: Tests/GesturedTests/CommandLineTests
/// checks what an unreadable one gives).
@Suite struct LoadTests {
    @Test func unreadableHasNoPosition() {
        #expect(ConfigLoader.unreadable(file: "/x.json5", message: "cannot open: No such file or directory").description
                == "/x.json5: cannot open: No such file or directory")
    }

    @Test func invalidUTF8IsLocated() throws {
        let bytes = Array("{\n  views: [{ id: 'caf".utf8) + [0xE9] + Array("' }],\n}".utf8)
        #expect(throws: ConfigError(diagnostics: [ConfigDiagnostic(
            file: "f.json5", line: 2, column: 21, keyPath: "", message: "invalid UTF-8")])) {
            try ConfigLoader.load(bytes, file: "f.json5")
        }
    }

    @Test func validFileLoads() throws {
        #expect(try ConfigLoader.load(Array("{ views: [{ id: 'v' }] }".utf8), file: "f.json5")
                == Configuration(views: [ViewSpec(id: "v")]))
    }

    @Test func descriptionFormat() {
        let located = ConfigDiagnostic(file: "f.json5", line: 3, column: 9, keyPath: "views[0].alpha", message: "m")
        let root = ConfigDiagnostic(file: "f.json5", line: 1, column: 1, keyPath: "", message: "m")
        #expect(located.description == "f.json5:3:9: views[0].alpha: m")
        #expect(root.description == "f.json5:1:1: m")
        #expect(ConfigError(diagnostics: [located, root]).description == "f.json5:3:9: views[0].alpha: m\nf.json5:1:1: m")
    }
}
