extension LineEncoder {
    /// A gesture line's template for one recognizer: the fixed part of its lines, encoded once
    /// per state and format when the recognizer is made (held by its `GestureLabel`), so that
    /// a line copies it and fills in only what changes from event to event (the device, the
    /// numbers).
    ///
    /// `heads[state]` is the line up to the device's value: `gesture TYPE STATE NAME view=VIEW
    /// device=` in text, `{"event":"gesture","type":…,"state":…,"name":…,"view":…,"device":` in
    /// JSON; written by the same `LineWriter` calls as the rest of the line, so the line is byte
    /// for byte what field-by-field encoding makes. One copy where there were four pieces (two
    /// pre-encoded ones, the state's token, the device's key).
    struct GesturePrefix: Sendable {
        /// Indexed by `GestureState.index`.
        let heads: [[UInt8]]

        init(type: String, name: String, view: String, format: LineFormat) {
            let strings = type.utf8.count + name.utf8.count + view.utf8.count
            heads = GestureState.inLineOrder.map { state in
                var head: [UInt8] = []
                write(format: format, room: LineWriter.fixedRoom + LineWriter.maximumEscapedLength(strings), into: &head) { line in
                    line.begin("gesture")
                    line.positional("type", string: type)
                    line.positional("state", token: state.token)
                    line.positional("name", string: name)
                    line.field("view", string: view)
                    line.key("device")
                }
                return head
            }
        }

        /// The template of `state`'s lines.
        @inline(__always) func head(_ state: GestureState) -> [UInt8] { heads[state.index] }
    }
}

extension GestureState {
    /// Every state, in the order of `index`.
    static let inLineOrder: [GestureState] = [.began, .changed, .ended, .cancelled, .failed]

    /// The state's place in `inLineOrder`.
    var index: Int {
        switch self {
        case .began: 0
        case .changed: 1
        case .ended: 2
        case .cancelled: 3
        case .failed: 4
        }
    }
}
