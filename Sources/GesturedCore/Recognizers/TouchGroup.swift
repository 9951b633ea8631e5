/// The touches a recognizer follows, in the order they went down, with a translation that is
/// re-based whenever one is added or removed.
///
/// SEMANTICS.md, "Reference points": translation is measured from where the touches went down,
/// and a finger added or lifted mid-gesture must not make it jump. The centroid does jump when the
/// set of touches changes, so `origin` moves by the same amount: `translation = centroid − origin`
/// is the same just before and just after the change.
struct TouchGroup: Sendable {
    struct Member: Sendable {
        var id: TouchID
        /// Where this touch went down.
        var down: Point
        var location: Point
    }

    private(set) var members: [Member] = []
    /// `translation = centroid − origin`.
    private var origin = Point.zero
    /// Where `move` starts looking (a hint: any value is correct).
    private var searchStart = 0

    init() { members.reserveCapacity(5) }

    var count: Int { members.count }
    var isEmpty: Bool { members.isEmpty }

    func contains(_ id: TouchID) -> Bool { members.contains { $0.id == id } }

    func member(_ id: TouchID) -> Member? { members.first { $0.id == id } }

    /// Mean location of the touches (`.zero` when there are none).
    var centroid: Point {
        guard !members.isEmpty else { return .zero }
        var x = 0.0, y = 0.0
        for m in members { x += m.location.x; y += m.location.y }
        let n = Double(members.count)
        return Point(x: x / n, y: y / n)
    }

    var translation: Vector { members.isEmpty ? .zero : centroid - origin }

    /// `centroid` and `translation` from one pass over the touches (each alone makes its own).
    var measured: (centroid: Point, translation: Vector) {
        let centroid = self.centroid
        return (centroid, members.isEmpty ? .zero : centroid - origin)
    }

    /// Adds a touch that went down at `location`, keeping the translation.
    mutating func add(_ id: TouchID, at location: Point) {
        let kept = translation
        members.append(Member(id: id, down: location, location: location))
        origin = centroid - kept
    }

    /// Moves a touch; its position in the group (down order), nil when it is not in the group.
    ///
    /// A frame's updates usually come in the order the touches are kept (slot order, down
    /// order), so the search starts after the member found last and wraps around: one comparison
    /// per move instead of a scan from the start.
    @discardableResult
    mutating func move(_ id: TouchID, to location: Point) -> Int? {
        let n = members.count
        var i = searchStart < n ? searchStart : 0
        for _ in 0..<n {
            if members[i].id == id {
                members[i].location = location
                searchStart = i &+ 1
                return i
            }
            i = i &+ 1 == n ? 0 : i &+ 1
        }
        return nil
    }

    /// Moves the touches of a frame whose updates are all moves, in frame order, in one pass
    /// over the group's storage (a steady frame: about a hundred moves of twenty recognizers,
    /// one storage check each instead of one per move). After each move of one of the first two
    /// touches, `pairMoved` gets the pair as it is then. Returns whether any touch was the
    /// group's. The same as `move(_:to:)` for each update in turn.
    @discardableResult
    mutating func moveAll(_ updates: ArraySlice<TouchUpdate>, pairMoved: (TouchPair) -> Void = { _ in }) -> Bool {
        var any = false
        var start = searchStart
        members.withUnsafeMutableBufferPointer { members in
            let n = members.count
            for update in updates {
                var i = start < n ? start : 0
                for _ in 0..<n {
                    if members[i].id == update.id {
                        members[i].location = update.location
                        start = i &+ 1
                        any = true
                        if i < 2 && n >= 2 { pairMoved(TouchPair(a: members[0], b: members[1])) }
                        break
                    }
                    i = i &+ 1 == n ? 0 : i &+ 1
                }
            }
        }
        searchStart = start
        return any
    }

    /// Whether every update of a frame is a move (a steady frame, for `moveAll`).
    /// Read through a pointer: a loop over the slice copied each update (its device's name
    /// retained) to look at its phase.
    static func allMoves(_ updates: ArraySlice<TouchUpdate>) -> Bool {
        updates.withUnsafeBufferPointer { updates in
            for i in updates.indices where updates[i].phase != .moved { return false }
            return true
        }
    }

    /// The first two touches, or nil with fewer than two (read in place, not through a copy of
    /// the group).
    var pair: TouchPair? {
        members.count >= 2 ? TouchPair(a: members[0], b: members[1]) : nil
    }

    /// Removes a touch, keeping the translation; false when it is not in the group.
    @discardableResult
    mutating func remove(_ id: TouchID) -> Bool {
        guard let i = members.firstIndex(where: { $0.id == id }) else { return false }
        let kept = translation
        members.remove(at: i)
        origin = centroid - kept
        return true
    }

    /// Makes the current positions the reference: translation becomes zero.
    mutating func restartTranslation() { origin = centroid }

    mutating func removeAll() {
        members.removeAll(keepingCapacity: true)
        origin = .zero
    }
}
