extension GestureEngine {
    /// Moves the trace and the recognizer bugs since the last drain into the step's buffers
    /// (`Batch.trace`, `Batch.bugs`), keeping this engine's storage: a traced step allocates no
    /// new buffer.
    public mutating func drainTrace(into lines: inout [String], bugs found: inout [RecognizerBug]) {
        if !trace.isEmpty { lines += trace; trace.removeAll(keepingCapacity: true) }
        if !bugs.isEmpty { found += bugs; bugs.removeAll(keepingCapacity: true) }
    }
}
