import GesturedCore

extension ConfigKeys {
    static let layoutView = ["isHidden", "isUserInteractionEnabled", "frame"]
    static let control = ["uids", "groups"]
    static let socket = ["mode", "group", "maxClients", "maxClientsPerUser", "maxQueuedBytes", "readTimeout"]
    static let action = ["on", "run", "timeout", "input"]
}

/// The largest per-client queue a configuration may ask for: beyond, a handful of stalled
/// clients could hold a large share of a small kiosk's memory.
let maximumQueuedBytesLimit = 64 << 20
/// The most clients a configuration may allow.
let maximumClientsLimit = SocketSettings.maximumClientsLimit

extension DocumentReader {
    static func viewIDs(_ views: [ViewSpec]) -> [String] {
        views.flatMap { [$0.id] + viewIDs($0.subviews) }
    }

    /// `{ NAME: { VIEW: { isHidden, isUserInteractionEnabled, frame } } }`; every VIEW must be
    /// a view id of the file.
    mutating func layouts(_ node: Node, viewIDs: Set<String>) -> [String: Layout] {
        guard let names = object(node) else { return [:] }
        var result: [String: Layout] = [:]
        for name in names.keys.sorted() {
            let layoutNode = names[name]!
            if name.isEmpty || name.contains(" ") {
                reportAtKey("a layout name must be non-empty and without spaces", at: layoutNode.path)
            }
            guard let views = object(layoutNode) else { continue }
            var layout = Layout()
            for view in views.keys.sorted() {
                let viewNode = views[view]!
                if !viewIDs.contains(view) {
                    var message = "no view has the id \"\(view)\""
                    if let near = closestMatch(to: view, among: viewIDs.sorted()) { message += "; did you mean \"\(near)\"?" }
                    reportAtKey(message, at: viewNode.path)
                }
                guard let fields = object(viewNode) else { continue }
                checkKeys(fields, of: viewNode, known: ConfigKeys.layoutView)
                var changes: [ViewTree.Change] = []
                if let hidden = bool(fields["isHidden"]) { changes.append(.hidden(hidden)) }
                if let enabled = bool(fields["isUserInteractionEnabled"]) { changes.append(.userInteractionEnabled(enabled)) }
                if let frameNode = fields["frame"], let frame = frame(frameNode) { changes.append(.frame(frame)) }
                layout.entries.append(Layout.Entry(view: view, changes: changes))
            }
            result[name] = layout
        }
        return result
    }

