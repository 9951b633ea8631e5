import GesturedCore
@testable import gestured

extension LivePipeline {
    /// Prepares and adds a device in one go, without its `device added` line (the tests that
    /// drive the pipeline's parts directly have no hotplug).
    func add(_ description: DeviceDescription, _ admitted: DeviceAdmission.Admitted) throws(EvdevFrameDecoder.Unsupported)
        -> GesturePipeline.DeviceID {
        let prepared = try prepare(description, admitted)
        add(prepared, line: nil)
        return prepared.id
    }
}
