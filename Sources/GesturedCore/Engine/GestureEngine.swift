/// Routes touches to recognizers and arbitrates between them: the one place where UIKit's
/// conflict rules live (SEMANTICS.md, "Conflicts between recognizers").
///
/// Invariants:
/// - a touch is hit-tested once, when it begins, and goes to the recognizers of its view and of
///   every ancestor, for its whole life;
/// - a recognizer's phase changes only through `setPhase` (the funnel that traces it), and
///   leaves `possible` for a decision only through `transition`, which also emits the event, so
///   the reported states are exactly the transitions taken;
/// - every `began` is followed by exactly one `ended` or `cancelled`;
/// - when a recognizer begins or recognizes, every other recognizer sharing any of its touches
///   is forced out (`failed`, or `cancelled` if it had begun) unless the pair may recognize
///   simultaneously or the winner cannot prevent it (`RecognizerSet.canPrevent`);
/// - a recognizer with `requireToFail` waits in `possible` while any of those is undecided,
///   fails when one of them succeeds, and goes ahead (at the instant the last one fails) when all
///   have failed;
/// - among recognizers that would win on the same frame, the deepest view goes first, then config
///   order (with the multi-tap exception of `RecognizerSet.tapPrecedence`);
/// - a recognizer returns to `possible` once it is finished and all its touches are up.
public struct GestureEngine: Sendable {
    public enum BuildError: Error, Hashable, Sendable, CustomStringConvertible {
        case unsupportedType(String)
        case unknownGesture(String)
        public var description: String {
            switch self {
            case .unsupportedType(let type): "recognizer type \"\(type)\" is not available in this build"
            case .unknownGesture(let id): "no gesture with id \"\(id)\""
            }
        }
    }

    public internal(set) var tree: ViewTree
    var slots: [Slot] = []
    /// The slots' recognizers, stored by type (`Slot.recognizer` names one).
    var recognizers = RecognizerSet()
    /// Slot indices in winning order (deepest view, then tap precedence, then config order).
    var rank: [Int] = []
    /// Per view: the slots on its path to the root, in winning order.
    var routesByView: [[Int]] = []
    /// Per view: the first view with the same route (views without gestures of their own share
    /// their parent's), the key `LiveTouches.commonRoute` compares.
    var routeKeys: [Int] = []
    /// Per live touch: the slots it is routed to and the view it was hit-tested to.
    var live = LiveTouches()

    /// Per slot: how many of the current frame's updates are of its touches (0 between frames).
    var routedCount: [Int] = []
    /// Per slot that sees only some of the current frame's updates: those, in frame order.
    /// Reused across frames (emptied, capacity kept), so routing a frame allocates nothing.
    var inputsBySlot: [[TouchUpdate]] = []
    /// The proposals of the current frame or deadline other than `.none`, in winning order
    /// (a scratch buffer reused across frames).
    var proposals: [SlotProposal] = []

    /// A named pair, not a tuple: an array of tuples is copied and destroyed through the
    /// runtime's generic tuple witnesses.
    struct SlotProposal {
        let slot: Int
        let proposal: Proposal
    }

    /// Whether the engine reports touch ownership (`TouchOwnership`): on in a pipeline with a
    /// pass-through device, where `TouchForwarder` needs it; off, nothing of it is computed.
    public internal(set) var tracksOwnership = false
    /// Per slot: the decision last announced (`Ownership.swift`).
    var announced: [Decision] = []
    /// The ownership facts of the entry point in progress, handed out at its end.
    var ownership: [TouchOwnership] = []

    /// The trace `--trace` prints and the recognizer bugs (`GestureEngine+Trace.swift`).
    var traceBuffer = TraceBuffer()

