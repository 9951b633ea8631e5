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
        // The stream ended: listen waits for the command, then exits.
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
}
