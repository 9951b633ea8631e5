import GesturedCore

extension ConfigKeys {
    static let mqtt = ["broker", "node", "topicPrefix", "discoveryPrefix", "username", "passwordFile", "caFile",
                       "certFile", "keyFile", "commands", "protocol", "maximumEventAge", "lockSeconds"]
}

extension DocumentReader {
    /// `mqtt: { broker, node, topicPrefix, discoveryPrefix, username, passwordFile, caFile, certFile,
    /// keyFile, commands, protocol, maximumEventAge, lockSeconds }` (CONTRACT.md §7, docs/MQTT.md).
    /// Only `broker` is required.
    mutating func mqttSettings(_ node: Node) -> MQTTSettings? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: ConfigKeys.mqtt, required: ["broker"])
        guard let brokerNode = members["broker"], let text = string(brokerNode),
              let broker = mqttBroker(text, at: brokerNode) else { return nil }
        var settings = MQTTSettings(transport: broker.transport, host: broker.host, port: broker.port)
        if let node = members["node"], node.value != .null, let name = identifier(node) {
            if name.utf8.count > Self.maximumTopicLevel {
                report("at most \(Self.maximumTopicLevel) bytes, found \(name.utf8.count)", at: node)
            } else {
                settings.node = name
            }
        }
        if let node = members["topicPrefix"], let prefix = topicPrefix(node) { settings.topicPrefix = prefix }
        if let node = members["discoveryPrefix"] {
            settings.discoveryPrefix = node.value == .null ? nil : topicPrefix(node) ?? settings.discoveryPrefix
        }
        if let node = members["username"], node.value != .null, let name = identifier(node) { settings.username = name }
        for (key, target) in [("passwordFile", \MQTTSettings.passwordFile), ("caFile", \MQTTSettings.caFile),
                              ("certFile", \MQTTSettings.certFile), ("keyFile", \MQTTSettings.keyFile)] {
            guard let node = members[key], node.value != .null, let path = identifier(node) else { continue }
            settings[keyPath: target] = path
        }
        if let node = members["passwordFile"], settings.passwordFile != nil, settings.username == nil {
            report("a password needs \"username\"", at: node)
        }
        for key in ["caFile", "certFile", "keyFile"] where broker.transport == .mqtt {
            guard let node = members[key], node.value != .null else { continue }
            report("only for a TLS broker (\"mqtts://…\")", at: node)
        }
        if (settings.certFile == nil) != (settings.keyFile == nil), let node = members["certFile"] ?? members["keyFile"] {
            report("a client certificate needs both \"certFile\" and \"keyFile\"", at: node)
        }
        if let node = members["commands"], let elements = array(node) {
            for element in elements {
                guard let text = string(element) else { continue }
                guard let command = MQTTSettings.Command(rawValue: text) else {
                    report(notOneOf(MQTTSettings.Command.allCases.map(\.rawValue), found: text), at: element)
                    continue
                }
                if settings.commands.contains(command) { report("\"\(text)\" is listed twice", at: element) }
                settings.commands.insert(command)
            }
        }
        if let node = members["protocol"], let text = string(node) {
            if let version = MQTTSettings.ProtocolVersion(rawValue: text) {
                settings.protocolVersion = version
            } else {
                report(notOneOf(MQTTSettings.ProtocolVersion.allCases.map(\.rawValue), found: text), at: node)
            }
        }
        if let age = duration(members["maximumEventAge"]) { settings.maximumEventAge = age }
        if let node = members["lockSeconds"], let n = integer(node, minimum: 1) {
            if n > KioskLimits.maximumLockSeconds {
                report("must be at most \(KioskLimits.maximumLockSeconds) seconds (as the lock request), found \(n)", at: node)
            } else {
                settings.lockSeconds = n
            }
        }
        return settings
    }

    /// A topic level is at most this long here: Home Assistant's ids and MQTT's 65535-byte topics
    /// are far above it, and a name longer than this is a mistake.
    static let maximumTopicLevel = 128

    /// `"mqtt://HOST[:PORT]"` or `"mqtts://HOST[:PORT]"`; an IPv6 address in brackets.
    private mutating func mqttBroker(_ text: String, at node: Node) -> (transport: MQTTSettings.Transport, host: String, port: Int)? {
        let expected = "expected \"mqtt://HOST[:PORT]\" or \"mqtts://HOST[:PORT]\", found \"\(text)\""
        let scheme = MQTTSettings.Transport.allCases.first { text.hasPrefix($0.rawValue + "://") }
        guard let transport = scheme else {
            report(expected, at: node)
            return nil
        }
        var rest = text.dropFirst(transport.rawValue.count + 3)
        if rest.last == "/" { rest = rest.dropLast() }
        guard !rest.contains("@") else {
            report("the broker's address takes no user: give \"username\" and \"passwordFile\" instead", at: node)
            return nil
        }
        var host = rest, portText: Substring?
        if rest.first == "[" {
            guard let close = rest.firstIndex(of: "]") else { report(expected, at: node); return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { report(expected, at: node); return nil }
                portText = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:_")
        guard !host.isEmpty, host.allSatisfy({ allowed.contains($0) }), host.count <= 253 else {
            report(expected, at: node)
            return nil
        }
        var port = transport.defaultPort
        if let portText {
            guard let n = Int(portText), (1...65535).contains(n), portText.allSatisfy(\.isASCII) else {
                report("the port must be a number from 1 to 65535, found \"\(portText)\"", at: node)
                return nil
            }
            port = n
        }
        return (transport, String(host), port)
    }

    /// A topic prefix: levels separated by `/`, none empty, without the wildcards `+` and `#`.
    private mutating func topicPrefix(_ node: Node) -> String? {
        guard let text = identifier(node) else { return nil }
        guard !text.contains(where: { $0 == "+" || $0 == "#" || $0 == "\u{0}" }) else {
            report("must not contain the wildcards \"+\" and \"#\", found \"\(text)\"", at: node)
            return nil
        }
        guard !text.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            report("levels separated by single \"/\", none empty, found \"\(text)\"", at: node)
            return nil
        }
        guard text.utf8.count <= Self.maximumTopicLevel else {
            report("at most \(Self.maximumTopicLevel) bytes, found \(text.utf8.count)", at: node)
            return nil
        }
        return text
    }
}
