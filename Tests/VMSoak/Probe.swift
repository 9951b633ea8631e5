import GesturedIO
import GesturedTestSupport
import Glibc

/// What the soak measures of the daemon from outside, through /proc: resident memory, open
/// descriptors, and the clients connected to its socket (the daemon's ends of the connections:
/// sockets in /proc/net/unix bound to the socket's path, the listening one aside).
struct Probe {
    let pid: pid_t
    let socket: String

    struct Sample {
        var frame: Int
        var seconds: Double
        var rssKiB: Int
        var descriptors: Int
        var clients: Int
        var churnClients: Int
        var linesRead: Int
    }

    func rssKiB() -> Int {
        guard let status = try? readTextFile(path: "/proc/\(pid)/status") else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    func descriptors() -> Int {
        guard let directory = opendir("/proc/\(pid)/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { count += 1 }
        }
        return count
    }

    func clients() -> Int {
        guard let table = try? readTextFile(path: "/proc/net/unix") else { return -1 }
        let bound = table.split(separator: "\n").filter { $0.hasSuffix(" " + socket) }.count
        return bound - 1
    }
}
