import GesturedCore

extension GesturePipeline {
    /// Adds a device for a test, before anything has happened: its step decides nothing (no
    /// line, nothing locked or off), which this checks, so a test cannot drop what an addition
    /// decided. Where it may decide something, call `addDevice(_:rule:fallbackCalibration:screen:line:into:)`.
    @discardableResult
    public mutating func addDevice(_ description: DeviceDescription, rule: DeviceRule? = nil,
                                   fallbackCalibration: [Double]? = nil, screen: Int = 0)
        throws(EvdevFrameDecoder.Unsupported) -> DeviceID {
        var batch = Batch()
        let id = try addDevice(description, rule: rule, fallbackCalibration: fallbackCalibration, screen: screen, line: nil,
                               into: &batch)
        precondition(batch.isEmpty, "adding \(description.sysname) decided something: pass a batch and look at it")
        return id
    }
}
