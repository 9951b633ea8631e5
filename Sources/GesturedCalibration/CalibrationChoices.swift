import GesturedCore
import GesturedDoctor

/// The two choices `gestured calibrate` makes before it measures: which display shows the
/// targets, and which panel is measured (docs/KIOSK.md, "Calibration").
public enum CalibrationDisplay: String, CaseIterable, Hashable, Sendable {
    case auto, wayland, none

    /// Where the package installs `gestured-surface` (`SurfaceLaunch` says where else it is looked for).
    public static let surfaceDirectory = SurfaceLaunch.installedDirectory
    public static let surfaceName = SurfaceLaunch.name
    /// Where it was looked for, for the messages.
    static let lookedFor = "neither on PATH (not searched as root) nor beside gestured nor in \(surfaceDirectory)"

    /// What the targets are shown with, or why the asked display cannot be used.
    public enum Resolved: Hashable, Sendable {
        /// Full screen through `gestured-surface` at this path.
        case wayland(surface: String)
        /// Prompts on the terminal; `note` says why when `auto` fell back to them.
        case none(note: String?)
    }

    /// Why `--display wayland` cannot be used.
    public enum Unavailable: Error, Hashable, Sendable, CustomStringConvertible {
        case noWaylandDisplay
        case noSurface
        /// Found, but not to be started (`SurfaceLaunch.Refusal`'s text).
        case unusable(String)
        public var description: String {
            switch self {
            case .noWaylandDisplay:
                "--display wayland needs WAYLAND_DISPLAY (run it in the kiosk's session, or use --display none)"
            case .noSurface:
                "--display wayland needs \(CalibrationDisplay.surfaceName), found \(CalibrationDisplay.lookedFor) (or use --display none)"
            case .unusable(let reason):
                "--display wayland: \(reason) (or use --display none)"
            }
        }
    }

    /// - Parameters:
    ///   - waylandDisplay: `$WAYLAND_DISPLAY`, nil or empty when unset.
    ///   - surface: the path of `gestured-surface` when one was found.
    ///   - unusable: why the surface found may not be started, when it may not.
    public func resolve(waylandDisplay: String?, surface: String?, unusable: String? = nil) -> Result<Resolved, Unavailable> {
        let hasDisplay = !(waylandDisplay ?? "").isEmpty
        switch self {
        case .none: return .success(.none(note: nil))
        case .wayland:
            guard hasDisplay else { return .failure(.noWaylandDisplay) }
            guard let surface else { return .failure(unusable.map(Unavailable.unusable) ?? .noSurface) }
            return .success(.wayland(surface: surface))
        case .auto:
            if hasDisplay, let surface { return .success(.wayland(surface: surface)) }
            let reason = hasDisplay ? unusable ?? "\(Self.surfaceName) is \(Self.lookedFor)" : "WAYLAND_DISPLAY is not set"
            return .success(.none(note: "--display auto: \(reason), so no target is shown on the screen: "
                                  + "touch each one where this terminal says"))
        }
    }
}

/// Which panel `gestured calibrate` measures: the one `--device GLOB` names (by name or
/// sysname), or the only one the configuration uses.
public enum CalibrationPanelChoice {
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        case none(glob: String?)
        case several([String])
        public var description: String {
            switch self {
            case .none(nil):
                "no touch panel: none that the configuration uses is present "
                    + "(`gestured devices` lists every input device and why it is used or not)"
            case .none(let glob?):
                "no touch panel the configuration uses matches --device \(LineEncoder.textString(glob)) "
                    + "(`gestured devices` lists them)"
            case .several(let labels):
                "several touch panels: " + labels.joined(separator: ", ") + "; pick one with --device GLOB (its name or event node)"
            }
        }
    }

    /// The index in `panels` (sysname, name) of the one to measure.
    public static func choose(_ panels: [(sysname: String, name: String)], glob: String?) -> Result<Int, Refusal> {
        let matching = panels.indices.filter { i in
            guard let glob else { return true }
            return Glob.matches(glob, panels[i].name) || Glob.matches(glob, panels[i].sysname)
        }
        guard let first = matching.first else { return .failure(.none(glob: glob)) }
        guard matching.count == 1 else { return .failure(.several(matching.map { "\(panels[$0].sysname) (\(panels[$0].name))" })) }
        return .success(first)
    }
}
