import CEvdev
@testable import GesturedIO
import GesturedCore
import Glibc
import Testing

/// The clone guard's side (`CloneGuard.serve`) in this process, on pipes: what it writes to the
/// uinput descriptor when the daemon's pipe ends, in the style the daemon last sent. The guard
/// as a process, on a real clone and a real compositor, is tested in the kernel guest
/// (GesturedVMTests/CompositorVMTests, PassThroughVMTests).
struct CloneGuardTests {
    /// A pipe (read end, write end), both close-on-exec.
    static func pipe() throws -> (FileDescriptor, FileDescriptor) {
        var fds: [Int32] = [0, 0]
        try #require(Glibc.pipe(&fds) == 0)
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// Every `input_event` readable from `fd` until its end, as (type, code, value).
    static func events(_ fd: FileDescriptor) throws -> [RawEvent] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let n = Glibc.read(fd.rawValue, &chunk, chunk.count), n > 0 { bytes += chunk[..<n] }
        let size = MemoryLayout<input_event>.stride
        try #require(bytes.count % size == 0, "\(bytes.count) bytes")
        return stride(from: 0, to: bytes.count, by: size).map { offset in
            bytes[offset..<(offset + size)].withUnsafeBytes { raw in
                let event = raw.loadUnaligned(as: input_event.self)
                return RawEvent(time: .zero, type: event.type, code: event.code, value: event.value)
            }
        }
    }

    static func serve(sending messages: [UInt8], from style: CancelStyle, slots: Int = 3,
                      touchButton: Bool = true) throws -> (CloneGuard.Ending, [RawEvent]) {
        let (uinputRead, uinputWrite) = try pipe()
        let (controlRead, controlWrite) = try pipe()
        try controlWrite.writeAll(messages)
        try controlWrite.close()   // the daemon is gone
        let ending = try CloneGuard.serve(uinput: uinputWrite, control: controlRead, signals: nil, slotCount: slots,
                                          hasTouchButton: touchButton, style: style, grace: .zero)
        defer { try? controlRead.close(); try? uinputRead.close() }
        return (ending, try events(uinputRead))   // serve closed uinputWrite: the read ends
    }

    @Test func whenTheDaemonsPipeEndsTheGuardEndsEverySlotInTheStyleItWasStartedWith() throws {
        let (ending, written) = try Self.serve(sending: [], from: .lift)
        #expect(ending == .released)
        #expect(written == CloneEncoder.endingEverySlot(slotCount: 3, hasTouchButton: true, cancelStyle: .lift))
        #expect(written.filter { $0.code == EventCode.ABS_MT_TOOL_TYPE }.isEmpty)
    }

    @Test func aStyleTheDaemonSentLaterIsTheOneUsed() throws {
        let (_, palm) = try Self.serve(sending: [CloneGuard.message(.palm)], from: .lift, touchButton: false)
        #expect(palm == CloneEncoder.endingEverySlot(slotCount: 3, hasTouchButton: false, cancelStyle: .palm))
        #expect(palm.filter { $0.code == EventCode.ABS_MT_TOOL_TYPE }.map(\.value) == [2, 2, 2])
        let (_, back) = try Self.serve(sending: [CloneGuard.message(.palm), CloneGuard.message(.lift)], from: .lift)
        #expect(back == CloneEncoder.endingEverySlot(slotCount: 3, hasTouchButton: true, cancelStyle: .lift))
    }

    @Test func theMessagesAreOneByteEachAndUnknownBytesChangeNothing() {
        #expect(CloneGuard.style(after: [], from: .palm) == .palm)
        #expect(CloneGuard.style(after: [CloneGuard.message(.lift)], from: .palm) == .lift)
        #expect(CloneGuard.style(after: [0, 255, CloneGuard.message(.palm), 7], from: .lift) == .palm)
        #expect(Set(CancelStyle.allCases.map(CloneGuard.message)).count == CancelStyle.allCases.count)
    }
}
