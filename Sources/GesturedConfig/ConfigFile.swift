import Glibc

/// Reading the configuration file: the one place this library makes system calls.
enum ConfigFile {
    /// Larger files are refused: a configuration is a few kilobytes, and the file may be anyone's.
    static let maximumSize = 4 << 20

    /// Why a file could not be read, worded for a diagnostic.
    struct ReadError: Error {
        var message: String
    }

    /// The whole file at `path`.
    /// - Throws: `ReadError` with the errno text ("cannot read: No such file or directory").
    static func read(path: String) throws(ReadError) -> [UInt8] {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw ReadError(message: "cannot open: \(errnoText())") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(message: "cannot read: \(errnoText())")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= maximumSize else {
                throw ReadError(message: "cannot read: the file is larger than \(maximumSize >> 20) MiB")
            }
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    /// The byte offset where UTF-8 decoding of `bytes` first fails (`bytes.count` if it does not).
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return offset
            }
        }
    }
}
