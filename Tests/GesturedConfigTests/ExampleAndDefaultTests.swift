import Testing
import GesturedConfig
import GesturedCore
import FoundationEssentials
import Glibc

/// The shipped files: the documented example and the embedded default must stay valid.
@Suite struct ExampleAndDefaultTests {
    /// `config/gestured.json5`, found from this file's path (Tests/GesturedConfigTests/…).
    static let examplePath: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return (parts + ["config", "gestured.json5"]).joined(separator: "/")
    }()

    @Test func exampleFileParses() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.examplePath), "cannot read \(Self.examplePath)")
        let configuration = try ConfigLoader.load([UInt8](bytes), file: Self.examplePath)
        #expect(configuration.screen == Size(width: 1280, height: 800))
        #expect(configuration.devices == [
            DeviceRule(match: DeviceMatch(name: "ILITEK*", sysname: "event*", vendor: 0x222a, product: 0x0001,
                                          type: .touchscreen, properties: ["ID_BUS": "usb"]),
                       rotation: .quarter, calibration: [1, 0, 0, 0, 1, 0], grab: false, ignore: false,
                       add: false, maximumTouches: 10),
            DeviceRule(match: DeviceMatch(name: "*Pen*"), ignore: true),
            DeviceRule(match: DeviceMatch(name: "*Finger*", type: .tablet), add: true),
        ])
        let root = try #require(configuration.views.first)
        #expect(root.id == "root" && root.frame == nil)
        #expect(root.subviews.map(\.id) == ["toolbar", "map", "overlay"])
        let button = root.subviews[0].subviews[0]
        #expect(button.frame == Rect(x: 8, y: 8, width: 48, height: 48))
        #expect(button.hitTestInsets == EdgeInsets(top: -20, left: -20, bottom: -20, right: -20))
        #expect(root.subviews[0].subviews[1].hitShape == .circle(center: Point(x: 28, y: 28), radius: 28))
        let map = root.subviews[1]
        #expect(map.gestures.map(\.id) == ["zoom", "spin", "drag"])
        #expect(map.gestures[0].recognizeSimultaneouslyWith == ["spin"])
        var pan = PanParameters()
        pan.maximumNumberOfTouches = 2
        #expect(map.gestures[2].kind == .pan(pan))
        let overlay = root.subviews[2]
        #expect(overlay.isHidden && overlay.alpha == 0.9)
        #expect(overlay.hitShape == .polygon([Point(x: 0, y: 400), Point(x: 300, y: 0), Point(x: 600, y: 400)]))
        var swipe = SwipeParameters()
        swipe.direction = [.left, .right]
        swipe.angleTolerance = 0.3926990817
        #expect(root.gestures[1].kind == .swipe(swipe))
        #expect(root.gestures[1].requireToFail == ["edgeBack"])
    }

    /// Every parameter key of every gesture type appears in the example, so it documents them all.
    @Test func exampleFileShowsEveryGestureParameter() throws {
        let text = try #require(String(validating: try readBytes(Self.examplePath), as: UTF8.self))
        var missing: [String] = []
        for key in ExpectedKeys.allGestureKeys where !text.contains("\(key):") { missing.append(key) }
        #expect(missing == [])
    }

    /// Every field of a device rule and of its match is a key the example shows and
    /// docs/CONFIG.md documents (read by reflection: a field added to the core without a key
    /// or a line of documentation fails here).
    @Test func everyDeviceKeyIsShownAndDocumented() throws {
        let example = try #require(String(validating: try readBytes(Self.examplePath), as: UTF8.self))
        let docsPath = Self.examplePath.replacingSuffix("config/gestured.json5", with: "docs/CONFIG.md")
        let docs = try #require(String(validating: try readBytes(docsPath), as: UTF8.self))
        let keys = ExpectedKeys.labels(DeviceRule()) + ExpectedKeys.labels(DeviceMatch())
        #expect(keys.filter { !example.contains("\($0):") } == [])
        #expect(keys.filter { !docs.contains("`\($0)`") } == [])
    }

    @Test func defaultConfigurationParses() throws {
        let configuration = try ConfigLoader.parse(ConfigLoader.defaultText, file: "default")
        #expect(configuration == ConfigLoader.defaultConfiguration())
        #expect(configuration.screen == nil && configuration.devices.isEmpty)
        #expect(configuration.views.count == 1)
        let root = configuration.views[0]
        #expect(root.id == "root" && root.frame == nil && root.subviews.isEmpty)

        var doubleTap = TapParameters(); doubleTap.numberOfTapsRequired = 2
        var twoFingerTap = TapParameters(); twoFingerTap.numberOfTouchesRequired = 2
        var swipe = SwipeParameters(); swipe.direction = [.left, .right, .up, .down]
        var twoFingerSwipe = swipe; twoFingerSwipe.numberOfTouchesRequired = 2
        #expect(root.gestures == [
            GestureSpec(id: "tap", kind: .tap(TapParameters()), requireToFail: ["doubleTap"]),
            GestureSpec(id: "doubleTap", kind: .tap(doubleTap)),
            GestureSpec(id: "twoFingerTap", kind: .tap(twoFingerTap)),
            GestureSpec(id: "longPress", kind: .longPress(LongPressParameters())),
            GestureSpec(id: "swipe", kind: .swipe(swipe)),
            GestureSpec(id: "twoFingerSwipe", kind: .swipe(twoFingerSwipe)),
            GestureSpec(id: "pan", kind: .pan(PanParameters()),
                        recognizeSimultaneouslyWith: ["swipe", "twoFingerSwipe", "pinch", "rotation"]),
            GestureSpec(id: "pinch", kind: .pinch(PinchParameters()), recognizeSimultaneouslyWith: ["rotation"]),
            GestureSpec(id: "rotation", kind: .rotation(RotationParameters())),
        ])
    }

    /// `config/default.json5`, which `make install` and the Debian package install as
    /// /etc/gestured/gestured.json5, means exactly the built-in configuration: a daemon started
    /// with it behaves as one started without `--config`. Its comments differ; its values may not.
    @Test func installedDefaultIsTheBuiltInConfiguration() throws {
        let path = Self.examplePath.replacingSuffix("config/gestured.json5", with: "config/default.json5")
        let installed = try ConfigLoader.load(try readBytes(path), file: path)
        #expect(installed == ConfigLoader.defaultConfiguration())
        // Not the example: that one grabs an ILITEK panel and rotates it.
        let example = try ConfigLoader.load(try readBytes(Self.examplePath), file: Self.examplePath)
        #expect(installed != example)
    }
}

/// The parameter keys each gesture type must accept: the field names of its parameters struct,
/// read by reflection so that a field added to the core without a config key fails a test.
enum ExpectedKeys {
    static let byType: [(type: String, keys: [String])] = [
        ("tap", labels(TapParameters())),
        ("swipe", labels(SwipeParameters())),
        ("pan", labels(PanParameters())),
        ("pinch", labels(PinchParameters())),
        ("rotation", labels(RotationParameters())),
        ("longPress", labels(LongPressParameters())),
        ("screenEdgePan", labels(ScreenEdgePanParameters())),
        ("stroke", labels(StrokeParameters())),
    ]

    static var allGestureKeys: Set<String> { Set(byType.flatMap(\.keys)) }

    static func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
}

/// The bytes of the file at `path` (the library's reader is internal).
func readBytes(_ path: String) throws -> [UInt8] {
    guard let file = fopen(path, "r") else { throw CannotRead() }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    while true {
        let c = fgetc(file)
        if c == EOF { return bytes }
        bytes.append(UInt8(c))
    }
}

struct CannotRead: Error {}

extension String {
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
