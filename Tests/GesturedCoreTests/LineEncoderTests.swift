import Testing
@testable import GesturedCore

/// The exact bytes of every line kind, in both encodings (protocol v1).
struct LineEncoderTests {
    /// An event whose label names two stroke templates (`.stroke(template: 1, …)` is `my s`).
    static func event(_ values: GestureValues, type: String, state: GestureState = .ended, touches: Int = 1) -> GestureEvent {
        GestureEvent(type: type, state: state, name: "g", view: "root", time: Instant(seconds: 1330495944, microseconds: 417034),
                     sample: GestureSample(touches: touches, location: Point(x: 512.25, y: 300.5), device: "event5", values: values),
                     viewLocation: Point(x: 12.25, y: 0.5), templates: ["check", "my s"])
    }

    @Test func hello() {
        #expect(LineEncoder.hello(format: .text) == "hello version=1 daemon=gestured\n")
        #expect(LineEncoder.hello(format: .json) == "{\"event\":\"hello\",\"version\":1,\"daemon\":\"gestured\"}\n")
    }

    @Test func contractExampleTap() {
        var e = Self.event(.tap(taps: 2), type: "tap")
        e.name = "double"
        e.viewLocation = e.sample.location
        #expect(LineEncoder.gesture(e, seq: 7, format: .text) ==
            "gesture tap ended double view=root device=event5 time=1330495944.417034 seq=7 touches=1 x=512.25 y=300.50 viewX=512.25 viewY=300.50 taps=2\n")
    }

    @Test func contractExamplePinchInJSON() {
        let e = GestureEvent(type: "pinch", state: .changed, name: "zoom", view: "map", time: Instant(seconds: 1330495945, microseconds: 102001),
                             sample: GestureSample(touches: 2, location: Point(x: 640, y: 400), device: "event5",
                                                   values: .pinch(scale: 1.375, velocity: 0.82)),
                             viewLocation: Point(x: 640, y: 400))
        #expect(LineEncoder.gesture(e, seq: 12, format: .json) ==
            "{\"event\":\"gesture\",\"type\":\"pinch\",\"state\":\"changed\",\"name\":\"zoom\",\"view\":\"map\",\"device\":\"event5\",\"time\":1330495945.102001,\"seq\":12,\"touches\":2,\"x\":640.00,\"y\":400.00,\"viewX\":640.00,\"viewY\":400.00,\"scale\":1.375,\"velocity\":0.82}\n")
    }

    static let common = "view=root device=event5 time=1330495944.417034 seq=3 touches=1 x=512.25 y=300.50 viewX=12.25 viewY=0.50"
    static let commonJSON = "\"view\":\"root\",\"device\":\"event5\",\"time\":1330495944.417034,\"seq\":3,\"touches\":1,\"x\":512.25,\"y\":300.50,\"viewX\":12.25,\"viewY\":0.50"

    @Test(arguments: [
        (GestureValues.swipe(direction: .left), "swipe", "direction=left", "\"direction\":\"left\""),
        (.pan(translation: Vector(dx: 10.5, dy: -3), velocity: Vector(dx: 250, dy: -0.004)), "pan",
         "translationX=10.50 translationY=-3.00 velocityX=250.00 velocityY=0.00",
         "\"translationX\":10.50,\"translationY\":-3.00,\"velocityX\":250.00,\"velocityY\":0.00"),
        (.screenEdgePan(translation: Vector(dx: 30, dy: 0), velocity: Vector(dx: 100, dy: 0), edge: .left), "screenEdgePan",
         "translationX=30.00 translationY=0.00 velocityX=100.00 velocityY=0.00 edge=left",
         "\"translationX\":30.00,\"translationY\":0.00,\"velocityX\":100.00,\"velocityY\":0.00,\"edge\":\"left\""),
        (.pinch(scale: 0.9996, velocity: -1.25), "pinch", "scale=1.000 velocity=-1.25", "\"scale\":1.000,\"velocity\":-1.25"),
        (.rotation(rotation: -1.5707963, velocity: 3.14159), "rotation", "rotation=-1.5708 velocity=3.14",
         "\"rotation\":-1.5708,\"velocity\":3.14"),
        (.longPress(duration: Interval(microseconds: 512_345)), "longPress", "duration=0.512", "\"duration\":0.512"),
        (.stroke(template: 1, score: 0.98765), "stroke", "stroke=\"my s\" score=0.988", "\"stroke\":\"my s\",\"score\":0.988"),
    ])
    func everyGestureType(values: GestureValues, type: String, text: String, json: String) {
        let e = Self.event(values, type: type, state: .changed)
        #expect(LineEncoder.gesture(e, seq: 3, format: .text) == "gesture \(type) changed g \(Self.common) \(text)\n")
        #expect(LineEncoder.gesture(e, seq: 3, format: .json) ==
            "{\"event\":\"gesture\",\"type\":\"\(type)\",\"state\":\"changed\",\"name\":\"g\",\(Self.commonJSON),\(json)}\n")
    }

    @Test func failedAndCancelledCarryNoValues() {
        let e = Self.event(.none, type: "pan", state: .cancelled)
        #expect(LineEncoder.gesture(e, seq: 3, format: .text) == "gesture pan cancelled g \(Self.common)\n")
    }

    @Test func touchLines() {
        let t = TouchEvent(update: TouchUpdate(id: TouchID(42), phase: .moved, location: Point(x: 1, y: 2.345), device: "event5", slot: 3),
                           view: "button", time: Instant(microseconds: 5_000_001))
        #expect(LineEncoder.touch(t, seq: 9, format: .text) ==
            "touch moved 42 view=button device=event5 slot=3 x=1.00 y=2.35 time=5.000001 seq=9\n")
        #expect(LineEncoder.touch(t, seq: 9, format: .json) ==
            "{\"event\":\"touch\",\"phase\":\"moved\",\"id\":42,\"view\":\"button\",\"device\":\"event5\",\"slot\":3,\"x\":1.00,\"y\":2.35,\"time\":5.000001,\"seq\":9}\n")
        var outside = t
        outside.view = nil
        #expect(LineEncoder.touch(outside, seq: 9, format: .text).contains(" view=\"\" "))
    }

    @Test func deviceLines() {
        #expect(LineEncoder.device(added: true, sysname: "event5", name: "ILITEK Multi-Touch", seq: 1, format: .text) ==
            "device added event5 name=\"ILITEK Multi-Touch\" seq=1\n")
        #expect(LineEncoder.device(added: false, sysname: "event5", name: "a \"quoted\" \\ name", seq: 2, format: .json) ==
            "{\"event\":\"device\",\"action\":\"removed\",\"sysname\":\"event5\",\"name\":\"a \\\"quoted\\\" \\\\ name\",\"seq\":2}\n")
    }

    @Test func quotingInText() {
        #expect(LineEncoder.textString("plain-id_1") == "plain-id_1")
        #expect(LineEncoder.textString("two words") == "\"two words\"")
        #expect(LineEncoder.textString("a=b") == "\"a=b\"")
        #expect(LineEncoder.textString("") == "\"\"")
        #expect(LineEncoder.textString("tab\there \"q\"") == "\"tab\\there \\\"q\\\"\"")
    }

    @Test(arguments: [
        (0.0, 2, "0.00"), (-0.0, 2, "0.00"), (-0.004, 2, "0.00"), (-0.005, 2, "-0.01"), (0.005, 2, "0.01"),
        (1.375, 3, "1.375"), (123456.789, 2, "123456.79"), (-2.5, 0, "-3"), (Double.nan, 2, "0.00"), (1e300, 2, "9e18"),
        // Halves round away from zero; just below a half does not (floor(x + 0.5) gets it wrong).
        (0.125, 2, "0.13"), (-0.125, 2, "-0.13"), (2.5, 0, "3"), (0.49999999999999994, 0, "0"),
        (4503599627370495.5, 0, "4503599627370496"), (8.999999999999998e18, 0, "8999999999999997952"),
    ])
    func fixedDecimals(value: Double, decimals: Int, expected: String) {
        #expect(LineEncoder.fixed(value, decimals: decimals) == expected)
    }

    @Test func instantsPrintSixDecimals() {
        #expect(Instant(microseconds: 0).description == "0.000000")
        #expect(Instant(microseconds: 1_000_000).description == "1.000000")
        #expect(Instant(microseconds: 1330495944_017034).description == "1330495944.017034")
        #expect(Instant(microseconds: -1_500_000).description == "-1.500000")
    }
}
