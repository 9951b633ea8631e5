/// The two touches a pinch or a rotation reads: the first two of its group, in down order.
///
/// Further touches are carried along without counting; when one of the pair lifts while another
/// touch is down, the next in line takes its place and the caller re-bases its reference, so the
/// reported value goes on without a jump (SEMANTICS.md, "Reference points").
struct TouchPair: Sendable {
    let a: TouchGroup.Member
    let b: TouchGroup.Member

    init(a: TouchGroup.Member, b: TouchGroup.Member) { self.a = a; self.b = b }

    /// Distance between the two touches.
    var span: Distance { (b.location - a.location).distance }

    /// Direction from the first touch to the second, growing clockwise on screen.
    var angle: Angle { .direction(of: b.location - a.location) }

    /// Whether `p` and `q` are the same two touches (to notice when a member was replaced).
    static func samePair(_ p: TouchPair?, _ q: TouchPair?) -> Bool {
        switch (p, q) {
        case (nil, nil): true
        case (.some(let p), .some(let q)): p.a.id == q.a.id && p.b.id == q.b.id
        case (nil, .some), (.some, nil): false
        }
    }
}
