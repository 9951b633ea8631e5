import GesturedCore

extension DocumentReader {
    /// `screens: [{ id, width, height, devices, views, layouts }]` (docs/CONFIG.md, "Screens"):
    /// the alternative to top-level `screen`, `views` and `layouts`, which it excludes.
    ///
    /// A device belongs to the first screen whose `devices` match it, else to the `"rest"`
    /// screen. A match that repeats one of an earlier screen could never take a device, so it is
    /// an error, as are a second `"rest"` screen and duplicate screen ids. View and gesture ids
    /// are unique across screens (the one reference table checks them).
    mutating func screens(_ node: Node, root: [String: Node], references: inout ReferenceTable) -> [ScreenSpec] {
        for key in ["screen", "views", "layouts"] {
            guard let other = root[key] else { continue }
            reportAtKey("\"screens\" and top-level \"\(key)\" cannot both be given; "
                        + "move \"\(key)\" into each screen of \"screens\"", at: other.path)
        }
        guard let elements = array(node) else { return [] }
        guard !elements.isEmpty else { report("needs at least one screen", at: node.path); return [] }
        var screens: [ScreenSpec] = []
        var idPaths: [String: String] = [:]
        var matchPaths: [(DeviceMatch, screen: String, path: String)] = []
        var restPath: String?
        for element in elements {
            guard let members = object(element) else { continue }
            checkKeys(members, of: element, known: ConfigKeys.screenEntry, required: ["id", "devices"])
            var spec = ScreenSpec(id: "")
            if let idNode = members["id"], let id = identifier(idNode) {
                if let first = idPaths[id] {
                    report("duplicate screen id \"\(id)\" (first used at \(positionText(of: first)))", at: idNode.path)
                }
                idPaths[id] = idNode.path
                spec.id = id
            }
            let width = members["width"], height = members["height"]
            if (width == nil) != (height == nil) {
                report("needs both \"width\" and \"height\", or neither (then its first device's size)", at: element.path)
            } else if width != nil, let w = positiveLength(width), let h = positiveLength(height) {
                spec.size = Size(width: w, height: h)
            }
            if let devices = members["devices"] {
                spec.devices = screenDevices(devices, screen: spec.id ?? "", matches: &matchPaths, restPath: &restPath)
            }
            if let node = members["views"], let views = array(node) {
                for view in views { if let v = self.view(view, references: &references) { spec.views.append(v) } }
            }
            if let node = members["layouts"], node.value != .null {
                spec.layouts = layouts(node, viewIDs: Set(Self.viewIDs(spec.views)))
            }
            if let node = members["idle"], node.value != .null { spec.idle = idleThresholds(node) }
            if let node = members["power"], node.value != .null { spec.power = powerPolicy(node) }
            if let node = members["lock"], node.value != .null { spec.lock = lockPolicy(node) }
            screens.append(spec)
        }
        return screens
    }

    /// `"rest"` or `[{ match: {...} }, ...]`.
    private mutating func screenDevices(_ node: Node, screen: String, matches: inout [(DeviceMatch, screen: String, path: String)],
                                        restPath: inout String?) -> ScreenSpec.Devices {
        if case .string(let text) = node.value {
            guard text == "rest" else {
                report("expected \"rest\" or an array of { match: {...} }, found \"\(text)\"", at: node.path)
                return .matching([])
            }
            if let first = restPath {
                report("only one screen may take the rest of the devices (\(first) does already)", at: node.path)
            }
            restPath = node.path
            return .rest
        }
        guard let elements = array(node) else { return .matching([]) }
        var result: [DeviceMatch] = []
        for element in elements {
            guard let members = object(element) else { continue }
            checkKeys(members, of: element, known: ConfigKeys.screenDevice, required: ["match"])
            guard let matchNode = members["match"], let fields = object(matchNode) else { continue }
            checkKeys(fields, of: matchNode, known: ConfigKeys.match)
            let match = deviceMatch(fields)
            if let earlier = matches.first(where: { $0.0 == match && $0.screen != screen }) {
                report("screen \"\(earlier.screen)\" (\(earlier.path)) already takes the devices this matches: "
                       + "a device belongs to the first screen whose devices match it", at: matchNode.path)
            }
            matches.append((match, screen, matchNode.path))
            result.append(match)
        }
        return .matching(result)
    }
}
