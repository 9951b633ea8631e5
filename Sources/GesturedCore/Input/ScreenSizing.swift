/// How big a screen is, in points: the one rule, for the daemon's start and its reloads
/// (`ReloadPlan`), `gestured replay` and `draw` (`Replay.setting`), `calibrate`, and `explain`.
///
/// In order: the size the configuration gives; else the size the screen of the same id had
/// before (a reload keeps it); else its first device's physical size, with its rule's rotation
/// (`DeviceGeometry.physicalScreen`); else `fallback`. Nothing else reads `fallback`: a part that
/// needs a size with nothing said asks this rule (`size(configured: nil)`).
public enum ScreenSizing {
    /// The size when neither the configuration nor a device says (no resolution): a common
    /// 10-inch kiosk panel's pixels.
    public static let fallback = Size(width: 1280, height: 800)

    /// Where a screen's size came from, as the daemon's log says it.
    public enum Origin: Hashable, Sendable {
        case configured
        /// The same screen's size before a reload.
        case previous
        /// The physical size of the screen's first device (its index in the devices given).
        case device(Int)
        /// Nothing said: `fallback`.
        case fallback
    }

    /// One screen's size and where it came from.
    public static func resolve(configured: Size?, previous: Size? = nil, firstDevice: DeviceDescription? = nil,
                               rotation: Rotation = .none) -> (size: Size, origin: Origin) {
        if let configured { return (configured, .configured) }
        if let previous { return (previous, .previous) }
        guard let (x, y) = firstDevice?.positionAxes, let size = DeviceGeometry.physicalScreen(x: x, y: y, rotation: rotation) else {
            return (fallback, .fallback)
        }
        return (size, .device(0))
    }

    /// One screen's size.
    public static func size(configured: Size?, previous: Size? = nil, firstDevice: DeviceDescription? = nil,
                            rotation: Rotation = .none) -> Size {
        resolve(configured: configured, previous: previous, firstDevice: firstDevice, rotation: rotation).size
    }

    /// Each screen's size for `configuration` and where it came from: its first device is the
    /// first of `devices` the configuration puts on it (`Origin.device` gives its index there);
    /// `previous` are the screens before a reload (kept by id).
    public static func resolve(_ configuration: Configuration,
                               devices: [(description: DeviceDescription, admitted: DeviceAdmission.Admitted)],
                               previous: [GesturePipeline.Screen] = []) -> [(size: Size, origin: Origin)] {
        configuration.screenSpecs.enumerated().map { index, spec in
            let first = devices.firstIndex { $0.admitted.screen == index }
            let resolved = resolve(configured: spec.size, previous: previous.first { $0.id == spec.id }?.size,
                                   firstDevice: first.map { devices[$0].description },
                                   rotation: first.flatMap { devices[$0].admitted.rule?.rotation } ?? .none)
            guard case .device = resolved.origin, let first else { return resolved }
            return (resolved.size, .device(first))
        }
    }

    /// Each screen's size for `configuration` (`resolve`).
    public static func sizes(for configuration: Configuration,
                             devices: [(description: DeviceDescription, admitted: DeviceAdmission.Admitted)],
                             previous: [GesturePipeline.Screen] = []) -> [Size] {
        resolve(configuration, devices: devices, previous: previous).map(\.size)
    }
}