    /// - Parameters:
    ///   - screen: the screen's size in points.
    ///   - screenID: the screen's id (`ScreenSpec.id`), which its events carry; nil in the single form.
    public init(views: [ViewSpec], screen: Size, screenID: String? = nil) throws(BuildError) {
        tree = ViewTree(views: views, screen: screen)
        var indexByName: [String: Int] = [:]
        for (viewIndex, node) in tree.nodes.enumerated() {
            for spec in node.gestures {
                indexByName[spec.id] = slots.count
                let empty = GestureSample(touches: 0, location: .zero, device: DeviceName(), values: .none)
                let recognizer = recognizers.add(spec.kind, screen: screen)
                let label = GestureLabel(type: spec.kind.typeName, name: spec.id, view: node.id, screen: screenID,
                                         templates: recognizers.templateNames(recognizer), slot: slots.count,
                                         action: spec.action)
                slots.append(Slot(name: spec.id, type: spec.kind.typeName, view: viewIndex, viewID: node.id,
                                  recognizer: recognizer, delivery: spec.delivery, label: label, lastSample: empty))
            }
        }
        // The same walk as above: a spec's slot is its place in it (its config order too).
        var slot = 0
        for node in tree.nodes {
            for spec in node.gestures {
                defer { slot += 1 }
                for other in spec.requireToFail {
                    guard let o = indexByName[other] else { throw .unknownGesture(other) }
                    slots[slot].requires.append(o)
                }
                for other in spec.recognizeSimultaneouslyWith {
                    guard let o = indexByName[other] else { throw .unknownGesture(other) }
                    if !slots[slot].simultaneous.contains(o) { slots[slot].simultaneous.append(o) }
                    if !slots[o].simultaneous.contains(slot) { slots[o].simultaneous.append(slot) }
                }
            }
        }
        rank = Self.winningOrder(slots: slots, recognizers: recognizers, tree: tree)
        inputsBySlot = Array(repeating: [], count: slots.count)
        // At most one proposal per slot per frame: sized up front, so that the first frame with
        // more of them than any before does not allocate.
        proposals.reserveCapacity(slots.count)
        routedCount = Array(repeating: 0, count: slots.count)
        announced = Array(repeating: .failed, count: slots.count)
        var position = Array(repeating: 0, count: slots.count)   // per slot: its place in `rank`
        for (place, slot) in rank.enumerated() { position[slot] = place }
        routesByView = tree.nodes.indices.map { view in
            tree.path(from: view).flatMap { v in slots.indices.filter { slots[$0].view == v } }
                .sorted { position[$0] < position[$1] }
        }
        var firstWithRoute: [[Int]: Int] = [:]
        routeKeys = routesByView.indices.map { view in
            if let first = firstWithRoute[routesByView[view]] { return first }
            firstWithRoute[routesByView[view]] = view
            return view
        }
    }

    /// Deepest view first, then config order (the slots' own); within one depth, the positions
    /// held by taps are refilled by those taps sorted by tap count, most first (see
    /// `RecognizerSet.tapPrecedence`).
    private static func winningOrder(slots: [Slot], recognizers: RecognizerSet, tree: ViewTree) -> [Int] {
        var order = slots.indices.sorted {
            let (da, db) = (tree.nodes[slots[$0].view].depth, tree.nodes[slots[$1].view].depth)
            return da != db ? da > db : $0 < $1
        }
        var start = 0
        while start < order.count {
            let depth = tree.nodes[slots[order[start]].view].depth
            var end = start
            while end < order.count, tree.nodes[slots[order[end]].view].depth == depth { end += 1 }
            let positions = (start..<end).filter { recognizers.tapPrecedence(slots[order[$0]].recognizer) > 0 }
            let taps = positions.map { order[$0] }
                .sorted { recognizers.tapPrecedence(slots[$0].recognizer) > recognizers.tapPrecedence(slots[$1].recognizer) }
            for (position, slot) in zip(positions, taps) { order[position] = slot }
            start = end
        }
        return order
    }

    /// One recognizer a touch on a view reaches, for `gestured explain`.
    public struct RouteEntry: Hashable, Sendable {
        public var name: String
        public var type: String
        /// The id of the view it is attached to.
        public var view: String
        public var requireToFail: [String]
        public var simultaneous: [String]
    }

    /// The recognizers a touch on `view` reaches, in winning order.
    public func route(of view: ViewTree.Index) -> [RouteEntry] {
        routesByView[view].map { index in
            RouteEntry(name: slots[index].name, type: slots[index].type, view: slots[index].viewID,
                       requireToFail: slots[index].requires.map { slots[$0].name },
                       simultaneous: slots[index].simultaneous.map { slots[$0].name })
        }
    }


    /// Turns ownership facts on (`TouchForwarder` needs them for pass-through devices). Touches
    /// already down were never announced: the forwarder does not track them either.
    public mutating func trackOwnership() { tracksOwnership = true }

    /// How many recognizers the engine runs (for callers sizing their event buffers).
    public var recognizerCount: Int { slots.count }
}
