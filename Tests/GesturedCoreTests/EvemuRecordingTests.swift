import FoundationEssentials
import GesturedCore
import GesturedEvemu
import GesturedSynthetic
import GesturedTestSupport
import Testing

@Suite struct EvemuRecordingTests {
    static let isdv4 = """
        # EVEMU 1.2
        # Input device name: "Wacom ISDv4 E6 Finger"
        N: Wacom ISDv4 E6 Finger
        I: 0003 056a 00e6 0139
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 e0 02
        A: 00 0 2776 4 0 0
        A: 01 0 1569 4 0 0
        A: 2f 0 1 0 0 0
        A: 35 0 2776 0 0 12
        A: 36 0 1569 0 0 12
        A: 39 0 65535 0 0 0
        E: 1330495931.101111 0003 0039 0
        E: 1330495931.101114 0003 0035 1269
        E: 1330495931.101120 0001 014a 1
        E: 1330495931.101135 0000 0000 0
        E: 1330495931.125108 0003 0039 -1
        E: 1330495931.125122 0000 0000 0

        """

    @Test func descriptionFields() throws {
        let recording = try EvemuRecording.parse(Self.isdv4, sysname: "event3")
        let description = try #require(recording.description)
        #expect(description.name == "Wacom ISDv4 E6 Finger")
        #expect(description.bustype == 0x03)
        #expect(description.vendor == 0x56a)
        #expect(description.product == 0xe6)
        #expect(description.version == 0x139)
        #expect(description.properties == [2, 0, 0, 0, 0, 0, 0, 0])
        // Six `B: 01` lines of 8 bytes each are one 48-byte mask.
        #expect(description.bits[1]?.count == 48)
        #expect(description.bits[3] == [0x03, 0, 0, 0, 0, 0x80, 0xe0, 0x02])
        #expect(description.axes[0x35] == AxisInfo(minimum: 0, maximum: 2776, fuzz: 0, flat: 0, resolution: 12))
        #expect(description.axes[0x00] == AxisInfo(minimum: 0, maximum: 2776, fuzz: 4, flat: 0, resolution: 0))
    }

    @Test func capabilityLookups() throws {
        let description = try #require(try EvemuRecording.parse(Self.isdv4, sysname: "event3").description)
        #expect(description.hasType(EventCode.EV_KEY))
        #expect(description.hasType(EventCode.EV_ABS))
        #expect(!description.hasType(0x02))  // EV_REL
        #expect(description.hasCode(type: EventCode.EV_KEY, code: EventCode.BTN_TOUCH))
        #expect(!description.hasCode(type: EventCode.EV_KEY, code: EventCode.BTN_TOOL_FINGER))
        #expect(description.hasCode(type: EventCode.EV_ABS, code: EventCode.ABS_MT_SLOT))
        #expect(description.hasCode(type: EventCode.EV_ABS, code: EventCode.ABS_MT_TRACKING_ID))
        #expect(!description.hasCode(type: EventCode.EV_ABS, code: EventCode.ABS_MT_TOUCH_MAJOR))
        #expect(!description.hasCode(type: EventCode.EV_ABS, code: 0x3ff))  // beyond the mask
        #expect(description.hasProperty(EventCode.INPUT_PROP_DIRECT))
        #expect(!description.hasProperty(EventCode.INPUT_PROP_POINTER))
    }

