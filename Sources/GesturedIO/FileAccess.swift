import Glibc

/// Whether this process may use `path` as `mode` asks (`access(2)`: `F_OK` it exists, `X_OK` it
/// may be run), judged by the real uid. Any failure is a no: callers only choose what to try.
public func isAccessible(_ path: String, _ mode: Int32) -> Bool {
    (try? syscall("access", path: path, onInterrupt: .retry) { access(path, mode) }) != nil
}
