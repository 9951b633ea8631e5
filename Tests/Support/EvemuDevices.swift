import FoundationEssentials

/// The recordings of real touch hardware vendored in `Tests/Fixtures/evemu-devices` (the
/// evemu-devices collection, MIT; see the README there).
///
/// The list is written out rather than read from the folder, so that every test case exists
/// whether or not its files do: a missing file fails its test with `Missing`, it never shrinks
/// a parameterized test to nothing. `everyVendoredFileIsListed` keeps the list and the folder
/// in step.
public enum EvemuDevices {
    /// `Tests/Fixtures/evemu-devices` in the package.
    public static var directory: String { TestEnvironment.packageRoot + "/Tests/Fixtures/evemu-devices" }

    /// One `.events` file and the device (`.desc`) it was recorded on.
    public struct Recording: Sendable, Equatable {
        /// The file name without `.events`, e.g. `Wacom ISDv4 E6 Finger.2fg-tap`.
        public var name: String
        /// The device's name: its description is `<device>.desc`.
        public var device: String
        public var events: String { EvemuDevices.directory + "/" + name + ".events" }
        public var description: String { EvemuDevices.directory + "/" + device + ".desc" }
    }

    public static let wacomISDv4 = "Wacom ISDv4 E6 Finger"
    public static let wacomBamboo = "Wacom Bamboo 16FG 4x5 Finger"
    public static let eGalax = "eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller"

    /// The device descriptions, by device name.
    public static let devices = [wacomBamboo, wacomISDv4, eGalax]

    /// Every recording, sorted by name.
    public static let all: [Recording] = [
        ("double-center-circle", " "), ("double-center-scroll", " "), ("double-tap-center", " "),
        ("double-tap", " "), ("double-top-swipe", " "), ("single-center-circle", " "),
        ("single-center-scroll", " "), ("single-top-swipe", " "),
    ].map { Recording(name: wacomBamboo + $0.1 + $0.0, device: wacomBamboo) }
    + ["2fg-double-tap", "2fg-tap", "double-center-circle", "double-center-scroll", "double-tap-center",
       "double-top-swipe", "single-center-circle", "single-center-scroll", "single-tap-center", "single-top-swipe",
    ].map { Recording(name: wacomISDv4 + "." + $0, device: wacomISDv4) }
    + [Recording(name: eGalax + ".tap", device: eGalax)]

    /// The recording called `name`; `Missing` if the list has none.
    public static func recording(_ name: String) throws(Missing) -> Recording {
        guard let found = all.first(where: { $0.name == name }) else { throw Missing(path: directory + "/" + name + ".events") }
        return found
    }

    /// A vendored file that cannot be read.
    public struct Missing: Error, CustomStringConvertible {
        public var path: String
        public var description: String {
            "fixture missing: cannot read \(path); the fixtures are part of the repository (Tests/Fixtures), is the checkout complete?"
        }
    }

    /// The bytes of `path`, or `Missing`.
    public static func readBytes(_ path: String) throws(Missing) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw Missing(path: path) }
        return [UInt8](data)
    }

    /// The text of `path`, or `Missing`.
    public static func read(_ path: String) throws(Missing) -> String {
        String(decoding: try readBytes(path), as: UTF8.self)
    }

    /// Every `.desc` and `.events` file of the list, as paths.
    public static var allFiles: [String] {
        devices.map { directory + "/" + $0 + ".desc" } + all.map(\.events)
    }
}
