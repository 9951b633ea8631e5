import CEvdev
import GesturedCore
import Glibc

/// One evdev node read through libevdev (which keeps the slot state and resynchronizes after
/// `SYN_DROPPED`).
public final class EvdevDevice {
    /// What one `read(into:)` ended with.
    public enum ReadStatus: Hashable, Sendable {
        /// Every pending event was read (the node would block).
        case drained
        /// The kernel dropped events (`SYN_DROPPED`). The events appended are: those before the
        /// drop, the `SYN_DROPPED` event itself, libevdev's synthesized events that bring the
        /// state up to date (ending with `SYN_REPORT`), then those after. Everything is drained.
        case resynced
        /// The device was unplugged (`ENODEV`); close it.
        case gone
    }

    public let path: String
    public let descriptor: FileDescriptor
    private var device: OpaquePointer?
    /// Where `read(into:)` reads: 256 events (6 KiB), more than ten fingers' frames.
    private var buffer = [input_event](repeating: input_event(), count: 256)
    /// The state this reader has delivered, put into libevdev only for a resync.
    private var delivered: EvdevDeliveredState

    /// Opens `path` non-blocking and lets libevdev read the device's capabilities and state.
    public init(path: String) throws(SystemError) {
        self.path = path
        descriptor = try FileDescriptor.open(path, flags: O_RDONLY | O_NONBLOCK)
        var device: OpaquePointer?
        do {
            try negativeErrno("libevdev_new_from_fd", path: path, libevdev_new_from_fd(descriptor.rawValue, &device))
        } catch {
            try? descriptor.close()
            throw error
        }
        guard let device else {
            try? descriptor.close()
            throw SystemError(operation: "libevdev_new_from_fd", path: path, errno: .outOfMemory)
        }
        self.device = device
        delivered = EvdevDeliveredState(from: device)
    }

    public static func open(path: String) throws(SystemError) -> EvdevDevice { try EvdevDevice(path: path) }

    /// The libevdev handle, for `UinputClone` (its capabilities and axes; the values of its state
    /// are those at open or at the last resync, see `EvdevDeliveredState`); nil once closed.
    var handle: OpaquePointer? { device }

    deinit { close() }

    /// Asks the kernel to stamp events with CLOCK_MONOTONIC (`EVIOCSCLOCKID`), the clock the
    /// deadline timer runs on. Returns false when that fails (always under umockdev): the
    /// caller then warns and uses its own read times instead of event times for deadlines.
    public func setMonotonicClock() -> Bool {
        guard let device else { return false }
        return (try? negativeErrno("libevdev_set_clock_id", path: path, libevdev_set_clock_id(device, CLOCK_MONOTONIC))) != nil
    }

    /// Takes (or releases) exclusive use of the device (`EVIOCGRAB`), for kiosks.
    public func grab(_ exclusive: Bool) throws(SystemError) {
        guard let device else { return }
        try negativeErrno("EVIOCGRAB", path: path, libevdev_grab(device, exclusive ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB))
    }

    /// The device as the core sees it.
    public func description(sysname: String) -> DeviceDescription {
        guard let device else { return DeviceDescription(sysname: sysname, name: "") }
        func axis(_ code: UInt16) -> AxisInfo? {
            guard libevdev_has_event_code(device, UInt32(EventCode.EV_ABS), UInt32(code)) != 0,
                  let info = libevdev_get_abs_info(device, UInt32(code)) else { return nil }
            return AxisInfo(minimum: info.pointee.minimum, maximum: info.pointee.maximum,
                            fuzz: info.pointee.fuzz, flat: info.pointee.flat, resolution: info.pointee.resolution)
        }
        return DeviceDescription(
            sysname: sysname,
            name: libevdev_get_name(device).map { String(cString: $0) } ?? "",
            bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
            x: axis(EventCode.ABS_X), y: axis(EventCode.ABS_Y),
            mtX: axis(EventCode.ABS_MT_POSITION_X), mtY: axis(EventCode.ABS_MT_POSITION_Y),
            slotCount: max(0, Int(libevdev_get_num_slots(device))),
            hasTrackingID: libevdev_has_event_code(device, UInt32(EventCode.EV_ABS),
                                                   UInt32(EventCode.ABS_MT_TRACKING_ID)) != 0,
            isDirect: libevdev_has_property(device, UInt32(EventCode.INPUT_PROP_DIRECT)) != 0,
            isFakeMultitouch: libevdev_has_event_code(device, UInt32(EventCode.EV_ABS),
                                                      UInt32(EventCode.ABS_RESERVED)) != 0)
    }