    @Test func deviceDescription() throws {
        let description = try #require(try EvemuRecording.parse(Self.isdv4, sysname: "event3").description)
        let device = description.deviceDescription(sysname: "event3")
        #expect(device == DeviceDescription(
            sysname: "event3", name: "Wacom ISDv4 E6 Finger", bustype: 3, vendor: 0x56a, product: 0xe6,
            x: AxisInfo(minimum: 0, maximum: 2776, fuzz: 4), y: AxisInfo(minimum: 0, maximum: 1569, fuzz: 4),
            mtX: AxisInfo(minimum: 0, maximum: 2776, resolution: 12),
            mtY: AxisInfo(minimum: 0, maximum: 1569, resolution: 12),
            slotCount: 2, hasTrackingID: true, isDirect: true))
    }

    @Test func eventsWithExactTimestamps() throws {
        let recording = try EvemuRecording.parse(Self.isdv4, sysname: "event3")
        #expect(recording.events == [
            RawEvent(time: Instant(microseconds: 1_330_495_931_101_111), type: 3, code: 0x39, value: 0),
            RawEvent(time: Instant(microseconds: 1_330_495_931_101_114), type: 3, code: 0x35, value: 1269),
            RawEvent(time: Instant(microseconds: 1_330_495_931_101_120), type: 1, code: 0x14a, value: 1),
            RawEvent(time: Instant(microseconds: 1_330_495_931_101_135), type: 0, code: 0, value: 0),
            RawEvent(time: Instant(microseconds: 1_330_495_931_125_108), type: 3, code: 0x39, value: -1),
            RawEvent(time: Instant(microseconds: 1_330_495_931_125_122), type: 0, code: 0, value: 0),
        ])
    }

    @Test func eventsOnlyHaveNoDescription() throws {
        let recording = try EvemuRecording.parse("E: 0.000000 0000 0000 0\nE: 1.500000 0003 0035 7\n",
                                                 sysname: "event0")
        #expect(recording.description == nil)
        #expect(recording.events.map(\.time) == [Instant(microseconds: 0), Instant(microseconds: 1_500_000)])
    }

    @Test func commentsBlankLinesCRLFAndTrailingComments() throws {
        let text = "# header\r\n\r\n   \r\nE: 2.000001 0003 0035 -5   # ABS_MT_POSITION_X\r\n"
            + "\tE: 2.000002 0000 0000 0\t# ---- SYN_REPORT ----\r\nA: 35 0 100 0 0\r\nN:   Spaced Name  \r\n"
        let recording = try EvemuRecording.parse(text, sysname: "event0")
        #expect(recording.events == [
            RawEvent(time: Instant(microseconds: 2_000_001), type: 3, code: 0x35, value: -5),
            RawEvent(time: Instant(microseconds: 2_000_002), type: 0, code: 0, value: 0),
        ])
        #expect(recording.description?.axes[0x35] == AxisInfo(minimum: 0, maximum: 100))
        #expect(recording.description?.name == "Spaced Name")
    }

    @Test func shortFractionIsADecimalFraction() throws {
        let recording = try EvemuRecording.parse("E: 3.5 0000 0000 0", sysname: "event0")
        #expect(recording.events.first?.time == Instant(microseconds: 3_500_000))
    }

    @Test(arguments: [
        ("E: 1.000000 0003 0035 1\nE: 1.000000 0003\n", 2, "missing event code"),
        ("N: x\nI: 0003 056a zz 0139\n", 2, "product is not a hexadecimal number"),
        ("E: 1.0000001 0000 0000 0", 1, "timestamp has more than 6 fractional digits"),
        ("E: 1 0000 0000 0", 1, "timestamp is not of the form seconds.microseconds"),
        ("# c\n\nE: 1.000000 10000 0000 0", 3, "event type does not fit in 16 bits"),
        ("E: 1.000000 0000 0000 2147483648", 1, "event value does not fit in 32 bits"),
        ("E: 1.000000 0000 0000 12x", 1, "invalid character in event value"),
        ("E: 1.000000 0000 0000 1 2", 1, "unexpected text after the last field"),
        ("A: 35 0 100 0", 1, "missing axis flat"),
        ("B: 01 100", 1, "byte value 0x100 is larger than 0xff"),
        ("\nX: what", 2, "unknown line kind 'X'"),
        ("hello", 1, "expected a line of the form 'X: ...'"),
    ])
    func malformedLinesNameTheLine(text: String, line: Int, message: String) {
        #expect(throws: EvemuParseError(line: line, message: message)) {
            try EvemuRecording.parse(text, sysname: "event0")
        }
    }

    @Test func errorDescription() {
        #expect(EvemuParseError(line: 7, message: "missing x").description == "line 7: missing x")
    }

    @Test func negativeExtremesAndHexPrefix() throws {
        let recording = try EvemuRecording.parse("E: 0.000001 0x3 0X2f -2147483648", sysname: "event0")
        #expect(recording.events == [RawEvent(time: Instant(microseconds: 1), type: 3, code: 0x2f, value: Int32.min)])
    }

    /// A long recording parses completely and in order (a functional check of the fast path,
    /// not a timing test).
    @Test func manyEvents() throws {
        var text = ""
        let count = 100_000
        text.reserveCapacity(count * 32)
        for index in 0..<count {
            text += "E: \(index / 1000).\(String(repeating: "0", count: 3))\(String(index % 1000).leftPadded(3)) 0003 0035 \(index)\n"
        }
        let events = try EvemuRecording.parse(text, sysname: "event0").events
        #expect(events.count == count)
        #expect(events.last == RawEvent(time: Instant(microseconds: 99_000_999), type: 3, code: 0x35, value: 99_999))
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    // MARK: Bytes and String

    /// `parse(bytes:)` against `parse(String(decoding:))`: the same recording, or the same error.
    static func expectBytesAsString(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        // Compared as values, not as their text: a description's dictionaries print in an
        // order that differs between equal values (hash seeds and capacities differ).
        enum Outcome: Equatable { case parsed([RawEvent], EvemuDescription?), failed(String) }
        func outcome(_ parse: () throws(EvemuParseError) -> EvemuRecording) -> Outcome {
            do throws(EvemuParseError) {
                let recording = try parse()
                return .parsed(recording.events, recording.description)
            } catch {
                return .failed("\(error)")
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(outcome { () throws(EvemuParseError) in try EvemuRecording.parse(bytes: bytes, sysname: "event0") }
                == outcome { () throws(EvemuParseError) in try EvemuRecording.parse(text, sysname: "event0") },
                "\(bytes)", sourceLocation: sourceLocation)
    }

    @Test func bytesParseAsTheirString() {
        let ok = Array("N: Device\nE: 1.000000 0003 0035 1\n".utf8)
        Self.expectBytesAsString(ok)
        Self.expectBytesAsString(Array(Self.isdv4.utf8))
        Self.expectBytesAsString([])
    }

    /// The byte strings of `invalidUTF8ParsesAsItsRepair`, typed one by one: as one literal
    /// of mixed array expressions, Swift 6.0 cannot type-check them in reasonable time.
    static let invalidUTF8: [[UInt8]] = {
        func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
        var cases: [[UInt8]] = []
        cases.append([0xff, 0x3a, 0x20, 0x31])  // "\u{ff}: 1": the byte is no tag
        cases.append(utf8("é: 1"))
        cases.append([0xc3, 0x3a, 0x20, 0x31])  // a lead byte cut short, then ':'
        cases.append(utf8("N: caf") + [0xe9, 0x20, 0xff, 0xfe] + utf8("  \nE: 1.000000 0003 0035 1"))
        cases.append(utf8("E: 1.000000 0003 0035 1") + [0xff])
        cases.append(utf8("E: 1.000000 0003 0035 1 ") + [0xff])
        cases.append(utf8("E: 1.000000 0003 0035 1 # ") + [0xff, 0xc3] + utf8("\nE: 2.0 0 0 0"))
        cases.append(utf8("E: 1.000000 00") + [0x80] + utf8("3 0035 1"))
        cases.append(utf8("B: 01 ") + [0xc3])
        cases.append([0xef, 0xbb, 0xbf] + utf8("E: 1.000000 0003 0035 1"))  // a BOM is not a tag either
        return cases
    }()

    /// Invalid UTF-8 becomes U+FFFD in a String; through bytes the parser sees the raw bytes.
    /// Neither is ever a digit, a blank, '#', ':' or a tag, so the outcome is the same: a
    /// non-ASCII tag is "expected a line of the form", a name decodes the same way.
    @Test(arguments: invalidUTF8)
    func invalidUTF8ParsesAsItsRepair(bytes: [UInt8]) {
        Self.expectBytesAsString(bytes)
    }

    /// Random bytes, high ones included, edited into a small recording.
    @Test func randomBytesParseAsTheirString() {
        let base = Array("N: Device\nA: 35 0 100 0 0\nE: 1.000000 0003 0035 -12 # c\r\nE: 2.5 3 35 7\n".utf8)
        var random = SplitMix64(seed: 0x62_79_74_65_73)
        for _ in 0..<5_000 {
            var bytes = base
            for _ in 0...(random.next() % 4) {
                let index = Int(random.next() % UInt64(bytes.count))
                let byte = random.next() % 2 == 0 ? UInt8(truncatingIfNeeded: random.next()) : 0x80 | UInt8(truncatingIfNeeded: random.next())
                if random.next() % 2 == 0 { bytes[index] = byte } else { bytes.insert(byte, at: index) }
            }
            Self.expectBytesAsString(bytes)
        }
    }

    // MARK: Real recordings (Tests/Fixtures/evemu-devices)

    @Test(arguments: [
        ("Wacom ISDv4 E6 Finger.desc", 2, true, Int32(2776)),
        ("Wacom Bamboo 16FG 4x5 Finger.desc", 16, false, Int32(4096)),
        ("eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller.desc", 10, false, Int32(32767)),
    ])
    func fixtureDescriptions(file: String, slots: Int, direct: Bool, maxX: Int32) throws {
        let recording = try EvemuRecording.parse(try EvemuDevices.read(EvemuDevices.directory + "/" + file), sysname: "event0")
        let description = try #require(recording.description)
        #expect(recording.events.isEmpty)
        #expect(description.name + ".desc" == file)
        let device = description.deviceDescription(sysname: "event0")
        #expect(device.slotCount == slots)
        #expect(device.isDirect == direct)
        #expect(device.hasTrackingID)
        #expect(device.mtX?.maximum == maxX)
        #expect(description.hasCode(type: EventCode.EV_KEY, code: EventCode.BTN_TOUCH))
    }

    /// The folder holds exactly the listed recordings, with their licence and README: a file
    /// lost from the checkout fails here (and in every test that reads it), and a new one must
    /// be listed to be tested.
    @Test func everyVendoredFileIsListed() throws {
        let listed = Set(EvemuDevices.allFiles.map { String($0.split(separator: "/").last!) } + ["LICENSE", "README.md"])
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: EvemuDevices.directory))
        #expect(listed.subtracting(present).isEmpty, "missing from \(EvemuDevices.directory): \(listed.subtracting(present).sorted())")
        #expect(present.subtracting(listed).isEmpty, "not in EvemuDevices.all: \(present.subtracting(listed).sorted())")
        #expect(EvemuDevices.all.count == 19)
    }

    @Test func everyFixtureParses() throws {
        let files = EvemuDevices.allFiles
        #expect(files.count == 22)
        for file in files {
            let recording = try EvemuRecording.parse(try EvemuDevices.read(file), sysname: "event0")
            Self.expectBytesAsString(try EvemuDevices.readBytes(file))
            if file.hasSuffix(".events") {
                #expect(!recording.events.isEmpty, "\(file)")
                #expect(zip(recording.events, recording.events.dropFirst()).allSatisfy { $0.time <= $1.time },
                        "\(file): timestamps go backwards")
            }
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
