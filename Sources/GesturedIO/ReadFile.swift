import Glibc

/// Reads a whole regular file (configuration, recordings).
///
/// - Parameters:
///   - path: the file.
///   - limit: the largest size accepted, in bytes (a recording of a million events is about
///     35 MB); larger files throw `EFBIG` rather than exhausting memory.
public func readFile(path: String, limit: Int = 512 << 20) throws(SystemError) -> [UInt8] {
    let fd = try FileDescriptor.open(path, flags: O_RDONLY)
    defer { try? fd.close() }
    var bytes: [UInt8] = []
    // Sized once from fstat, so that reading a large recording never regrows and copies the
    // array (a million-frame recording is about 80 MB); a file that is not regular, or has
    // grown since, still reads completely, growing as it goes.
    var status = stat()
    if fstat(fd.rawValue, &status) == 0 && status.st_mode & S_IFMT == S_IFREG {
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
