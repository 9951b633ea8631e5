import Testing
@testable import GesturedCore

/// The one admission policy (DeviceAdmission) and the reload plan (ReloadPlan), as data: what
/// the daemon, `gestured replay` and `gestured devices` all decide, tested without a device.
struct DeviceAdmissionTests {
    static let panel = DeviceDescription(sysname: "event5", name: "ILITEK Multi-Touch", vendor: 0x222a, product: 0x0001,
                                         mtX: AxisInfo(minimum: 0, maximum: 4095, resolution: 16),
                                         mtY: AxisInfo(minimum: 0, maximum: 4095, resolution: 16), slotCount: 10,
                                         hasTrackingID: true)
    static let protocolA = DeviceDescription(sysname: "event6", name: "Old Panel", mtX: AxisInfo(minimum: 0, maximum: 999),
                                             mtY: AxisInfo(minimum: 0, maximum: 999))
    static let touchscreen = ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"]
    static let touchpad = ["ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1"]

    static func configuration(_ rules: [DeviceRule], screens: [ScreenSpec] = []) -> Configuration {
        var c = screens.isEmpty ? Configuration(screen: Size(width: 1280, height: 800), views: [ViewSpec(id: "root")])
                                : Configuration(screens: screens)
        c.devices = rules
        return c
    }

