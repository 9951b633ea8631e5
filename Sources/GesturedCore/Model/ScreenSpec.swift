/// One screen of the `screens` form: a touch panel with its own coordinate space, view tree,
/// recognizers and layouts. Lines of its touches and gestures carry `screen=<id>`.
public struct ScreenSpec: Hashable, Sendable {
    /// Which devices a screen takes.
    public enum Devices: Hashable, Sendable {
        /// The devices matching one of these (the same keys as a device rule's `match`).
        case matching([DeviceMatch])
        /// The devices no other screen's `matching` takes (`devices: "rest"`).
        case rest
    }

    /// Unique among the screens; nil only for the single form's one screen (its lines carry no
    /// `screen=`).
    public var id: String?
    /// In points; nil: the first device's physical size, as for the single form's `screen`.
    public var size: Size?
    public var devices: Devices
    /// Top-level views, back to front. View ids are unique across all screens.
    public var views: [ViewSpec]
    public var layouts: [String: Layout]
    /// This screen's own `idle` thresholds (its lines carry `screen=<id>`), counted on its
    /// touches only; empty for none.
    public var idle: [Interval]
    /// This screen's `power`; nil: the top level's.
    public var power: PowerPolicy?
    /// This screen's `lock`; nil: the top level's.
    public var lock: LockPolicy?

    public init(id: String?, size: Size? = nil, devices: Devices = .rest, views: [ViewSpec] = [],
                layouts: [String: Layout] = [:], idle: [Interval] = [], power: PowerPolicy? = nil) {
        self.id = id; self.size = size; self.devices = devices; self.views = views; self.layouts = layouts
        self.idle = idle; self.power = power
    }
}

extension Configuration {
    /// The screens, whichever form the file used: the single form is one screen without an id
    /// that takes every device.
    public var screenSpecs: [ScreenSpec] {
        screens.isEmpty ? [ScreenSpec(id: nil, size: screen, devices: .rest, views: views, layouts: layouts)] : screens
    }

    /// The screen a device belongs to: the first whose `devices` rules match it, else the first
    /// `"rest"` screen; nil when no screen takes it (it is not used). A device matching the rules
    /// of two screens belongs to the first of them.
    public func screenIndex(of device: DeviceDescription, properties: [String: String] = [:]) -> Int? {
        let specs = screenSpecs
        let matched = specs.firstIndex { spec in
            guard case .matching(let matches) = spec.devices else { return false }
            return matches.contains { $0.matches(device, properties: properties) }
        }
        return matched ?? specs.firstIndex { $0.devices == .rest }
    }

    /// Every view's gesture actions, across screens (the action runner's table).
    public var allViews: [ViewSpec] { screenSpecs.flatMap(\.views) }
}
