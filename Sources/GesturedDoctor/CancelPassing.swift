import GesturedCore

/// Which programs reading a pass-through clone are known to pass libinput's touch cancel on to
/// the application (`wl_touch.cancel`), and the `cancelStyle` that fits each: the one table
/// `gestured doctor` judges a clone's reader by. Every entry is a measurement (docs/KIOSK.md,
/// "What the application sees, per compositor"); a program or version not in it is unknown
/// (nil), never guessed.
public enum CancelPassing {
    /// One measured program: its Debian package, the upstream versions the measurement covers
    /// (`from` included, `below` excluded), and what was seen.
    public struct Entry: Equatable, Sendable {
        public var compositor: String
        public var package: String
        public var from: [Int]
        public var below: [Int]
        /// Whether the application got `wl_touch.cancel` for a touch ended with `"palm"`.
        public var passesCancel: Bool
        public var recommended: CancelStyle
        /// The styles that leave no touch pressed in the application.
        public var fitting: Set<CancelStyle>
        /// Where the measurement comes from.
        public var measurement: String
    }

    public static let debian12Matrix = "CompositorVMTests, Debian 12 kernel guest (docs/KIOSK.md)"
    public static let debian13Matrix = "CompositorVMTests, Debian 13 kernel guest, libinput 1.28.1 (make test-vm-trixie, docs/KIOSK.md)"

    public static let table: [Entry] = [
        Entry(compositor: "cage", package: "cage", from: [0, 1, 4], below: [0, 1, 5], passesCancel: false,
              recommended: .lift, fitting: [.lift],
              measurement: "cage 0.1.4-4 (wlroots 0.15): \"palm\" left claimed touches pressed; " + debian12Matrix),
        Entry(compositor: "sway", package: "sway", from: [1, 7], below: [1, 8], passesCancel: false,
              recommended: .lift, fitting: [.lift],
              measurement: "sway 1.7-6 (wlroots 0.15): \"palm\" left claimed touches pressed; " + debian12Matrix),
        Entry(compositor: "weston", package: "weston", from: [10], below: [11], passesCancel: false,
              recommended: .lift, fitting: [.lift],
              measurement: "weston 10.0.1-1+b1: \"palm\" left claimed touches pressed; " + debian12Matrix),
        Entry(compositor: "Xorg", package: "xserver-xorg-core", from: [21, 1], below: [21, 2], passesCancel: false,
              recommended: .lift, fitting: [.lift, .palm],
              measurement: "Xorg 21.1.7-3+deb12u13 with xf86-input-libinput 1.2.1: XI2 has no cancel, "
                  + "both styles end as an ordinary TouchEnd; " + debian12Matrix),
        Entry(compositor: "cage", package: "cage", from: [0, 2, 0], below: [0, 2, 1], passesCancel: false,
              recommended: .lift, fitting: [.lift],
              measurement: "cage 0.2.0-2 (wlroots 0.18.2): \"palm\" left claimed touches pressed; " + debian13Matrix),
        Entry(compositor: "sway", package: "sway", from: [1, 10], below: [1, 11], passesCancel: true,
              recommended: .palm, fitting: [.lift, .palm],
              measurement: "sway 1.10.1-2 (wlroots 0.18.2): \"palm\" gave one wl_touch.cancel per claimed touch, "
                  + "\"lift\" an up; " + debian13Matrix),
        Entry(compositor: "weston", package: "weston", from: [14], below: [15], passesCancel: false,
              recommended: .lift, fitting: [.lift],
              measurement: "weston 14.0.2-1: \"palm\" left claimed touches pressed; " + debian13Matrix),
        Entry(compositor: "labwc", package: "labwc", from: [0, 8, 3], below: [0, 8, 4], passesCancel: false,
              recommended: .lift, fitting: [.lift],
              measurement: "labwc 0.8.3-1 (wlroots 0.18.2): \"palm\" left claimed touches pressed; " + debian13Matrix),
    ]

    /// The entry measured for `package` at Debian version `version` (epoch and revision
    /// ignored), or nil.
    public static func entry(package: String, version: String) -> Entry? {
        guard let upstream = upstreamNumbers(version) else { return nil }
        return table.first { $0.package == package && !less(upstream, $0.from) && less(upstream, $0.below) }
    }

    /// `1:21.1.7-3+deb12u13` → [21, 1, 7]: the epoch and the Debian revision dropped, the
    /// upstream version's leading numbers (up to the first part that is not a number).
    public static func upstreamNumbers(_ version: String) -> [Int]? {
        var text = Substring(version)
        if let colon = text.firstIndex(of: ":") { text = text[text.index(after: colon)...] }
        if let dash = text.lastIndex(of: "-") { text = text[..<dash] }
        var numbers: [Int] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            let digits = part.prefix { $0.isASCII && $0.isNumber }
            guard let number = Int(digits) else { break }
            numbers.append(number)
            if digits.count != part.count { break }
        }
        return numbers.isEmpty ? nil : numbers
    }

    /// Version order on number lists, a missing part counting as 0.
    static func less(_ a: [Int], _ b: [Int]) -> Bool {
        for k in 0..<max(a.count, b.count) {
            let x = k < a.count ? a[k] : 0, y = k < b.count ? b[k] : 0
            if x != y { return x < y }
        }
        return false
    }
}
