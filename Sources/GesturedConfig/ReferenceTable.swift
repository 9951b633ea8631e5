/// Every view id, gesture id and gesture reference of a document, with where each was written,
/// for the checks that span the whole file.
struct ReferenceTable {
    struct Definition {
        var id: String
        var path: String
        var offset: Int
    }

    struct Reference {
        var id: String
        var path: String
    }

    struct Gesture {
        var definition: Definition
        var requireToFail: [Reference]
        var simultaneous: [Reference]
    }

    private(set) var views: [Definition] = []
    private(set) var gestures: [Gesture] = []

    mutating func addView(_ id: String, path: String, offset: Int) {
        views.append(Definition(id: id, path: path, offset: offset))
    }

    mutating func addGesture(_ definition: Definition, requireToFail: [Reference], simultaneous: [Reference]) {
        gestures.append(Gesture(definition: definition, requireToFail: requireToFail, simultaneous: simultaneous))
    }
}

extension DocumentReader {
    /// The checks that need the whole file: unique view and gesture ids, references that
    /// resolve and are not to oneself, and no `requireToFail` cycle (which would make every
    /// gesture on it wait for the others forever).
    mutating func checkReferences(_ table: ReferenceTable) {
        checkUnique(table.views, noun: "view")
        let firstGestures = checkUnique(table.gestures.map(\.definition), noun: "gesture")
        let ids = Set(firstGestures.keys)
        // Each screen has its own recognizers: a reference reaches only its own screen's.
        func screen(of path: String) -> Substring? { path.hasPrefix("screens[") ? path.prefix { $0 != "." } : nil }

        for gesture in table.gestures {
            let own = gesture.definition.id
            for (references, selfMessage) in [(gesture.requireToFail, "a gesture cannot require itself to fail"),
                                              (gesture.simultaneous, "a gesture cannot recognize simultaneously with itself")] {
                for reference in references {
                    if reference.id == own {
                        report(selfMessage, at: reference.path)
                    } else if !ids.contains(reference.id) {
                        var message = "no gesture has the id \"\(reference.id)\""
                        if let near = closestMatch(to: reference.id, among: table.gestures.map(\.definition.id)) {
                            message += "; did you mean \"\(near)\"?"
                        }
                        report(message, at: reference.path)
                    } else if let target = firstGestures[reference.id],
                              screen(of: target.path) != screen(of: reference.path) {
                        report("gesture \"\(reference.id)\" is on another screen (\(screen(of: target.path) ?? "?")); "
                               + "gestures of different screens never see the same touches", at: reference.path)
                    }
                }
            }
        }
        checkCycles(table, ids: ids)
    }

    /// Reports every repeated id at its repetition, naming where it was first used.
    /// - Returns: each id's first definition.
    @discardableResult
    private mutating func checkUnique(_ definitions: [ReferenceTable.Definition], noun: String)
        -> [String: ReferenceTable.Definition]
    {
        var first: [String: ReferenceTable.Definition] = [:]
        for definition in definitions {
            if let original = first[definition.id] {
                report("duplicate \(noun) id \"\(definition.id)\" (first used at \(source.positionText(of: original.offset)))",
                       at: definition.path)
            } else {
                first[definition.id] = definition
            }
        }
        return first
    }

    /// Depth-first search over `requireToFail` edges, in file order; each edge back onto the
    /// current path closes a cycle, reported at that edge's reference. Iterative, so a long
    /// chain cannot exhaust the stack.
    private mutating func checkCycles(_ table: ReferenceTable, ids: Set<String>) {
        var edges: [String: [ReferenceTable.Reference]] = [:]
        var order: [String] = []
        for gesture in table.gestures where edges[gesture.definition.id] == nil {
            let own = gesture.definition.id
            edges[own] = gesture.requireToFail.filter { $0.id != own && ids.contains($0.id) }
            order.append(own)
        }
        enum Mark { case onPath, done }
        var marks: [String: Mark] = [:]
        for root in order where marks[root] == nil {
            var stack: [(id: String, next: Int)] = [(root, 0)]
            marks[root] = .onPath
            while let top = stack.last {
                let outgoing = edges[top.id] ?? []
                guard top.next < outgoing.count else {
                    marks[top.id] = .done
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let edge = outgoing[top.next]
                switch marks[edge.id] {
                case nil:
                    marks[edge.id] = .onPath
                    stack.append((edge.id, 0))
                case .onPath:
                    let start = stack.firstIndex { $0.id == edge.id } ?? 0
                    let cycle = stack[start...].map(\.id) + [edge.id]
                    report("requireToFail cycle: \(cycle.joined(separator: " → "))", at: edge.path)
                case .done:
                    break
                }
            }
        }
    }
}
