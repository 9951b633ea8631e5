/// What a client that keeps reading must see (docs/PROTOCOL.md): every state transition of every
/// gesture and touch, whatever was coalesced. A continuous gesture goes `began`, `changed`…,
/// then one `ended` or `cancelled`; a discrete one (tap, swipe, stroke) is one `ended` (or
/// `failed`); a touch goes `began`, `moved`…, then one `ended` or `cancelled`; `seq` rises. A
/// lost `began` or `ended` shows as a transition out of order, or as something still running
/// once everything has lifted.
struct TranscriptCheck {
    private(set) var running: [String: String] = [:]
    private(set) var liveTouches: Set<Substring> = []
    private(set) var lines = 0
    private(set) var states: [String: Int] = [:]
    private(set) var devices: [String: Int] = [:]
    private(set) var problems: [String] = []
    private(set) var problemCount = 0
    private var lastSeq = 0
    private var maximumTouchID = 0

    static let discrete: Set<Substring> = ["tap", "swipe", "stroke"]

    private mutating func problem(_ message: String, _ line: Substring) {
        problemCount += 1
        if problems.count < 20 { problems.append("\(message): \(line)") }
    }

    mutating func take(_ line: Substring) {
        lines += 1
        let fields = line.split(separator: " ", maxSplits: 4)
        if let seqField = line.split(separator: " ").last(where: { $0.hasPrefix("seq=") }), let seq = Int(seqField.dropFirst(4)) {
            if seq <= lastSeq { problem("seq \(seq) after \(lastSeq)", line) }
            lastSeq = seq
        }
        guard fields.count >= 3 else { return }
        switch fields[0] {
        case "gesture" where fields.count >= 4:
            let (type, state, name) = (fields[1], String(fields[2]), String(fields[3]))
            states[state, default: 0] += 1
            let isRunning = running[name] != nil
            if Self.discrete.contains(type) {
                if state != "ended" && state != "failed" { problem("discrete gesture \(state)", line) }
                return
            }
            switch state {
            case "began": if isRunning { problem("began while running", line) }; running[name] = String(type)
            case "changed": if !isRunning { problem("changed without began", line) }
            case "ended", "cancelled": if !isRunning { problem("\(state) without began", line) }; running[name] = nil
            case "failed": if isRunning { problem("failed while running", line) }
            default: problem("unknown state", line)
            }
        case "touch":
            let (phase, id) = (fields[1], fields[2])
            switch phase {
            case "began":
                if let n = Int(id) {
                    if n <= maximumTouchID { problem("touch id not above \(maximumTouchID)", line) }
                    maximumTouchID = n
                }
                liveTouches.insert(id)
            case "moved": if !liveTouches.contains(id) { problem("moved without began", line) }
            case "ended", "cancelled": if liveTouches.remove(id) == nil { problem("\(phase) without began", line) }
            default: problem("unknown touch phase", line)
            }
        case "device":
            devices[String(fields[1]), default: 0] += 1
        default:
            break
        }
    }
}
