import Glibc

/// A sysfs attribute kept open and read again with `pread` at offset 0 (sysfs regenerates an
/// attribute's text for every read from its start): one system call per reading, no open or
/// close each time. The screen's `dpms` or `bl_power`, read when a touch sequence begins.
public final class SysfsAttribute {
    public let path: String
    private let descriptor: FileDescriptor
    /// Room for any attribute this reads (`Standby\n`, a number).
    private var buffer = [UInt8](repeating: 0, count: 64)

    public init(path: String) throws(SystemError) {
        self.path = path
        descriptor = try FileDescriptor.open(path, flags: O_RDONLY)
    }

    /// The attribute's text now.
    public func read() throws(SystemError) -> String {
        let fd = descriptor.rawValue, path = self.path
        var result: Result<Int, SystemError> = .success(0)
        buffer.withUnsafeMutableBytes { raw in
            do throws(SystemError) {
                result = .success(try syscall("pread", path: path, onInterrupt: .retry) { pread(fd, raw.baseAddress, raw.count, 0) })
            } catch {
                result = .failure(error)
            }
        }
        let count = try result.get()
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    public func close() { try? descriptor.close() }
}
