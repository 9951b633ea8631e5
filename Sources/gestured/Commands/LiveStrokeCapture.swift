import GesturedConfig
import GesturedCore
import GesturedIO
import Glibc

/// `record-stroke` without a RECORDING: the events of the first touch sequence (first touch
/// down to the last lift) drawn on any touch device the configuration uses, the devices chosen
/// by the same rules as `run` (`DeviceCandidate`). Turning the events into a template is
/// `StrokeCommands`'s, the same as for a recording.
enum LiveStrokeCapture {
    struct Capture {
        var device: DeviceDescription
        var events: [RawEvent]
        /// `live device event7 (NAME)`, for messages and the template file's comment.
        var label: String
    }

    private struct Reading {
        let candidate: DeviceCandidate
        let monotonic: Bool
        var events: [RawEvent] = []
        /// The device's replay, fed as its events are read (nil: the configuration cannot
        /// replay it, and no stroke ends on it).
        var session: Replay.Session?
        var collector = StrokeCollector()
        var label: String { "\(candidate.info.sysname) (\(candidate.info.name))" }

        init(candidate: DeviceCandidate, monotonic: Bool, configuration: Configuration) {
            self.candidate = candidate
            self.monotonic = monotonic
            session = try? Replay.Session(devices: [candidate.description], configuration: configuration, touches: true)
        }

        /// Feeds `events` to the replay; whether every finger of the first touch sequence has
        /// lifted. Touches cancelled (not lifted) do not end a sequence.
        mutating func feed(_ new: [RawEvent]) -> Bool {
            events += new
            guard session != nil else { return false }
            for event in new {
                session!.handle(event, of: 0)
                for case .touch(let touch) in session!.batch.outputs where touch.update.phase != .cancelled { collector.add(touch) }
            }
            return !collector.strokes.isEmpty
        }
    }

    /// Waits at most `timeout` seconds for a touch sequence to end on one of the devices.
    static func capture(configuration: Configuration, timeout: Double) throws(CommandFailure) -> Capture {
        let infos: [InputDeviceInfo]
        do { infos = try UdevEnumerator.inputDevices() } catch {
            throw CommandFailure(ExitStatus.failure, "udev enumeration failed: \(error)")
        }
        var readings: [Reading] = []
        for info in infos {
            guard let candidate = DeviceCandidate.admit(info, configuration: configuration) else { continue }
            do { _ = try EvdevFrameDecoder(device: candidate.description) } catch {
                Log.warning("\(info.sysname) (\(info.name)): not usable: \(error), ignoring")
                candidate.evdev.close()
                continue
            }
            readings.append(Reading(candidate: candidate, monotonic: candidate.evdev.setMonotonicClock(),
                                    configuration: configuration))
        }
        defer { for reading in readings { reading.candidate.evdev.close() } }
        guard !readings.isEmpty else {
            throw CommandFailure(ExitStatus.failure, "no touch device: none that the configuration uses is present "
                                 + "(`gestured devices` lists every input device and why it is used or not)")
        }
        let poller: Poller
        do {
            poller = try Poller()
            for (index, reading) in readings.enumerated() {
                try poller.add(reading.candidate.evdev.descriptor, token: UInt64(index), events: .readable)
            }
        } catch {
            throw CommandFailure(ExitStatus.failure, "cannot watch the touch devices: \(error)")
        }
        defer { try? poller.close() }
        let names = readings.map(\.label)
        let seconds = timeout.rounded() == timeout && timeout < 1e9 ? String(Int(timeout)) : "\(timeout)"
        Log.plain("draw the shape on \(names.count == 1 ? names[0] : "one of " + names.joined(separator: ", ")) now "
                  + "(waiting up to \(seconds) s)")
        let deadline = MonotonicClock.now() + Interval(seconds: timeout)
        var open = readings.count
        var scratch: [RawEvent] = []
        while true {
            let remaining = deadline - MonotonicClock.now()
            guard remaining > .zero else {
                throw CommandFailure(ExitStatus.failure, "no stroke drawn within \(seconds) s (--timeout SECONDS gives more time)")
            }
            let ready: [PollResult]
            do { ready = try poller.wait(timeout: Int32(min(remaining.microseconds / 1000 + 1, Int64(Int32.max)))) } catch {
                throw CommandFailure(ExitStatus.failure, "waiting for the touch devices: \(error)")
            }
            for result in ready {
                let index = Int(result.token)
                let candidate = readings[index].candidate
                scratch.removeAll(keepingCapacity: true)
                let status: EvdevDevice.ReadStatus
                do { status = try candidate.evdev.read(into: &scratch) } catch {
                    Log.warning("\(readings[index].label): read failed: \(error), ignoring it")
                    status = .gone
                }
                if !readings[index].monotonic {
                    let now = MonotonicClock.now()
                    for i in scratch.indices { scratch[i].time = now }
                }
                if readings[index].feed(scratch) {
                    Log.plain("recorded the stroke drawn on \(readings[index].label)")
                    return Capture(device: candidate.description, events: readings[index].events,
                                   label: "live device " + readings[index].label)
                }
                if status == .gone || (status == .drained && !result.events.isDisjoint(with: [.hangup, .error])) {
                    try? poller.remove(candidate.evdev.descriptor)
                    open -= 1
                    Log.warning("\(readings[index].label): removed before a stroke ended")
                    if open == 0 { throw CommandFailure(ExitStatus.failure, "every touch device went away before a stroke ended") }
                }
            }
        }
    }
}