    @Test func udevDecidesWhetherTheNodeIsWorthOpening() {
        let rules = [DeviceRule]()
        func facts(_ name: String, _ syspath: String, _ properties: [String: String], initialized: Bool = true) -> DeviceAdmission.UdevFacts {
            DeviceAdmission.UdevFacts(name: name, syspath: syspath, properties: properties, isInitialized: initialized)
        }
        #expect(DeviceAdmission.considers(facts("p", "/sys/devices/usb/input5", Self.touchscreen), rules: rules) == nil)
        #expect(DeviceAdmission.considers(facts("p", "/sys/devices/usb/input5", [:], initialized: false), rules: rules) == .notProcessed)
        #expect(DeviceAdmission.considers(facts("ILITEK (gestured)", "/sys/devices/virtual/input/input9", Self.touchscreen),
                                          rules: rules) == .ownClone)
        #expect(DeviceAdmission.considers(facts("pad", "/sys/devices/usb/input7", Self.touchpad), rules: rules)
                == .notSelected(.touchpad))
        // A rule that adds devices makes every node worth a look (its match needs the description).
        #expect(DeviceAdmission.considers(facts("pad", "/sys/devices/usb/input7", Self.touchpad),
                                          rules: [DeviceRule(match: DeviceMatch(name: "pad"), add: true)]) == nil)
    }

    @Test func theRuleTheScreenAndTheCalibration() throws {
        let rules = [DeviceRule(match: DeviceMatch(name: "Nothing*"), ignore: true),
                     DeviceRule(match: DeviceMatch(name: "ILITEK*"), rotation: .quarter)]
        let admitted = try DeviceAdmission.admit(Self.panel, properties: Self.touchscreen.merging(["LIBINPUT_CALIBRATION_MATRIX": "1 0 0 0 1 0.5"]) { $1 },
                                                 configuration: Self.configuration(rules)).get()
        #expect(admitted.ruleIndex == 1 && admitted.rule?.rotation == .quarter && admitted.screen == 0)
        #expect(admitted.udevCalibration == [1, 0, 0, 0, 1, 0.5] && admitted.invalidUdevCalibration == nil)
        // The rule's calibration wins; an invalid udev matrix is reported, not used.
        let calibrated = [DeviceRule(match: DeviceMatch(name: "ILITEK*"), calibration: [1, 0, 0.1, 0, 1, 0])]
        let ruled = try DeviceAdmission.admit(Self.panel, properties: Self.touchscreen.merging(["LIBINPUT_CALIBRATION_MATRIX": "1 0 0"]) { $1 },
                                              configuration: Self.configuration(calibrated)).get()
        #expect(ruled.udevCalibration == nil && ruled.invalidUdevCalibration == nil)
        let invalid = try DeviceAdmission.admit(Self.panel, properties: Self.touchscreen.merging(["LIBINPUT_CALIBRATION_MATRIX": "1 0 0"]) { $1 },
                                                configuration: Self.configuration([])).get()
        #expect(invalid.udevCalibration == nil && invalid.invalidUdevCalibration == "1 0 0")
    }

    @Test func refusals() {
        let ignore = [DeviceRule(match: DeviceMatch(name: "ILITEK*"), ignore: true)]
        #expect(DeviceAdmission.admit(Self.panel, properties: Self.touchscreen, configuration: Self.configuration(ignore))
                == .failure(.ignoredByRule(0)))
        #expect(DeviceAdmission.admit(Self.panel, properties: Self.touchpad, configuration: Self.configuration([]))
                == .failure(.notSelected(.touchpad)))
        // Replay takes every recording's device, whatever its kind; rules still apply.
        #expect((try? DeviceAdmission.admit(Self.panel, properties: Self.touchpad, configuration: Self.configuration([]),
                                            selecting: false).get()) != nil)
        #expect(DeviceAdmission.admit(Self.panel, properties: Self.touchpad, configuration: Self.configuration(ignore), selecting: false)
                == .failure(.ignoredByRule(0)))
        let screens = [ScreenSpec(id: "front", size: Size(width: 800, height: 480), devices: .matching([DeviceMatch(name: "Other")]),
                                  views: [ViewSpec(id: "v")])]
        #expect(DeviceAdmission.admit(Self.panel, properties: Self.touchscreen, configuration: Self.configuration([], screens: screens))
                == .failure(.noScreen))
        #expect("\(DeviceAdmission.Refusal.ignoredByRule(0))" == "ignored (devices[0] says ignore)")
    }

    /// passThrough on a panel that cannot be cloned: read without grabbing, and why.
    @Test func passThroughOnlyForProtocolB() throws {
        let rules = [DeviceRule(match: DeviceMatch(), passThrough: true)]
        let b = try DeviceAdmission.admit(Self.panel, properties: Self.touchscreen, configuration: Self.configuration(rules)).get()
        #expect(b.rule?.passThrough == true && b.rule?.grab == true && b.passThroughRefused == nil)
        let a = try DeviceAdmission.admit(Self.protocolA, properties: Self.touchscreen, configuration: Self.configuration(rules)).get()
        #expect(a.rule?.passThrough == false && a.rule?.grab == false)
        #expect(a.passThroughRefused == "it speaks multitouch protocol A (no slots), and only protocol B devices can be cloned")
    }

    @Test func screenSizesComeFromTheConfigurationThePreviousScreenOrTheFirstDevice() throws {
        let screens = [ScreenSpec(id: "front", size: nil, devices: .matching([DeviceMatch(name: "ILITEK*")]), views: [ViewSpec(id: "a")]),
                       ScreenSpec(id: "back", size: nil, devices: .rest, views: [ViewSpec(id: "b")])]
        let c = Self.configuration([DeviceRule(match: DeviceMatch(name: "ILITEK*"), rotation: .quarter)], screens: screens)
        let admitted = try DeviceAdmission.admit(Self.panel, properties: Self.touchscreen, configuration: c).get()
        let sizes = GesturePipeline.sizes(for: c, devices: [(Self.panel, admitted)])
        // 4096 units at 16 units/mm is 256 mm, in points, turned a quarter: the panel's size.
        #expect(sizes[0] == DeviceGeometry.physicalScreen(x: Self.panel.mtX!, y: Self.panel.mtY!, rotation: .quarter))
        #expect(sizes[1] == ScreenSizing.fallback)
        let pipeline = try GesturePipeline(configuration: c, sizes: [Size(width: 100, height: 100), Size(width: 200, height: 200)])
        #expect(GesturePipeline.sizes(for: c, devices: [(Self.panel, admitted)], previous: pipeline.screens)
                == [Size(width: 100, height: 100), Size(width: 200, height: 200)])
    }

    @Test func theReloadPlanSaysWhatBecomesOfEachOpenDevice() throws {
        let before = Self.configuration([DeviceRule(match: DeviceMatch(name: "ILITEK*"), passThrough: true)])
        let pipeline = try GesturePipeline(configuration: before, sizes: [Size(width: 1280, height: 800)])
        let admitted = try DeviceAdmission.admit(Self.panel, properties: Self.touchscreen, configuration: before).get()
        let treatment = DeviceTreatment(admitted, screenID: nil, screenSize: Size(width: 1280, height: 800))
        let other = DeviceDescription(sysname: "event8", name: "Other Panel", mtX: AxisInfo(minimum: 0, maximum: 99),
                                      mtY: AxisInfo(minimum: 0, maximum: 99), slotCount: 2, hasTrackingID: true)
        let otherTreatment = DeviceTreatment(try DeviceAdmission.admit(other, properties: Self.touchscreen, configuration: before).get(),
                                             screenID: nil, screenSize: Size(width: 1280, height: 800))
        let open = [ReloadPlan<Int>.Open(key: 1, description: Self.panel, properties: Self.touchscreen, treatment: treatment),
                    ReloadPlan<Int>.Open(key: 2, description: other, properties: Self.touchscreen, treatment: otherTreatment)]
        func steps(_ rules: [DeviceRule]) -> [String] {
            ReloadPlan(open: open, fresh: Self.configuration(rules), current: pipeline.screens).steps.map { _, step in
                switch step {
                case .keep(let a): "keep on screen \(a.screen)"
                case .readd(let a, let changes): "re-add (\(changes.joined(separator: ", "))) with rule \(a.ruleIndex.map(String.init) ?? "none")"
                case .reopen(let changes): "reopen (\(changes.joined(separator: ", ")))"
                case .release(let refusal): "release: \(refusal)"
                }
            }
        }
        #expect(steps([DeviceRule(match: DeviceMatch(name: "ILITEK*"), passThrough: true)]) == ["keep on screen 0", "keep on screen 0"])
        let rotated = DeviceRule(match: DeviceMatch(name: "ILITEK*"), rotation: .half, passThrough: true)
        #expect(steps([rotated]) == ["re-add (rotation 0 → 180) with rule 0", "keep on screen 0"])
        #expect(steps([]) == ["reopen (grab released, passThrough off)", "keep on screen 0"])
        #expect(steps([DeviceRule(match: DeviceMatch(name: "Other*"), ignore: true), DeviceRule(match: DeviceMatch(name: "ILITEK*"), passThrough: true)])
                == ["keep on screen 0", "release: ignored (devices[0] says ignore)"])
        // A new cancelStyle alone re-adds nothing: it applies to the kept device.
        let lifting = DeviceRule(match: DeviceMatch(name: "ILITEK*"), passThrough: true, cancelStyle: .palm)
        let kept = ReloadPlan(open: open, fresh: Self.configuration([lifting]), current: pipeline.screens).steps[0].step
        #expect(kept.admitted?.rule?.cancelStyle == .palm)
        if case .keep = kept {} else { Issue.record("\(kept)") }
    }
}
