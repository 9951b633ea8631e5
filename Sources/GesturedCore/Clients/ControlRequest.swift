/// Requests that change the region map or a device at runtime (docs/PROTOCOL.md, "Control"):
/// for kiosk apps whose screen changes. Only authorized peers may send them; the daemon checks
/// before applying and answers `error` otherwise.
public enum ControlRequest: Hashable, Sendable {
    /// `show|hide|enable|disable VIEW`, `frame VIEW X Y WIDTH HEIGHT`.
    case view(String, ViewTree.Change)
    /// `layout NAME [SCREEN]`: a layout of the configuration; with `screens`, of the named screen,
    /// or of every screen that defines one by that name.
    case layout(String, screen: String? = nil)
    /// `rotate DEVICE 0|90|180|270`: DEVICE is a sysname glob (`event5`, `*`).
    case rotate(device: String, Rotation)
    /// `screen off|on [SCREEN]`: what an idle manager's hooks say of a screen's power (every
    /// screen without SCREEN).
    case screenPower(on: Bool, screen: String? = nil)
    /// `lock SECONDS [SCREEN]`: claims every touch (of every screen without SCREEN) for
    /// 1…`KioskLimits.maximumLockSeconds` seconds.
    case lock(seconds: Int, screen: String? = nil)
    /// `unlock [SCREEN]`: ends a lock early.
    case unlock(screen: String? = nil)

    /// The request verbs, as `ok`/`error` lines repeat them.
    public static let verbs = ["show", "hide", "enable", "disable", "frame", "layout", "rotate", "screen", "lock", "unlock"]

    public var command: String {
        switch self {
        case .view(_, .hidden(let hidden)): hidden ? "hide" : "show"
        case .view(_, .userInteractionEnabled(let enabled)): enabled ? "enable" : "disable"
        case .view(_, .frame): "frame"
        case .layout: "layout"
        case .rotate: "rotate"
        case .screenPower: "screen"
        case .lock: "lock"
        case .unlock: "unlock"
        }
    }

    /// Parses the arguments of a control verb; nil when `verb` is not one.
    static func parse(verb: Substring, arguments: ArraySlice<Substring>) throws(ClientRequest.ParseError) -> ControlRequest? {
        let command = String(verb)
        func fail(_ message: String) -> ClientRequest.ParseError { .init(command: command, message: message) }
        func word(_ a: Substring?) throws(ClientRequest.ParseError) -> String {
            guard let a, !a.isEmpty else { throw fail("\(command) has an empty argument") }
            return String(a)
        }
        switch verb {
        case "show", "hide", "enable", "disable":
            guard arguments.count == 1 else { throw fail("\(command) takes one argument: a view id") }
            let view = try word(arguments.first)
            let change: ViewTree.Change = switch verb {
            case "show": .hidden(false)
            case "hide": .hidden(true)
            case "enable": .userInteractionEnabled(true)
            default: .userInteractionEnabled(false)
            }
            return .view(view, change)
        case "frame":
            guard arguments.count == 5 else { throw fail("frame takes a view id and 4 numbers: X Y WIDTH HEIGHT") }
            let view = try word(arguments.first)
            var numbers: [Double] = []
            for a in arguments.dropFirst() {
                guard let n = Double(String(a)), n.isFinite, a.allSatisfy({ "0123456789.-+eE".contains($0) }) else {
                    throw fail("'\(a)' is not a finite number")
                }
                numbers.append(n)
            }
            guard numbers[2] >= 0, numbers[3] >= 0 else { throw fail("width and height must be at least 0") }
            return .view(view, .frame(Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])))
        case "layout":
            guard arguments.count == 1 || arguments.count == 2 else {
                throw fail("layout takes a layout name and optionally a screen id")
            }
            return .layout(try word(arguments.first), screen: arguments.count == 2 ? try word(arguments.last) : nil)
        case "rotate":
            guard arguments.count == 2, let first = arguments.first, let last = arguments.last else {
                throw fail("rotate takes a device and 0, 90, 180 or 270")
            }
            let device = try word(first)
            guard let degrees = Int(last), let rotation = Rotation(rawValue: degrees) else {
                throw fail("rotation must be 0, 90, 180 or 270, found '\(last)'")
            }
            return .rotate(device: device, rotation)
        case "screen":
            guard arguments.count == 1 || arguments.count == 2, let state = arguments.first, state == "on" || state == "off" else {
                throw fail("screen takes on or off, and optionally a screen id")
            }
            return .screenPower(on: state == "on", screen: arguments.count == 2 ? try word(arguments.last) : nil)
        case "lock":
            let maximum = KioskLimits.maximumLockSeconds
            guard arguments.count == 1 || arguments.count == 2, let text = arguments.first else {
                throw fail("lock takes a number of seconds (1 to \(maximum)), and optionally a screen id")
            }
            guard !text.isEmpty, text.count <= 9, text.allSatisfy({ "0123456789".contains($0) }), let seconds = Int(text),
                  (1...maximum).contains(seconds) else {
                throw fail("lock takes a whole number of seconds from 1 to \(maximum), found '\(text)'")
            }
            return .lock(seconds: seconds, screen: arguments.count == 2 ? try word(arguments.last) : nil)
        case "unlock":
            guard arguments.count <= 1 else { throw fail("unlock takes at most a screen id") }
            return .unlock(screen: arguments.isEmpty ? nil : try word(arguments.first))
        default:
            return nil
        }
    }
}
