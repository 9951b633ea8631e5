import Testing
import GesturedConfig
import GesturedCore

/// `action: { input: … }` (CONTRACT.md §7): what each form becomes, the device it asks for, and
/// every diagnostic, located.
@Suite struct InputActionConfigTests {
    /// One view with `gestures`, on a 800×480 screen.
    static func config(_ gestures: String) -> String {
        #"{ screen: { width: 800, height: 480 }, views: [{ id: "v", gestures: [\#(gestures)] }] }"#
    }

    @Test func eachForm() throws {
        let specs = gestures(Self.config("""
            { id: "k", type: "swipe", action: { input: { key: "alt+Home" } } },
            { id: "c", type: "longPress", action: { on: "began", input: { click: "right", pointerAfter: "aside" } } },
            { id: "m", type: "tap", action: { input: { click: "middle", at: [10, 20] } } },
            { id: "s", type: "pan", action: { input: { scroll: "both", direction: "reversed", pointsPerDetent: 30 } } },
            { id: "e", type: "screenEdgePan", edges: "left", action: { input: { scroll: "vertical" } } },
            """))
        #expect(specs.map(\.action) == [
            GestureAction(input: InputAction(.key([56, 102]))),
            GestureAction(state: .began, input: InputAction(.click(.right, at: nil), pointerAfter: .aside)),
            GestureAction(input: InputAction(.click(.middle, at: Point(x: 10, y: 20)))),
            GestureAction(input: InputAction(.scroll(.both, .reversed), pointsPerDetent: 30)),
            GestureAction(input: InputAction(.scroll(.vertical, .natural))),
        ])
    }

    /// Key names ignore case and take `KEY_`, the modifier aliases and the kernel's own names.
    @Test func chordNames() throws {
        let specs = gestures(Self.config("""
            { id: "a", type: "tap", action: { input: { key: "Ctrl+Shift+T" } } },
            { id: "b", type: "tap", action: { input: { key: "super + KEY_PAGEDOWN" } } },
            """))
        #expect(specs.map { $0.action?.input?.kind } == [.key([29, 42, 20]), .key([125, 109])])
        #expect(diagnostics(Self.config(#"{ id: "c", type: "tap", action: { input: { key: "leftmeta+logo" } } }"#))
                == [#"test.json5:1:118: views[0].gestures[0].action.input.key: key "logo" appears twice in "leftmeta+logo""#])
    }

    @Test func unknownKeyIsLocatedWithASuggestion() {
        #expect(diagnostics(Self.config("""
            { id: "a", type: "tap",
              action: { input: { key: "ctrl+Hom" } } }
            """)) == [
            #"test.json5:2:27: views[0].gestures[0].action.input.key: unknown key "Hom"; did you mean "home"? (key names are linux/input-event-codes.h's KEY_* names)"#,
        ])
        #expect(diagnostics(Self.config(#"{ id: "a", type: "tap", action: { input: { key: "ctrl+" } } }"#))
                == [#"test.json5:1:118: views[0].gestures[0].action.input.key: a key name is missing in "ctrl+""#])
    }

    /// A scroll needs a translation; it follows the whole gesture (no `on`); a key on `changed`
    /// would repeat every frame; `run` and `input` exclude each other; text is refused with why.
    @Test func misuses() {
        #expect(diagnostics(Self.config("""
            { id: "a", type: "longPress", action: { input: { scroll: "vertical" } } },
            { id: "b", type: "pan", action: { on: "ended", input: { scroll: "vertical" } } },
            { id: "c", type: "pan", action: { on: "changed", input: { key: "a" } } },
            { id: "d", type: "tap", action: { run: ["/bin/true"], input: { key: "a" } } },
            { id: "e", type: "tap", action: { input: { text: "hello" } } },
            { id: "f", type: "tap", action: { input: { click: "left", scroll: "vertical" } } },
            { id: "g", type: "tap", action: { input: { clik: "left" } } },
            { id: "h", type: "tap", action: { input: { click: "rigth" } } },
            { id: "i", type: "tap", action: { input: { key: "a", at: [1, 2] } } },
            """)).map { String($0.drop { $0 != " " }.dropFirst()) } == [
            "views[0].gestures[0].action.input.scroll: scroll needs a gesture with a translation (pan or screenEdgePan), not longPress",
            #"views[0].gestures[1].action.on: a scroll follows its gesture from began to its end; remove "on""#,
            #"views[0].gestures[2].action.on: input on "changed" would be sent at every frame; use began or ended"#,
            "views[0].gestures[3].action.run: an action takes run or input, not both; run applies to run",
            #"views[0].gestures[4].action.input.text: text cannot be sent: a virtual keyboard sends key codes, and the characters they type depend on the compositor's keyboard layout; send keys instead (key: "ctrl+v")"#,
            "views[0].gestures[5].action.input: takes one of key, click or scroll, found click and scroll",
            "views[0].gestures[6].action.input: expected one of key, click or scroll",
            #"views[0].gestures[6].action.input.clik: unknown key "clik"; did you mean "click"?"#,
            #"views[0].gestures[7].action.input.click: must be one of left, right, middle, found "rigth"; did you mean "right"?"#,
            "views[0].gestures[8].action.input.at: applies to click and scroll only",
        ])
    }

    /// The wake action runs a command only: `input` is an unknown key there.
    @Test func wakeActionTakesNoInput() {
        #expect(diagnostics(#"{ power: { wakeAction: { input: { key: "a" } } } }"#).count == 2)
    }

    /// The device: exactly the keys named, the buttons clicked plus `BTN_LEFT` for a pointer,
    /// the wheels scrolled; none at all without an input action.
    @Test func capabilities() throws {
        let configuration = try #require(parsed(Self.config("""
            { id: "k", type: "swipe", action: { input: { key: "alt+Home" } } },
            { id: "k2", type: "tap", action: { input: { key: "alt+f4" } } },
            { id: "c", type: "longPress", action: { on: "began", input: { click: "right" } } },
            { id: "s", type: "pan", action: { input: { scroll: "horizontal" } } },
            """)))
        var expected = InputCapabilities()
        expected.keys = [56, 62, 102]
        expected.buttons = [0x110, 0x111]
        expected.pointer = true
        expected.horizontalWheel = true
        #expect(configuration.inputCapabilities == expected)

        let keysOnly = try #require(parsed(Self.config(#"{ id: "k", type: "tap", action: { input: { key: "f5" } } }"#)))
        var keys = InputCapabilities()
        keys.keys = [63]
        #expect(keysOnly.inputCapabilities == keys)

        let commands = try #require(parsed(Self.config(#"{ id: "k", type: "tap", action: { run: ["/bin/true"] } }"#)))
        #expect(commands.inputCapabilities == nil)
    }
}
