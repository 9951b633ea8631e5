@testable import gestured
import Glibc
@testable import GesturedIO

/// A test's device source (`DeviceSource`): the devices it lists as present, and announcements
/// it makes readable through a real pipe in the loop's poller, as udev's monitor would be.
final class ListedDevices: DeviceSource {
    /// What `present()` returns.
    var listed: [InputDeviceInfo]
    /// How many times the present devices were asked for (start, each reload).
    private(set) var enumerations = 0
    /// How many announcements the loop has taken.
    private(set) var taken = 0
    private var waiting: [UdevMonitor.Event] = []
    private let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor

    init(_ listed: [InputDeviceInfo] = []) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SystemError(operation: "pipe", errno: .current) }
        for end in ends { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        readEnd = FileDescriptor(rawValue: ends[0])
        writeEnd = FileDescriptor(rawValue: ends[1])
        self.listed = listed
    }

    deinit {
        close(readEnd.rawValue)
        close(writeEnd.rawValue)
    }

    var descriptor: FileDescriptor? { readEnd }

    func present() throws(SystemError) -> [InputDeviceInfo] {
        enumerations += 1
        return listed
    }

    /// Makes `action` (`add`, `remove`, `change`) of `device` wait for the loop.
    func announce(_ action: String, _ device: InputDeviceInfo) {
        waiting.append(UdevMonitor.Event(action: action, device: device))
        var byte: UInt8 = 1
        _ = write(writeEnd.rawValue, &byte, 1)
    }

    func announcements() -> [UdevMonitor.Event] {
        var drained = [UInt8](repeating: 0, count: 64)
        while read(readEnd.rawValue, &drained, drained.count) > 0 {}
        defer { waiting.removeAll() }
        taken += waiting.count
        return waiting
    }
}
