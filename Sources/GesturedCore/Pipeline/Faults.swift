/// What a step reports besides lines and actions: the faults it survived, typed, and the device
/// lines of the devices that came and went (`Batch.faults`, `Batch.bugs`, `Batch.deviceLines`).

/// A fault a device's decoder survived, and how often since it was last reported.
public struct DeviceFault: Hashable, Sendable {
    public var device: GesturePipeline.DeviceID
    /// The device's sysname, as the log names it.
    public var sysname: String
    public var anomaly: EvdevFrameDecoder.Anomaly
    public var count: Int
}

/// A proposal a recognizer's state machine should never make in its phase: a bug of that
/// recognizer, which the engine ignored (its arbiter's state stays consistent). The shell logs
/// it as an error (rate-limited); clients subscribed to the trace get its `traceLine`.
public struct RecognizerBug: Hashable, Sendable, CustomStringConvertible {
    /// The recognizer's gesture id.
    public var recognizer: String
    /// The proposal it made, and the phase it was in.
    public var proposal: String
    public var phase: String

    public init(recognizer: String, proposal: String, phase: String) {
        self.recognizer = recognizer; self.proposal = proposal; self.phase = phase
    }

    /// `tap: proposal cancel in phase possible`.
    public var description: String { "\(recognizer): proposal \(proposal) in phase \(phase)" }

    /// What a trace subscriber (and `replay --trace`) reads: `recognizer bug: tap: proposal
    /// cancel in phase possible`.
    public var traceLine: String { "\(RecognizerBug.word) \(description)" }

    /// The log's key and the trace line's first words.
    public static let word = "recognizer bug:"
}

/// A device line (`device added|removed`), which every client receives.
public struct DeviceLine: Hashable, Sendable {
    public var added: Bool
    public var sysname: String
    /// The device's name, as the kernel reports it.
    public var name: String

    public init(added: Bool, sysname: String, name: String) {
        self.added = added; self.sysname = sysname; self.name = name
    }
}
