import GesturedConfig
import GesturedCore
import Testing

/// What a person would name each recording, checked on the lines themselves (the golden files
/// pin the exact bytes; these say what matters in them).
@Suite(.enabled(if: RealRecordings.directory != nil, "../shared/fixtures/evemu-devices is absent"))
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
        let recording = try #require(RealRecordings.all.first { $0.name == name })
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
        let recording = try #require(RealRecordings.all.first { $0.name == "Wacom ISDv4 E6 Finger.2fg-tap" })
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
