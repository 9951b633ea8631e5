import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// `gestured listen --filter … --exec CMD` against the emulated touchscreen: the command runs for
/// the tap with the line's fields in its environment, with and without a shell.
///
/// `listen` connects to the test, which relays between it and the daemon: the test so knows that
/// `listen` is connected and its filter in force before it plays the tap.
@Suite struct ListenExecTests {
    @Test(arguments: [false, true])
    func execRunsTheCommandWithTheGestureEnvironment(shell: Bool) throws {
        guard let daemon = try RunningDaemon(config: EndToEndTests.tapConfig) else { return }
        let dir = daemon.directory.path
        let script = try daemon.directory.write("on-tap.sh", """
            #!/bin/sh
            { echo "args=$*"; env | grep '^GESTURE_' | sort; } > "\(dir)/out.tmp" && mv "\(dir)/out.tmp" "\(dir)/out"
            """)
        #expect(chmod(script, 0o755) == 0)
        // Without a shell, "a;b" is one plain argument; with one, the shell runs the script.
        let command = shell ? "\(script) \"$GESTURE_NAME\" 'x y'" : "\(script) a;b $HOME"
        var started: Subprocess?
        let downstream = try LineClient.acceptFirst(at: dir + "/relay.sock", deadline: deadline(milliseconds: 10_000)) {
            started = try Subprocess(TestEnvironment.buildDirectory + "/gestured",
                                     ["listen", "--socket", dir + "/relay.sock", "--filter", "type=tap", "--exec", command]
                                         + (shell ? ["--shell"] : []),
                                     stdout: .file(dir + "/listen.out"), stderr: .file(dir + "/listen.err"))
        }
        let listen = try #require(started)
        let upstream = try daemon.connect()
        #expect(try downstream.readLine(deadline: deadline(milliseconds: 5000)) == "filter type=tap")
        try upstream.send(line: "filter type=tap")
        for expected in ["hello version=1 daemon=gestured", "ok command=filter"] {
            let line = try upstream.readLine(deadline: deadline(milliseconds: 5000))
            #expect(line == expected)
            try downstream.send(line: line ?? "")
        }
        try daemon.play()
        let tap = try #require(try daemon.firstLine(from: upstream, startingWith: "gesture tap"))
        try downstream.send(line: tap)
        for line in try daemon.stop(readingRestOf: [upstream]).joined() { try downstream.send(line: line) }
        #expect(shutdown(downstream.descriptor.rawValue, Int32(SHUT_WR)) == 0)   // the end of the stream, as the daemon's close
        // The stream ended: listen has handled every line and looks for the daemon again; SIGTERM
        // ends it once the command is done.
        #expect(TestEnvironment.waitForText("lost the daemon", inFile: dir + "/listen.err", deadline: deadline(milliseconds: 10_000)))
        listen.send(signal: SIGTERM)
        let (termination, timedOut) = try #require(try listen.wait(deadline: deadline(milliseconds: 10_000)))
        #expect(!timedOut && termination == .exited(0), "\((try? readTextFile(path: dir + "/listen.err")) ?? "")")
        #expect((try? readTextFile(path: dir + "/listen.out")) == "", "--exec prints no lines")
        let lines = try readTextFile(path: dir + "/out").split(separator: "\n").map(String.init)
        #expect(lines.first == (shell ? "args=tap x y" : "args=a;b $HOME"))
        let variables = lines.dropFirst().map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? "" }
        #expect(variables == ["GESTURE_DEVICE", "GESTURE_LINE", "GESTURE_NAME", "GESTURE_SEQ", "GESTURE_STATE",
                              "GESTURE_TAPS", "GESTURE_TIME", "GESTURE_TOUCHES", "GESTURE_TYPE", "GESTURE_VIEW",
                              "GESTURE_VIEW_X", "GESTURE_VIEW_Y", "GESTURE_X", "GESTURE_Y"])
        #expect(lines.contains("GESTURE_TYPE=tap") && lines.contains("GESTURE_STATE=ended") && lines.contains("GESTURE_NAME=tap"))
        #expect(lines.contains("GESTURE_VIEW=root") && lines.contains("GESTURE_DEVICE=event7") && lines.contains { $0.hasPrefix("GESTURE_X=500.") })
    }

    /// `listen --exec` outlives the daemon (an upgrade restarts it): a tap before the restart and
    /// one after it each run the command once. The socket path is a symbolic link, pointed at the
    /// second daemon's socket once the first has stopped, as the service's path is the same
    /// after a restart. Fails where listen ends with the first daemon's stream.
    @Test func execReconnectsAfterTheDaemonRestarts() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-reconnect")
        let dir = directory.path, link = dir + "/g.sock", runs = dir + "/runs"
        let script = try directory.write("on-tap.sh", "#!/bin/sh\necho \"$GESTURE_NAME\" >> \(runs)\n")
        #expect(chmod(script, 0o755) == 0)
        func point(at socket: String) {
            unlink(dir + "/next")
            #expect(symlink(socket, dir + "/next") == 0 && rename(dir + "/next", link) == 0)
        }
        guard let first = try RunningDaemon(config: EndToEndTests.tapConfig) else { return }
        point(at: first.socket)
        // listen's first connection must succeed (a wrong path is an error, not an outage).
        #expect(TestEnvironment.waitForText("listening on", inFile: first.bed.stderrPath, deadline: deadline(milliseconds: 10_000)),
                "\(first.log)")
        let listen = try Subprocess(TestEnvironment.buildDirectory + "/gestured", ["listen", "--socket", link, "--exec", script],
                                    stdout: .file(dir + "/listen.out"), stderr: .file(dir + "/listen.err"))
        defer { listen.send(signal: SIGKILL) }
        func listenLog() -> String { (try? readTextFile(path: dir + "/listen.err")) ?? "" }
        // The daemon logs a client once it has it: from then on, it gets the tap.
        #expect(TestEnvironment.waitForText(": connected", inFile: first.bed.stderrPath, deadline: deadline(milliseconds: 10_000)),
                "\(first.log)")
        try first.play()
        #expect(TestEnvironment.waitForText("tap\n", inFile: runs, deadline: deadline(milliseconds: 10_000)), "\(listenLog())")
        try first.stop(readingRestOf: [])
        #expect(TestEnvironment.waitForText("lost the daemon", inFile: dir + "/listen.err", deadline: deadline(milliseconds: 10_000)))

        guard let second = try RunningDaemon(config: EndToEndTests.tapConfig) else { return }
        point(at: second.socket)
        #expect(TestEnvironment.waitForText(": connected", inFile: second.bed.stderrPath, deadline: deadline(milliseconds: 10_000)),
                "\(listenLog())")
        try second.play()
        #expect(TestEnvironment.waitForText("tap\ntap\n", inFile: runs, deadline: deadline(milliseconds: 10_000)), "\(listenLog())")
        try second.stop(readingRestOf: [])
        listen.send(signal: SIGTERM)
        let (termination, timedOut) = try #require(try listen.wait(deadline: deadline(milliseconds: 10_000)))
        #expect(!timedOut && termination == .exited(0), "\(listenLog())")
        // Once per tap, nothing repeated; one message per outage and one when it is back.
        #expect((try? readTextFile(path: runs)) == "tap\ntap\n")
        let messages = listenLog().split(separator: "\n").map(String.init)
        #expect(messages.filter { $0.contains("lost the daemon at \(link) (end of stream)") }.count == 2, "\(messages)")
        #expect(messages.filter { $0.contains("connected to \(link) again after ") }.count == 1, "\(messages)")
    }
}
