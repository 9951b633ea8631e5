import CLinux
import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The configuration's gesture actions, end to end: the daemon runs the command for the tap with
/// the gesture's environment and logs its output and status; a command past its timeout gets
/// SIGTERM; a command that cannot start changes nothing for the clients.
///
/// The commands report through a FIFO that the test reads with poll() and a deadline.
@Suite struct ActionEndToEndTests {
    static func config(action: String) -> String {
        """
        { screen: {width: 1000, height: 1000}, views: [{ id: "root", gestures: [
            { id: "tap", type: "tap", action: \(action) }] }] }
        """
    }

    /// Opens `path` (a FIFO) for reading without blocking and returns the first line written
    /// to it before `deadline`.
    static func readFIFO(_ path: String, deadline limit: Instant) -> String? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var text: [UInt8] = []
        while MonotonicClock.now() < limit {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(max(1, (limit - MonotonicClock.now()).microseconds / 1000)))
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { text += buffer[..<n] }
            if let newline = text.firstIndex(of: UInt8(ascii: "\n")) { return String(decoding: text[..<newline], as: UTF8.self) }
        }
        return nil
    }

    /// Whether process `pid` (not a child of this one) has ended before `deadline`: its pidfd
    /// becomes readable when it exits; a pid already reaped has none.
    static func waitForExit(of pid: pid_t, deadline limit: Instant) -> Bool {
        let fd = pidfd_open(pid, 0)
        guard fd >= 0 else { return errno == ESRCH }
        defer { close(fd) }
        while MonotonicClock.now() < limit {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(max(1, (limit - MonotonicClock.now()).microseconds / 1000))) == 1 { return true }
        }
        return false
    }

    @Test func anActionRunsWithTheGestureEnvironmentAndItsOutputIsLogged() throws {
        let scratch = try TestEnvironment.TemporaryDirectory(prefix: "gestured-action")
        let fifo = scratch.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let script = try scratch.write("action.sh", """
            #!/bin/sh
            echo "said $1"
            echo "$GESTURE_TYPE $GESTURE_STATE $GESTURE_NAME $GESTURE_VIEW ${NOTIFY_SOCKET:-none} $$" > "\(fifo)"
            """)
        #expect(chmod(script, 0o755) == 0)
        guard let daemon = try RunningDaemon(config: Self.config(action: #"{ on: "ended", run: ["\#(script)", "hi there"], timeout: 5 }"#))
        else { return }
        let client = try daemon.connect()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        try daemon.play()
        let reported = try #require(Self.readFIFO(fifo, deadline: deadline(milliseconds: 10_000)))
        #expect(reported.split(separator: " ").dropLast().joined(separator: " ") == "tap ended tap root none")
        // The command exits right after reporting; stopping the daemon before that would end it
        // with SIGTERM. Its exit is waited for through a pidfd.
        let pid = try #require(pid_t(reported.split(separator: " ").last ?? ""), "\(reported)")
        #expect(Self.waitForExit(of: pid, deadline: deadline(milliseconds: 10_000)), "pid \(pid) still runs")
        let tap = try #require(try daemon.firstLine(from: client, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended tap "))
        try daemon.stop(readingRestOf: [client])
        #expect(daemon.log.contains("<6>action tap: started \(script) (pid "), "\(daemon.log)")
        #expect(daemon.log.contains("): said hi there"), "\(daemon.log)")
        #expect(daemon.log.contains("): exit status 0"), "\(daemon.log)")
    }

    @Test func anActionPastItsTimeoutIsTerminated() throws {
        let scratch = try TestEnvironment.TemporaryDirectory(prefix: "gestured-action")
        let fifo = scratch.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let script = try scratch.write("slow.sh", """
            #!/bin/sh
            trap 'echo "terminated $$" > "\(fifo)"; exit 3' TERM
            sleep 30 &
            wait
            """)
        #expect(chmod(script, 0o755) == 0)
        guard let daemon = try RunningDaemon(config: Self.config(action: #"{ run: ["\#(script)"], timeout: 0.2 }"#)) else { return }
        let client = try daemon.connect()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        let start = MonotonicClock.now()
        try daemon.play()
        let reported = try #require(Self.readFIFO(fifo, deadline: deadline(milliseconds: 10_000)))
        #expect(reported.hasPrefix("terminated "))
        // The tap comes at once; the timeout 0.2 s after it, far before sleep's 30 s.
        #expect(MonotonicClock.now() - start < .milliseconds(8000))
        let pid = try #require(pid_t(reported.split(separator: " ").last ?? ""), "\(reported)")
        #expect(Self.waitForExit(of: pid, deadline: deadline(milliseconds: 10_000)), "pid \(pid) still runs")
        try daemon.stop(readingRestOf: [client])
        #expect(daemon.log.contains("): timed out, sending SIGTERM"), "\(daemon.log)")
        #expect(daemon.log.contains("): exit status 3"), "\(daemon.log)")
    }

    /// A program that does not exist: a warning, and the client still gets the tap.
    @Test func anActionThatCannotStartDoesNotAffectRecognition() throws {
        guard let daemon = try RunningDaemon(config: Self.config(action: #"{ run: ["/nonexistent/program"] }"#)) else { return }
        let client = try daemon.connect()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        try daemon.play()
        let tap = try #require(try daemon.firstLine(from: client, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended tap "))
        try daemon.stop(readingRestOf: [client])
        #expect(daemon.log.contains("<4>action tap: cannot run /nonexistent/program: "), "\(daemon.log)")
    }

    /// `power.wakeAction` runs when the wake touch is claimed, with the `wake` line's `KIOSK_*`
    /// variables, and is logged under its name; the next tap is an ordinary gesture.
    @Test func theWakeActionRunsWithTheWakeLinesEnvironment() throws {
        let scratch = try TestEnvironment.TemporaryDirectory(prefix: "gestured-action")
        let fifo = scratch.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let script = try scratch.write("wake.sh", """
            #!/bin/sh
            echo "$KIOSK_EVENT $KIOSK_DEVICE $KIOSK_SEQ" > "\(fifo)"
            """)
        #expect(chmod(script, 0o755) == 0)
        let config = """
            { screen: {width: 1000, height: 1000}, power: { wakeAction: { run: ["\(script)"], timeout: 5 } },
              views: [{ id: "root", gestures: [{ id: "tap", type: "tap" }] }] }
            """
        guard let daemon = try RunningDaemon(config: config) else { return }
        let client = try daemon.connect()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        let off = try CtlEndToEndTests.ctl(daemon, ["screen", "off"])
        #expect(off.termination == .exited(0), "\(off.stderr)")
        try daemon.play("synthetic-two-taps.events")
        let wake = try #require(try client.readLine(deadline: deadline(milliseconds: 10_000)))
        #expect(wake.hasPrefix("wake device=event7 "), "\(wake)")
        #expect(Self.readFIFO(fifo, deadline: deadline(milliseconds: 10_000)) == "wake event7 1")
        let tap = try #require(try daemon.firstLine(from: client, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended tap "), "\(tap)")
        try daemon.stop(readingRestOf: [client])
        #expect(daemon.log.contains("<6>action power.wakeAction: started \(script) (pid "), "\(daemon.log)")
    }
}
