import Glibc

/// Reads a whole file (recordings, which may also come from a pipe: `replay <(…)`).
///
/// - Parameters:
///   - path: the file.
///   - limit: the largest size accepted, in bytes (a recording of a million events is about
///     35 MB); larger files throw `EFBIG` rather than exhausting memory.
public func readFile(path: String, limit: Int = 512 << 20) throws(SystemError) -> [UInt8] {
    let fd = try FileDescriptor.open(path, flags: O_RDONLY)
    defer { try? fd.close() }
    return try readAll(fd, path: path, limit: limit)
}

/// Why `readRegularFile` gave no bytes.
public enum FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    case system(SystemError)
    /// The path names something other than a regular file (`kind`: "a FIFO", "a directory"…).
    case notRegular(path: String, kind: String)
    /// The file or a directory on its path may be written by someone other than its owner, or
    /// has an owner that is not trusted (`StrictModes`); `reason` names which, and the fix.
    case insecure(path: String, reason: String)

    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .notRegular(let path, let kind): "\(path): not a regular file (\(kind))"
        case .insecure(let path, let reason): "\(path): refused: \(reason)"
        }
    }
}

/// Reads a whole regular file: a configuration or a stroke template file. Anything else is
/// refused before a byte is read: the open does not block (`O_NONBLOCK`), so a FIFO put where the
/// configuration belongs cannot hang the daemon's start or a SIGHUP reload waiting for a writer,
/// and a device node or a directory is named as such. With `strictModes`, a file that someone
/// other than its owner may write, or whose owner is not trusted, is refused too, before a byte
/// is read (the file as opened, and the directories on its path: `StrictModes`).
public func readRegularFile(path: String, limit: Int, strictModes: StrictModes? = nil) throws(FileReadError) -> [UInt8] {
    let fd: FileDescriptor
    do { fd = try FileDescriptor.open(path, flags: O_RDONLY | O_NONBLOCK | O_NOCTTY) } catch { throw .system(error) }
    defer { try? fd.close() }
    var status = stat()
    do { try syscall("fstat", path: path, onInterrupt: .retry) { fstat(fd.rawValue, &status) } } catch { throw .system(error) }
    let type = status.st_mode & S_IFMT
    guard type == S_IFREG else {
        let kind = switch type {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "of file type \(String(type, radix: 8))"
        }
        throw .notRegular(path: path, kind: kind)
    }
    try strictModes?.check(path, status: status)
    do { return try readAll(fd, path: path, limit: limit) } catch { throw .system(error) }
}

/// Reads `fd` to its end.
private func readAll(_ fd: FileDescriptor, path: String, limit: Int) throws(SystemError) -> [UInt8] {
    var bytes: [UInt8] = []
    // Sized once from fstat, so that reading a large recording never regrows and copies the
    // array (a million-frame recording is about 80 MB); a file that is not regular, or has
    // grown since, still reads completely, growing as it goes.
    var status = stat()
    if (try? syscall("fstat", path: path, onInterrupt: .retry, { fstat(fd.rawValue, &status) })) != nil,
       status.st_mode & S_IFMT == S_IFREG {
        bytes.reserveCapacity(min(Int(status.st_size), limit) + 1)
    }
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
    defer { chunk.deallocate() }
    while true {
        let count: Int
        do { count = try fd.read(into: chunk) } catch { throw SystemError(operation: "read", path: path, errno: error.errno) }
        if count == 0 { return bytes }
        guard bytes.count + count <= limit else {
            throw SystemError(operation: "read (larger than \(limit) bytes)", path: path, errno: .fileTooLarge)
        }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
    }
}

/// Reads a whole file as UTF-8 text (invalid sequences become U+FFFD).
public func readTextFile(path: String, limit: Int = 512 << 20) throws(SystemError) -> String {
    String(decoding: try readFile(path: path, limit: limit), as: UTF8.self)
}

/// Writes `bytes` as the whole content of `path` (created with mode 0644, or truncated).
public func writeFile(path: String, bytes: [UInt8]) throws(SystemError) {
    let fd = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
    defer { try? fd.close() }
    var offset = 0
    while offset < bytes.count {
        let n = try syscall("write", path: path, onInterrupt: .retry) {
            bytes[offset...].withUnsafeBytes { Glibc.write(fd.rawValue, $0.baseAddress, $0.count) }
        }
        offset += n
    }
}

/// A file read in pieces that each end at a newline (the last piece may not): the memory is one
/// buffer (`bufferSize`, grown only for a line longer than it), not the file. `gestured replay`
/// streams its recordings with one each.
public final class LineReader {
    public let path: String
    private let fd: FileDescriptor
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    /// `buffer[handed..<filled]` was read but not handed out yet (a line's beginning).
    private var handed = 0
    private var filled = 0
    private var atEnd = false

    public init(path: String, bufferSize: Int = 256 << 10) throws(SystemError) {
        self.path = path
        fd = try FileDescriptor.open(path, flags: O_RDONLY)
        buffer = .allocate(capacity: max(bufferSize, 1))
        buffer.initialize(repeating: 0)
    }

    deinit {
        try? fd.close()
        buffer.deallocate()
    }

    /// The next piece: whole lines, or the file's last bytes; nil at the end of the file. It
    /// stays valid until the next call.
    public func next() throws(SystemError) -> UnsafeBufferPointer<UInt8>? {
        if handed > 0 {
            memmove(buffer.baseAddress!, buffer.baseAddress! + handed, filled - handed)
            filled -= handed
            handed = 0
        }
        while !atEnd {
            if filled == buffer.count {
                let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: buffer.count * 2)
                larger.initialize(repeating: 0)
                _ = larger.update(fromContentsOf: buffer)
                buffer.deallocate()
                buffer = larger
            }
            let count: Int
            do { count = try fd.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[filled...]))) } catch {
                throw SystemError(operation: "read", path: path, errno: error.errno)
            }
            if count == 0 { atEnd = true; break }
            let scanFrom = filled
            filled += count
            // The last newline of what was just read ends the piece.
            var i = filled
            while i > scanFrom && buffer[i - 1] != UInt8(ascii: "\n") { i -= 1 }
            if i > scanFrom {
                handed = i
                return piece(handed)
            }
        }
        guard filled > 0 else { return nil }
        handed = filled
        return piece(filled)
    }

    private func piece(_ end: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[..<end])
    }
}
