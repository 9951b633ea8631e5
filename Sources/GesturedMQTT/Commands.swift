import GesturedCore

/// A message on `P/N/set/<verb>` made into one control request for the daemon, or refused with
/// the reason published on `P/N/error`.
enum CommandTranslation: Equatable {
    case request(String)
    case refused(String)

    /// The longest payload taken: a view id, a layout name or a frame's numbers fit well within
    /// it, and the daemon's request lines stop at 1024 bytes.
    static let maximumPayload = 256

    /// - Parameters:
    ///   - verb: the last level of the topic.
    ///   - payload: the message, as UTF-8.
    static func translate(verb: String, payload: String, settings: MQTTSettings) -> CommandTranslation {
        guard let command = MQTTSettings.Command(rawValue: verb) else {
            return .refused("unknown command '\(verb)' (\(MQTTSettings.Command.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard payload.utf8.count <= maximumPayload else { return .refused("the payload is longer than \(maximumPayload) bytes") }
        guard !payload.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != " " && $0 != "\t" || $0.value == 0x7F }) else {
            return .refused("the payload has a control character")
        }
        let words = payload.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        func allowed(_ command: MQTTSettings.Command, _ request: String) -> CommandTranslation {
            settings.commands.contains(command) ? .request(request)
                : .refused("command '\(command.rawValue)' is not enabled (mqtt.commands)")
        }
        switch command {
        case .lock:
            switch words.first?.lowercased() {
            case nil, "on": return allowed(.lock, "lock \(settings.lockSeconds)")
            case "off": return allowed(.unlock, (["unlock"] + words.dropFirst()).joined(separator: " "))
            default: return allowed(.lock, (["lock"] + words).joined(separator: " "))
            }
        case .screen:
            guard let state = words.first?.lowercased(), state == "on" || state == "off" else {
                return .refused("screen takes on or off, found '\(payload)'")
            }
            return allowed(.screen, (["screen", state] + words.dropFirst()).joined(separator: " "))
        case .unlock:
            return allowed(.unlock, (["unlock"] + words).joined(separator: " "))
        case .show, .hide, .enable, .disable, .frame, .layout, .rotate:
            guard !words.isEmpty else { return .refused("\(verb) needs its arguments as the payload") }
            return allowed(command, ([verb] + words).joined(separator: " "))
        }
    }
}
