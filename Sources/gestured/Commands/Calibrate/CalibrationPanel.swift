import GesturedCalibration
import GesturedCore
import GesturedIO
import Glibc

/// The panel `gestured calibrate` measures: chosen among the devices the configuration uses
/// (the same admission as `run`), opened, grabbed for the whole measurement, its raw positions
/// turned into `CalibrationSession` inputs.
///
/// The grab keeps the measuring touches from the application, and it is how two readers never
/// fight: when another program holds the panel exclusively (gestured's own `passThrough` or
/// `grab`, or a compositor that grabs it), `EVIOCGRAB` fails with EBUSY and calibrate refuses,
/// naming the commands that stop the daemon for the measurement and start it again. The grab is
/// released on every way out: `close()` on the paths the command returns by, and the kernel
/// when the process dies (a grab belongs to the open file).
final class CalibrationPanel {
    let candidate: DeviceCandidate
    private var decoder: EvdevFrameDecoder
    private let axes: (x: AxisInfo, y: AxisInfo)
    private var scratch: [RawEvent] = []
    var label: String { "\(candidate.info.sysname) (\(candidate.info.name))" }

    /// The commands that stop and start the daemon around a measurement.
    static let stopDaemon = "sudo systemctl stop gestured.socket gestured.service"
    static let startDaemon = "sudo systemctl start gestured.socket gestured.service"

    /// Chooses (`CalibrationPanelChoice`), opens and grabs the panel.
    init(configuration: Configuration, glob: String?) throws(CommandFailure) {
        let infos: [InputDeviceInfo]
        do { infos = try UdevEnumerator.inputDevices() } catch {
            throw CommandFailure(ExitStatus.failure, "udev enumeration failed: \(error)")
        }
        var candidates: [DeviceCandidate] = []
        for info in infos {
            guard let candidate = DeviceCandidate.admit(info, configuration: configuration) else { continue }
            guard candidate.description.positionAxes != nil, (try? EvdevFrameDecoder(device: candidate.description)) != nil else {
                Log.warning("\(info.sysname) (\(info.name)): no usable position axes, ignoring")
                candidate.evdev.close()
                continue
            }
            candidates.append(candidate)
        }
        let chosen: Int
        switch CalibrationPanelChoice.choose(candidates.map { ($0.info.sysname, $0.info.name) }, glob: glob) {
        case .success(let index): chosen = index
        case .failure(let refusal):
            for candidate in candidates { candidate.evdev.close() }
            throw CommandFailure(ExitStatus.failure, refusal.description)
        }
        for (i, other) in candidates.enumerated() where i != chosen { other.evdev.close() }
        candidate = candidates[chosen]
        let (x, y) = candidate.description.positionAxes!
        axes = (x, y)
        decoder = try! EvdevFrameDecoder(device: candidate.description)
        do { try candidate.evdev.grab(true) } catch where error.isBusy {
            candidate.evdev.close()
            throw CommandFailure(ExitStatus.failure, lines: [
                "\(label): another program holds it exclusively (EVIOCGRAB: EBUSY): gestured's passThrough or grab, "
                    + "or a compositor; calibrate never reads a panel another reader has grabbed",
                "stop the daemon for the measurement (`\(Self.stopDaemon)`), run calibrate again, "
                    + "then `\(Self.startDaemon)`"])
        } catch {
            candidate.evdev.close()
            throw CommandFailure(ExitStatus.failure, "\(label): cannot grab it (EVIOCGRAB): \(error); "
                                 + "without the grab the measuring touches would reach the application")
        }
    }

    deinit { close() }

    private var closed = false
    /// Releases the grab and closes the node.
    func close() {
        guard !closed else { return }
        closed = true
        try? candidate.evdev.grab(false)
        candidate.evdev.close()
    }

    /// The session's inputs from the events pending on the node, in order; nil when the panel
    /// went away.
    func read() throws(CommandFailure) -> [CalibrationSession.Input]? {
        scratch.removeAll(keepingCapacity: true)
        let status: EvdevDevice.ReadStatus
        do { status = try candidate.evdev.read(into: &scratch) } catch {
            throw CommandFailure(ExitStatus.failure, "\(label): read failed: \(error)")
        }
        var inputs: [CalibrationSession.Input] = []
        for event in scratch where decoder.feed(event) {
            for change in decoder.frame.changes {
                let point = NormalizedPoint(change.position, x: axes.x, y: axes.y)
                switch change.phase {
                case .began: inputs.append(.down(id: change.slot, at: point))
                case .moved: inputs.append(.motion(id: change.slot, at: point))
                case .ended: inputs.append(.up(id: change.slot))
                case .cancelled: inputs.append(.cancel)
                }
            }
        }
        return status == .gone ? nil : inputs
    }
}
