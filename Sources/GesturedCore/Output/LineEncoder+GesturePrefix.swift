extension LineEncoder {
    /// The pieces of a gesture line that one recognizer repeats in every event, encoded once
    /// (held by its `GestureLabel`): `head` is the line up to the state (`gesture TYPE`),
    /// `middle` from the name to the view (` NAME view=VIEW`), written by the same `LineWriter`
    /// calls as the rest of the line, so the line is byte for byte what field-by-field
    /// encoding makes.
    struct GesturePrefix: Sendable {
        let head: [UInt8]
        let middle: [UInt8]

        init(type: String, name: String, view: String, format: LineFormat) {
            var head: [UInt8] = [], middle: [UInt8] = []
            write(format: format, room: LineWriter.fixedRoom + LineWriter.maximumEscapedLength(type.utf8.count),
                  into: &head) { line in
                line.begin("gesture")
                line.positional("type", string: type)
            }
            write(format: format, room: LineWriter.fixedRoom + LineWriter.maximumEscapedLength(name.utf8.count)
                  + LineWriter.maximumEscapedLength(view.utf8.count), into: &middle) { line in
                line.positional("name", string: name)
                line.field("view", string: view)
            }
            self.head = head; self.middle = middle
        }
    }
}
