import CLinux
import FoundationEssentials
import GesturedCore
import GesturedIO
import Glibc

/// Paths and scratch space for tests and the developer tool.
public enum TestEnvironment {
    /// The package root, from this file's location (`Tests/Support/TestEnvironment.swift`).
    public static var packageRoot: String {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }

    /// Whether this process is built with AddressSanitizer (`make test-sanitize`): then so are the
    /// daemon and tools the tests start, and their resident memory says nothing about leaks (the
    /// sanitizer's shadow memory, redzones and quarantine), so memory-growth checks do not apply.
    public static let addressSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    /// The repository's own recordings.
    public static var recordings: String { packageRoot + "/Tests/Fixtures/recordings" }

    /// The running executable's path (`/proc/self/exe`), or nil.
    public static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The release build's `product` next to this (debug) build directory: what `make test`
    /// builds with `--static-swift-stdlib` before the tests run.
    public static func releaseProduct(_ product: String) -> String {
        var parts = buildDirectory.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/release/" + product
    }

    /// The directory of the running executable (for tests: the build directory, where the
    /// package's executables such as `gestured` and `gestured-testtool` are).
    public static var buildDirectory: String {
        guard let path = executablePath else { return "." }
        var components = path.split(separator: "/", omittingEmptySubsequences: false)
        // On Linux the test bundle is a file `<name>.xctest` in the build directory; elsewhere
        // it can be a directory holding the binary. Either way, take what contains the bundle.
        if let bundle = components.firstIndex(where: { $0.hasSuffix(".xctest") }) {
            components.removeSubrange(bundle...)
        } else {
            components.removeLast()
        }
        return components.joined(separator: "/")
    }

    /// The first of `names` found in `PATH`, or nil.
    public static func which(_ name: String) -> String? {
        let path = Subprocess.currentEnvironment()["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// A new empty directory under `$TMPDIR` (default `/tmp`; the VM guest sets it, since its
    /// `/tmp` is the host's, read-only), removed when the value is released.
    public final class TemporaryDirectory {
        public let path: String
        public init(prefix: String = "gestured-test") throws(SystemError) {
            let base = Subprocess.currentEnvironment()["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
            guard let result = mkdtemp(&template) else { throw SystemError(operation: "mkdtemp", errno: .current) }
            path = String(cString: result)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// Writes `text` to `name` in the directory and returns the full path.
        @discardableResult
        public func write(_ name: String, _ text: String) throws(SystemError) -> String {
            let file = path + "/" + name
            try writeFile(path: file, text)
            return file
        }
    }

    /// Writes `text` to `path` (created or truncated).
    public static func writeFile(path: String, _ text: String) throws(SystemError) {
        let fd = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        defer { try? fd.close() }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd.rawValue, $0.baseAddress! + written, $0.count - written) }
            if count == -1 {
                if Errno.current == .interrupted { continue }
                throw SystemError(operation: "write", path: path, errno: .current)
            }
            written += count
        }
    }
}

extension TestEnvironment {
    /// Waits until `path` exists (inotify on its folder, and poll() with the deadline; no
    /// sleeping). Returns false when the deadline passes first. For files that appear by a
    /// rename, so that existing means complete.
    public static func waitForFile(_ path: String, deadline: Instant) -> Bool {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let notify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        defer { if notify >= 0 { Glibc.close(notify) } }
        if notify >= 0 { inotify_add_watch(notify, directory, UInt32(IN_CREATE | IN_MOVED_TO)) }
        while access(path, F_OK) != 0 {
            let remaining = (deadline - MonotonicClock.now()).microseconds / 1000
            if remaining <= 0 || notify < 0 { return access(path, F_OK) == 0 }
            var pollFD = pollfd(fd: notify, events: Int16(POLLIN), revents: 0)
            _ = poll(&pollFD, 1, Int32(min(remaining, 60_000)))
            var drain = [UInt8](repeating: 0, count: 4096)
            while drain.withUnsafeMutableBytes({ Glibc.read(notify, $0.baseAddress, $0.count) }) > 0 {}
        }
        return true
    }
}

extension TestEnvironment {
    /// Waits until the file at `path` contains `text` (inotify on its folder for changes, and
    /// poll() with the deadline; no sleeping): for a log or a file a command appends to. Returns
    /// false when the deadline passes first.
    public static func waitForText(_ text: String, inFile path: String, deadline: Instant) -> Bool {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let notify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        defer { if notify >= 0 { Glibc.close(notify) } }
        if notify >= 0 { inotify_add_watch(notify, directory, UInt32(IN_CREATE | IN_MOVED_TO | IN_MODIFY | IN_CLOSE_WRITE)) }
        func found() -> Bool { ((try? readTextFile(path: path)) ?? "").contains(text) }
        while !found() {
            let remaining = (deadline - MonotonicClock.now()).microseconds / 1000
            if remaining <= 0 || notify < 0 { return found() }
            var pollFD = pollfd(fd: notify, events: Int16(POLLIN), revents: 0)
            _ = poll(&pollFD, 1, Int32(min(remaining, 60_000)))
            var drain = [UInt8](repeating: 0, count: 4096)
            while drain.withUnsafeMutableBytes({ Glibc.read(notify, $0.baseAddress, $0.count) }) > 0 {}
        }
        return true
    }
}

/// A `Instant` some milliseconds from now on CLOCK_MONOTONIC.
public func deadline(milliseconds: Int64) -> Instant {
    MonotonicClock.now() + .milliseconds(milliseconds)
}
