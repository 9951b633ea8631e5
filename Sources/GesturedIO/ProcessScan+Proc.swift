import Glibc

/// The file-level reads of `ProcessScan`: directory listings by descriptor, small files
/// relative to a process's directory, and executable paths for dpkg.
extension ProcessScan {
    /// Calls `body` with each entry of `name` (in `directory`) whose name is a number, and the
    /// listed directory's descriptor, until `body` returns false; a directory that cannot be
    /// opened has no entries.
    static func forEachNumericEntry(of directory: Int32, _ name: String, _ body: (Int32, Int32) -> Bool) {
        guard let fd = try? syscall("openat", path: name, onInterrupt: .retry, {
            openat(directory, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }) else { return }
        // closedir closes fd.
        guard let stream = try? syscall("fdopendir", path: name, { fdopendir(fd) }) else {
            try? FileDescriptor(rawValue: fd).close()
            return
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let number = withUnsafeBytes(of: entry.pointee.d_name) { bytes -> Int32? in
                let text = bytes.prefix { $0 != 0 }
                guard !text.isEmpty, text.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
                return Int32(String(decoding: text, as: UTF8.self))
            }
            if let number, !body(number, dirfd(stream)) { return }
        }
    }

    /// At most `limit` bytes of the file `name` in `directory`.
    static func read(at directory: Int32, _ name: String, limit: Int) throws(SystemError) -> [UInt8] {
        let fd = try syscall("openat", path: name, onInterrupt: .retry) { openat(directory, name, O_RDONLY | O_CLOEXEC) }
        defer { try? FileDescriptor(rawValue: fd).close() }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let n = try syscall("read", path: name, onInterrupt: .retry) {
                bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, limit - count) }
            }
            if n == 0 { break }
            count += n
        }
        return Array(bytes[..<count])
    }

    /// The path of the file `exe` (a `/proc/PID/exe`) links to, in the caller's tree, for dpkg
    /// (never for a judgement: `identity` is). The link's text is that path, except for a
    /// process in a mount namespace of its own (a compositor under a unit with PrivateTmp=, or
    /// `unshare -m`), whose mounts the kernel cannot name from here: it gives the path from that
    /// namespace's root, e.g. `/host/root/…/rootfs/usr/bin/sway`. Then the longest tail of it
    /// (`/usr/bin/sway`) that is the same file (device and inode) is the one dpkg knows.
    public static func executable(of exe: String) -> String? {
        guard let text = link(exe) else { return nil }
        guard let target = try? identity(exe) else { return text }
        return sameFileTail(of: text) { path in (try? identity(path)) == target } ?? text
    }

    /// `path` itself, or else its longest tail starting at a `/` for which `isTheFile` holds; nil
    /// when none does.
    public static func sameFileTail(of path: String, isTheFile: (String) -> Bool) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var tail = Substring(path)
        while !tail.isEmpty {
            if isTheFile(String(tail)) { return String(tail) }
            guard let next = tail.dropFirst().firstIndex(of: "/") else { return nil }
            tail = tail[next...]
        }
        return nil
    }

    static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard let count = try? syscall("readlink", path: path, onInterrupt: .retry, { readlink(path, &buffer, buffer.count - 1) }),
              count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
