import Glibc

/// The Debian package that owns an executable, and its version, as dpkg knows them:
/// `dpkg -S PATH` (also tried without `/usr` in front, for files a package installs under `/bin`
/// or `/lib` on a merged-/usr system), then `dpkg-query -W -f '${Version}' PACKAGE`. nil when
/// dpkg is missing or does not know the file.
public enum DebianPackages {
    public static func owner(of executable: String) -> (package: String, version: String?)? {
        var paths = [executable]
        if executable.hasPrefix("/usr/") { paths.append(String(executable.dropFirst(4))) }
        for path in paths {
            guard let answer = output(["dpkg", "-S", path]), let package = package(dpkgSearch: answer, path: path) else { continue }
            let version = output(["dpkg-query", "-W", "-f", "${Version}", package]).flatMap { $0.isEmpty ? nil : $0 }
            return (package, version)
        }
        return nil
    }

    /// `cage: /usr/bin/cage` → `cage`; `xserver-xorg-core:amd64: /usr/lib/xorg/Xorg` →
    /// `xserver-xorg-core` (the architecture dropped); a diversion's or several packages' line: the first.
    public static func package(dpkgSearch answer: String, path: String) -> String? {
        for line in answer.split(separator: "\n") where line.hasSuffix(": " + path) && !line.hasPrefix("diversion ") {
            let names = line.dropLast(path.count + 2).split(separator: ",").map { $0.trimmingPrefix(" ") }
            guard let first = names.first, !first.isEmpty else { continue }
            return String(first.split(separator: ":").first ?? first)
        }
        return nil
    }

    /// The command's standard output (at most 64 KiB) when it exits 0, else nil.
    static func output(_ arguments: [String]) -> String? {
        guard let pipe = try? ChildProcess.outputPipe() else { return nil }
        let null = try? FileDescriptor.open("/dev/null", flags: O_RDWR)
        defer { try? null?.close() }
        let child: ChildProcess
        do {
            child = try ChildProcess(arguments, environment: ChildProcess.environment(adding: [("LC_ALL", "C")]),
                                     stdin: null, stdout: pipe.write, stderr: null)
        } catch {
            try? pipe.write.close(); try? pipe.read.close()
            return nil
        }
        try? pipe.write.close()
        try? pipe.read.setStatusFlag(O_NONBLOCK, false)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 16 {
            guard let count = try? chunk.withUnsafeMutableBytes({ buffer throws(SystemError) in try pipe.read.read(into: buffer) }),
                  count > 0 else { break }
            bytes += chunk[..<count]
        }
        // Closed before the wait: a child with more to say gets EPIPE instead of blocking.
        try? pipe.read.close()
        guard case .exited(0)? = try? child.wait(blocking: true) else { return nil }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
