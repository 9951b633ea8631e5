/// The engine's live touches: for each, the slots it is routed to and the view it was
/// hit-tested to, in the order the touches began.
///
/// Looked up for every update of every frame, so not a dictionary: hashing the touch id
/// (SipHash) for each lookup would cost more than the search. A screen has at most a few dozen
/// touches down, and a frame lists its updates in the order the frame before did (the device's
/// slot order), so `find` searches from just after the touch it found last and meets the next
/// one at its first comparison.
struct LiveTouches: Sendable {
    private var ids: [TouchID] = []
    /// The slots each touch is routed to, by position (as `find` returns it).
    private(set) var routes: [[Int]] = []
    private var views: [ViewTree.Index?] = []
    /// Per touch, a key equal for equal routes as they were made (`add`), nil once a slot was
    /// taken off it: `commonRoute` compares these, where comparing the routes themselves
    /// retained, released and compared two arrays per update.
    private var routeKeys: [Int?] = []
    /// The position `find` found last.
    private var last = 0

    init() {
        // Ten fingers and more without growing on a touch-down.
        ids.reserveCapacity(16); routes.reserveCapacity(16); views.reserveCapacity(16); routeKeys.reserveCapacity(16)
    }

    /// The position of `touch` if it is live, searched from just after the last one found.
    mutating func find(_ touch: TouchID) -> Int? {
        guard let i = ids.withUnsafeBufferPointer({ Self.position(of: touch, in: $0, after: last) }) else { return nil }
        last = i
        return i
    }

    /// Where `touch` is in `ids`, searched from just after `cursor` round to it: `find`'s search,
    /// and `commonRoute`'s for every update with a local cursor.
    private static func position(of touch: TouchID, in ids: UnsafeBufferPointer<TouchID>, after cursor: Int) -> Int? {
        let count = ids.count
        var i = cursor + 1 < count ? cursor + 1 : 0
        for _ in 0..<count {
            if ids[i] == touch { return i }
            i = i + 1 < count ? i + 1 : 0
        }
        return nil
    }

    /// The position of a touch whose route every update of `frame` shares, if they all are live
    /// and their routes have the same key (so are equal).
    mutating func commonRoute(of frame: [TouchUpdate]) -> Int? {
        guard let first = frame.first, let common = find(first.id), let key = routeKeys[common] else { return nil }
        // The rest as `find` searches, through pointers with a local cursor: writing the stored
        // cursor at every update and indexing the arrays would check uniqueness and bounds at
        // each (docs/PERFORMANCE.md, "Why the hot paths look as they do").
        var cursor = last
        defer { last = cursor }
        let shared = ids.withUnsafeBufferPointer { ids in
            routeKeys.withUnsafeBufferPointer { keys in
                for update in frame.dropFirst() {
                    guard let i = Self.position(of: update.id, in: ids, after: cursor) else { return false }
                    cursor = i
                    guard keys[i] == key else { return false }
                }
                return true
            }
        }
        return shared ? common : nil
    }

    /// The slots `touch` is routed to, nil when it is not live.
    func route(of touch: TouchID) -> [Int]? { ids.firstIndex(of: touch).map { routes[$0] } }

    /// The view `touch` was hit-tested to; nil when it hit none or is not live.
    func view(of touch: TouchID) -> ViewTree.Index? { ids.firstIndex(of: touch).flatMap { views[$0] } }

    /// A touch that began (one with the same id is replaced). `routeKey` is the same for equal
    /// routes (nil: none).
    mutating func add(_ touch: TouchID, view: ViewTree.Index?, route: [Int], routeKey: Int?) {
        remove(touch)
        ids.append(touch); views.append(view); routes.append(route); routeKeys.append(routeKey)
    }

    mutating func remove(_ touch: TouchID) {
        guard let i = ids.firstIndex(of: touch) else { return }
        ids.remove(at: i); views.remove(at: i); routes.remove(at: i); routeKeys.remove(at: i)
        last = 0
    }

    mutating func removeAll() {
        ids.removeAll(keepingCapacity: true); views.removeAll(keepingCapacity: true); routes.removeAll(keepingCapacity: true)
        routeKeys.removeAll(keepingCapacity: true)
        last = 0
    }

    /// Takes `slot` off the route of `touch`.
    mutating func removeSlot(_ slot: Int, from touch: TouchID) {
        guard let i = ids.firstIndex(of: touch) else { return }
        routes[i].removeAll { $0 == slot }
        routeKeys[i] = nil
    }
}