    /// Appends the pending events to `events` with one `read(2)` into a preallocated buffer,
    /// resynchronizing through libevdev after `SYN_DROPPED`.
    ///
    /// One read per call: a read shorter than the buffer means the kernel's queue is empty, and
    /// when it fills the buffer the level-triggered epoll set reports the node again. libevdev
    /// keeps doing what it is good at (capabilities, the resync): each EV_ABS and EV_KEY event
    /// read is recorded in `delivered` with libevdev's rules, and put into libevdev at a
    /// `SYN_DROPPED`, so that the events it synthesizes are the difference between what this
    /// reader last delivered and the kernel's state, as if libevdev had read everything itself.
    public func read(into events: inout [RawEvent]) throws(SystemError) -> ReadStatus {
        guard let device else { return .gone }
        let stride = MemoryLayout<input_event>.stride
        let count: Int
        do {
            count = try syscall("read", path: path, onInterrupt: .retry) {
                buffer.withUnsafeMutableBytes { Glibc.read(descriptor.rawValue, $0.baseAddress, $0.count) }
            }
        } catch where error.errno == .wouldBlock {
            return .drained
        } catch where error.isNoSuchDevice {
            return .gone
        }
        let dropped = buffer.withUnsafeBufferPointer { read in
            Self.take(read.prefix(count / stride), delivered: &delivered, into: &events)
        }
        guard let dropped else { return .drained }
        // Everything after the drop in this buffer is older than the state the resync reads from
        // the kernel (and libevdev drains the kernel's queue): it was not taken.
        return try resync(device, at: dropped, into: &events)
    }

    /// Appends `read` to `events` and records it in `delivered`, up to and including a
    /// `SYN_DROPPED`, whose time it returns. Static, with `delivered` passed `inout`, so that the
    /// class's stored property is checked for exclusive access once per read, not per event.
    private static func take(_ read: Slice<UnsafeBufferPointer<input_event>>, delivered: inout EvdevDeliveredState,
                             into events: inout [RawEvent]) -> Instant? {
        delivered.withApplier { delivered in
            for event in read {
                let raw = rawEvent(event)
                events.append(raw)
                if event.type == UInt16(EventCode.EV_SYN) && event.code == UInt16(EventCode.SYN_DROPPED) { return raw.time }
                delivered.apply(type: event.type, code: event.code, value: event.value)
            }
            return nil
        }
    }

    /// The events libevdev synthesizes to bring its state (what was delivered) up to the
    /// kernel's, ending with `SYN_REPORT`.
    /// The events libevdev synthesizes carry the time of the last event *it* read, which is old:
    /// the reads above bypass it. They are stamped `time`, the kernel's time of the drop, so a
    /// resynchronized frame never goes back in time.
    private func resync(_ device: OpaquePointer, at time: Instant, into events: inout [RawEvent]) throws(SystemError) -> ReadStatus {
        delivered.write(to: device)
        // Whatever the resync ends with, what was appended is libevdev's state from here on.
        defer { delivered.read(from: device) }
        var event = input_event()
        var result = libevdev_next_event(device, LIBEVDEV_READ_FLAG_FORCE_SYNC.rawValue, &event)
        while true {
            do {
                try negativeErrno("libevdev_next_event", path: path, result)
            } catch where error.errno == .wouldBlock {
                return .resynced
            } catch where error.isNoSuchDevice {
                return .gone
            } catch where error.errno == .interrupted {
                // Interrupted before libevdev read anything: ask again.
            } catch {
                throw error
            }
            result = libevdev_next_event(device, LIBEVDEV_READ_FLAG_SYNC.rawValue, &event)
            if result == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                var synthesized = Self.rawEvent(event)
                synthesized.time = time
                events.append(synthesized)
            }
        }
    }

    /// Releases libevdev and closes the node. Safe to call twice.
    public func close() {
        guard let device else { return }
        libevdev_free(device)
        self.device = nil
        try? descriptor.close()
    }

    private static func rawEvent(_ event: input_event) -> RawEvent {
        RawEvent(time: Instant(seconds: Int64(event.time.tv_sec), microseconds: Int64(event.time.tv_usec)),
                 type: event.type, code: event.code, value: event.value)
    }
}