    /// `{ uids: [1000, …], groups: ["kiosk", 1001, …] }`.
    mutating func controlPolicy(_ node: Node) -> ControlPolicy? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: ConfigKeys.control)
        var policy = ControlPolicy()
        if let uids = members["uids"], let elements = array(uids) {
            for element in elements {
                if let uid = accountID(element, noun: "uid") { policy.uids.append(uid) }
            }
        }
        if let groups = members["groups"], let elements = array(groups) {
            for element in elements {
                switch element.value {
                case .number:
                    if let gid = accountID(element, noun: "gid") { policy.groups.append(.id(gid)) }
                default:
                    if let name = identifier(element) { policy.groups.append(.name(name)) }
                }
            }
        }
        return policy
    }

    /// `{ screen: { uids: [1000] }, lock: { groups: ["cleaning"] }, … }`: each key a right
    /// (`Right`), each value what `control` takes.
    mutating func permissions(_ node: Node) -> [Right: ControlPolicy] {
        guard let members = object(node) else { return [:] }
        let names = Right.allCases.map(\.rawValue)
        checkKeys(members, of: node, known: names) { key in
            ": not a right (\(names.joined(separator: ", ")))"
                + (closestMatch(to: key, among: names).map { "; did you mean \"\($0)\"?" } ?? "")
        }
        var result: [Right: ControlPolicy] = [:]
        for right in Right.allCases {
            if let member = members[right.rawValue], member.value != .null, let policy = controlPolicy(member) {
                result[right] = policy
            }
        }
        return result
    }

    /// A uid or gid: an integer from 0 to below 2³²−1 (`(uid_t)-1` means "none" to the kernel).
    private mutating func accountID(_ element: Node, noun: String) -> UInt32? {
        guard let n = integer(element, minimum: 0) else { return nil }
        guard n < Int(UInt32.max) else { report("must be a \(noun) below 4294967295, found \(n)", at: element.path); return nil }
        return UInt32(n)
    }

    /// `{ mode: "0660", group: "gestured", maxClients: 64, maxClientsPerUser: 16, maxQueuedBytes: 262144,
    /// readTimeout: 30 }`.
    mutating func socketSettings(_ node: Node) -> SocketSettings? {
        guard let members = object(node) else { return nil }
        checkKeys(members, of: node, known: ConfigKeys.socket)
        var settings = SocketSettings()
        if let modeNode = members["mode"], let text = string(modeNode) {
            // A string, because JSON has no octal numbers and 660 in decimal is not 0660.
            if let mode = UInt32(text, radix: 8), text.count >= 3, mode <= 0o777 {
                settings.mode = mode
            } else {
                report("expected an octal mode such as \"0660\", found \"\(text)\"", at: modeNode.path)
            }
        }
        if let groupNode = members["group"] {
            if groupNode.value == .null { settings.group = nil } else if let group = identifier(groupNode) { settings.group = group }
        }
        if let n = integer(members["maxClients"], minimum: 1) {
            if n > maximumClientsLimit {
                report("must be at most \(maximumClientsLimit), found \(n)", at: members["maxClients"]!.path)
            } else {
                settings.maximumClients = n
            }
        }
        if let n = integer(members["maxClientsPerUser"], minimum: 1) {
            if n > maximumClientsLimit {
                report("must be at most \(maximumClientsLimit), found \(n)", at: members["maxClientsPerUser"]!.path)
            } else {
                settings.maximumClientsPerUser = n
            }
        }
        if let node = members["readTimeout"], let seconds = number(node, minimum: 0, maximum: Self.maximumDuration) {
            settings.readTimeout = seconds > 0 ? Interval(seconds: seconds) : nil
        }
        if let n = integer(members["maxQueuedBytes"], minimum: 4096) {
            if n > maximumQueuedBytesLimit {
                report("must be at most \(maximumQueuedBytesLimit) (64 MiB), found \(n)", at: members["maxQueuedBytes"]!.path)
            } else {
                settings.maximumQueuedBytes = n
            }
        }
        return settings
    }

    /// `{ on: "ended", run: ["/usr/bin/systemctl", "restart", "kiosk"], timeout: 5 }`.
    mutating func gestureAction(_ node: Node, keys: [String] = ConfigKeys.action) -> GestureAction? {
        guard let members = object(node) else { return nil }
        let inputNode = keys.contains("input") ? members["input"] : nil
        checkKeys(members, of: node, known: keys, required: inputNode == nil ? ["run"] : [])
        var state = GestureState.ended
        if let onNode = members["on"], let text = string(onNode) {
            let states: [GestureState] = [.began, .changed, .ended, .cancelled, .failed]
            if let s = states.first(where: { $0.rawValue == text }) {
                state = s
            } else {
                report(notOneOf(states.map(\.rawValue), found: text), at: onNode.path)
            }
        }
        var timeout = GestureAction.defaultTimeout
        if let timeoutNode = members["timeout"], let seconds = number(timeoutNode, minimum: 0, maximum: Self.maximumDuration) {
            if seconds > 0 { timeout = Interval(seconds: seconds) } else { report("must be greater than 0", at: timeoutNode.path) }
        }
        if let inputNode {
            return gestureInput(inputNode, state: state, members: members)
        }
        if let runNode = members["run"], case .string(let line) = runNode.value {
            // A command line: the words it most likely meant, each its own string (no shell runs it).
            let words = line.split(separator: " ").map { quoted(String($0)) }.joined(separator: ", ")
            report("expected an array, found a string: the program and its arguments, each a string (no shell "
                   + "splits it); did you mean [\(words)]?", at: runNode.path)
            return nil
        }
        guard let runNode = members["run"], let elements = array(runNode) else { return nil }
        guard !elements.isEmpty else { report("must name a program: [\"/path/to/program\", arguments…]", at: runNode.path); return nil }
        var argv: [String] = []
        for element in elements { if let word = string(element) { argv.append(word) } }
        guard argv.count == elements.count else { return nil }
        if argv[0].isEmpty { report("must not be empty", at: elements[0].path); return nil }
        return GestureAction(state: state, run: argv, timeout: timeout)
    }

    /// An action's `input` (`inputAction`) with the rest of the action's keys judged for it.
    private mutating func gestureInput(_ inputNode: Node, state: GestureState, members: [String: Node]) -> GestureAction? {
        for key in ["run", "timeout"] where members[key] != nil {
            report("an action takes run or input, not both; \(key) applies to run", at: members[key]!.path)
        }
        guard let input = inputAction(inputNode) else { return nil }
        if input.followsGesture, let on = members["on"] {
            report("a scroll follows its gesture from began to its end; remove \"on\"", at: on.path)
        } else if !input.followsGesture, state == .changed {
            // A key or a click at every frame of a moving finger: never what anyone wants.
            report("input on \"changed\" would be sent at every frame; use began or ended", at: members["on"]!.path)
        }
        return GestureAction(state: state, input: input)
    }
}
