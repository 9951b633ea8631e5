import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `ChildProcess(…, account:)`: a child started as another user (a root caller dropping its rights
/// for `gestured-surface`, issue #44 item 4), with no supplementary groups, and the failure of
/// its exec reported as the start's error.
@Suite struct ChildProcessAccountTests {
    static func output(_ arguments: [String], as account: (uid: UInt32, gid: UInt32)) throws -> String {
        let pipe = try ChildProcess.outputPipe()
        try pipe.read.setStatusFlag(O_NONBLOCK, false)
        let child: ChildProcess
        do {
            defer { try? pipe.write.close() }
            child = try ChildProcess(arguments, environment: ["PATH=/usr/bin:/bin"], stdout: pipe.write, account: account)
        }
        defer { try? pipe.read.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = read(pipe.read.rawValue, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        #expect(try child.wait(blocking: true) == .exited(0))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// As root: uid, gid and groups are the account's alone. A user cannot drop groups
    /// (setgroups needs CAP_SETGID): the start fails, and only root is ever given an account.
    @Test func theChildRunsAsTheAccount() throws {
        guard getuid() == 0 else {
            #expect(throws: SystemError(operation: "spawn as uid \(getuid())", path: "/bin/sh", errno: Errno(rawValue: EPERM))) {
                _ = try ChildProcess(["/bin/sh", "-c", "true"], environment: [], account: (getuid(), getgid()))
            }
            return
        }
        let said = try Self.output(["/bin/sh", "-c", "id -u; id -g; id -G"], as: (uid: 65534, gid: 65533))
        #expect(said == "65534\n65533\n65533\n", "\(said)")
    }

    /// The child's failure (its exec as root; setgroups as a user) is the start's error.
    @Test func aChildThatCannotStartIsTheStartsError() {
        let account = getuid() == 0 ? (uid: UInt32(65534), gid: UInt32(65534)) : (uid: getuid(), gid: getgid())
        let errno = Errno(rawValue: getuid() == 0 ? ENOENT : EPERM)
        #expect(throws: SystemError(operation: "spawn as uid \(account.uid)", path: "/nonexistent/surface", errno: errno)) {
            _ = try ChildProcess(["/nonexistent/surface"], environment: [], account: account)
        }
    }
}
