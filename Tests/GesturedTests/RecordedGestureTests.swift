import GesturedConfig
import GesturedCore
import Testing

/// What a person would name each recording, checked on the lines themselves (the golden files
/// pin the exact bytes; these say what matters in them).
struct RecordedGestureTests {
    static let taps = try! ConfigLoader.parse("""
        { views: [{ id: "root", gestures: [
          { id: "single", type: "tap", requireToFail: ["double"] },
          { id: "double", type: "tap", numberOfTapsRequired: 2 },
          { id: "twoFinger", type: "tap", numberOfTouchesRequired: 2, requireToFail: ["twoFingerDouble"] },
          { id: "twoFingerDouble", type: "tap", numberOfTouchesRequired: 2, numberOfTapsRequired: 2 },
        ] }] }
        """, file: "taps.json5")

    func gestures(_ name: String) throws -> [String] {
        let recording = try RealRecordings.named(name)
        return try recording.replay(configuration: Self.taps).map { line in
            line.split(separator: " ").prefix(4).joined(separator: " ")
        }
    }

    @Test func singleTapIsOneTap() throws {
        #expect(try gestures("Wacom ISDv4 E6 Finger.single-tap-center") == ["gesture tap ended single"])
        #expect(try gestures("eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller.tap") == ["gesture tap ended single"])
    }

    @Test func doubleTapIsOneDoubleTap() throws {
        #expect(try gestures("Wacom ISDv4 E6 Finger.double-tap-center") == ["gesture tap ended double"])
    }

    @Test func twoFingerTapIsOneTwoTouchTap() throws {
        let recording = try RealRecordings.named("Wacom ISDv4 E6 Finger.2fg-tap")
        let lines = try recording.replay(configuration: Self.taps)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("gesture tap ended twoFinger ") == true)
        #expect(lines.first?.contains(" touches=2 ") == true)
    }

    /// Despite its name, this recording holds a single two-finger tap: one frame puts both
    /// fingers down, two frames lift them (21 events in all). So the two-finger tap fires once
    /// the two-finger double tap's window has closed.
    @Test func theTwoFingerDoubleTapRecordingHoldsOneTwoFingerTap() throws {
        #expect(try gestures("Wacom ISDv4 E6 Finger.2fg-double-tap") == ["gesture tap ended twoFinger"])
    }
}

/// With the built-in configuration, what each real recording gives: the gestures that began or
/// ended, in order (the golden files pin every line). Where the data explains a surprise, the
/// comment says what the fingers did.
struct BuiltInConfigurationRecordingTests {
    func named(_ name: String) throws -> [String] {
        let recording = try RealRecordings.named(name)
        return try recording.replay().compactMap { line in
            let f = line.split(separator: " ")
            return f[2] == "changed" ? nil : "\(f[3]) \(f[2])"
        }
    }

    @Test(arguments: [
        ("Wacom ISDv4 E6 Finger.single-tap-center", ["tap ended"]),
        ("eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller.tap", ["tap ended"]),
        ("Wacom ISDv4 E6 Finger.double-tap-center", ["doubleTap ended"]),      // one finger, twice
        ("Wacom ISDv4 E6 Finger.2fg-tap", ["twoFingerTap ended"]),
        ("Wacom ISDv4 E6 Finger.2fg-double-tap", ["twoFingerTap ended"]),     // holds one two-finger tap
        ("Wacom Bamboo 16FG 4x5 Finger double-tap", ["twoFingerTap ended"]),  // "double" = two fingers
        ("Wacom Bamboo 16FG 4x5 Finger double-tap-center", ["twoFingerTap ended"]),
    ])
    func taps(recording: String, expected: [String]) throws {
        #expect(try named(recording) == expected)
    }

    @Test(arguments: [
        ("Wacom ISDv4 E6 Finger.single-top-swipe", ["pan began", "swipe ended", "pan ended"]),
        ("Wacom Bamboo 16FG 4x5 Finger single-top-swipe", ["pan began", "swipe ended", "pan ended"]),
        ("Wacom ISDv4 E6 Finger.double-top-swipe", ["pan began", "twoFingerSwipe ended", "pan ended"]),
        // The fingers rest 0.45 s before moving: the swipe's 0.5 s window closes first, and the
        // drag is a pan (with the two fingers' small turn and spread).
        ("Wacom Bamboo 16FG 4x5 Finger double-top-swipe",
         ["pan began", "rotation began", "pinch began", "pinch ended", "rotation ended", "pan ended"]),
    ])
    func swipes(recording: String, expected: [String]) throws {
        #expect(try named(recording) == expected)
    }

    @Test(arguments: [
        // Quick vertical scrolls: a pan, and a swipe at their straight, fast start.
        ("Wacom ISDv4 E6 Finger.single-center-scroll", ["pan began", "swipe ended", "pan ended"]),
        ("Wacom ISDv4 E6 Finger.double-center-scroll", ["pan began", "twoFingerSwipe ended", "pan ended"]),
        ("Wacom Bamboo 16FG 4x5 Finger single-center-scroll", ["pan began", "pan ended"]),
        ("Wacom Bamboo 16FG 4x5 Finger double-center-scroll", ["pan began", "pinch began", "pinch ended", "pan ended"]),
        ("Wacom ISDv4 E6 Finger.single-center-circle", ["pan began", "pan ended"]),
        ("Wacom ISDv4 E6 Finger.double-center-circle", ["pan began", "twoFingerSwipe ended", "pan ended"]),
        ("Wacom Bamboo 16FG 4x5 Finger double-center-circle",
         ["pan began", "pinch began", "rotation began", "pan ended", "pinch ended", "rotation ended"]),
        // The finger stays within 10 pt for the first 0.5 s (it leaves at 0.522 s): a long press,
        // which then reports the circle as its changes (UIKit's long press keeps the touch once
        // it has begun).
        ("Wacom Bamboo 16FG 4x5 Finger single-center-circle", ["longPress began", "longPress ended"]),
    ])
    func scrollsAndCircles(recording: String, expected: [String]) throws {
        #expect(try named(recording) == expected)
    }
}
