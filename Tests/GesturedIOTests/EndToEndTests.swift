import GesturedCore
import GesturedIO
import GesturedTestSupport
import Glibc
import Testing

/// The whole daemon, from an emulated touchscreen to socket clients.
///
/// Builds nothing itself: runs the `gestured` next to the test bundle (`.build/debug/gestured`)
/// in libumockdev's testbed with the synthetic 10-slot touchscreen (`RunningDaemon`); each test
/// plays its recording once its clients are connected and have made their requests.
@Suite struct EndToEndTests {
    static let tapConfig = """
        { screen: {width: 1000, height: 1000}, views: [{id: "root", gestures: [{id: "tap", type: "tap"}]}] }
        """

    @Test func tapOnAnEmulatedTouchscreenReachesAClient() throws {
        guard let daemon = try RunningDaemon(config: Self.tapConfig) else { return }
        let client = try daemon.connect()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        try daemon.play()
        let tap = try #require(try daemon.firstLine(from: client, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended tap view=root device=event"), "\(tap)")
        #expect(tap.contains(" x=500.") && tap.contains(" y=500."))
        #expect(tap.contains(" touches=1") && tap.contains(" taps=1"))
        try daemon.stop(readingRestOf: [client])
    }

    /// The single tap must wait for the double tap to fail: no event comes after the lift, so the
    /// line can only come from the daemon's timerfd firing at the pipeline's deadline.
    @Test func aDeadlineFiresWithNoFurtherEvent() throws {
        guard let daemon = try RunningDaemon(config: """
            { screen: {width: 1000, height: 1000}, views: [{id: "root", gestures: [
                {id: "single", type: "tap", requireToFail: ["double"]},
                {id: "double", type: "tap", numberOfTapsRequired: 2}]}] }
            """) else { return }
        let client = try daemon.connect()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        try daemon.play()
        let tap = try #require(try daemon.firstLine(from: client, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended single view=root device=event"), "\(tap)")
        try daemon.stop(readingRestOf: [client])
    }

    /// `run --trace` logs every transition with its reason at debug priority, and the
    /// configuration's warnings are logged once at start.
    @Test func traceAndWarningsAreLogged() throws {
        guard let daemon = try RunningDaemon(config: """
            { screen: {width: 1000, height: 1000}, views: [{id: "root", gestures: [
                {id: "single", type: "tap", requireToFail: ["double"]},
                {id: "double", type: "tap", numberOfTapsRequired: 2}],
              subviews: [{id: "away", frame: [2000, 0, 10, 10]}]}] }
            """, arguments: ["--trace"]) else { return }
        let client = try daemon.connect()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        try daemon.play()
        let tap = try #require(try daemon.firstLine(from: client, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended single "), "\(tap)")
        try daemon.stop(readingRestOf: [client])
        let log = daemon.log.split(separator: "\n")
        let traces = log.filter { $0.hasPrefix("<7>trace ") }.map { $0.split(separator: " ", maxSplits: 2).last.map(String.init) ?? "" }
        #expect(traces == ["single: possible → waiting (requires double to fail)",
                           "double: possible → failed (no tap 2 within maximumTapInterval 0.3 s)",
                           "single: waiting → possible (double failed)",
                           "single: possible → ended (1 tap of 1 touch)"], "\(daemon.log)")
        #expect(log.filter { $0.hasPrefix("<4>warning: ") && $0.hasSuffix("views[0].subviews[0]: view \"away\" can never be hit: no part of its hit area is on the 1000×1000 screen inside its parents' hit areas") }.count == 1,
                "\(daemon.log)")
    }

    /// `subscribe trace` without `--trace`: the client gets every transition with its reason as
    /// `trace` lines, before the gesture line of the same batch; a client that did not subscribe
    /// gets none, and the log gets none either (tracing was asked for by the client only).
    @Test func aClientSubscribedToTheTraceGetsTransitionsWithReasons() throws {
        guard let daemon = try RunningDaemon(config: """
            { screen: {width: 1000, height: 1000}, views: [{id: "root", gestures: [
                {id: "single", type: "tap", requireToFail: ["double"]},
                {id: "double", type: "tap", numberOfTapsRequired: 2}]}] }
            """) else { return }
        let tracer = try daemon.connect(), plain = try daemon.connect()
        try tracer.send(line: "subscribe trace")
        #expect(try tracer.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        #expect(try tracer.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=subscribe")
        #expect(try plain.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        try daemon.play()
        var lines: [String] = []
        while let line = try tracer.readLine(deadline: deadline(milliseconds: 10_000)) {
            lines.append(line)
            if line.hasPrefix("gesture ") { break }
        }
        // `trace text="TIME name: old → new (why)"`: the text without its time.
        let traces = lines.filter { $0.hasPrefix("trace text=\"") }.map { line in
            String(line.dropFirst("trace text=\"".count).dropLast().drop { $0 != " " }.dropFirst())
        }
        #expect(traces == ["single: possible → waiting (requires double to fail)",
                           "double: possible → failed (no tap 2 within maximumTapInterval 0.3 s)",
                           "single: waiting → possible (double failed)",
                           "single: possible → ended (1 tap of 1 touch)"], "\(lines)")
        #expect(lines.count == traces.count + 1 && lines.last?.hasPrefix("gesture tap ended single ") == true, "\(lines)")
        let plainLine = try #require(try daemon.firstLine(from: plain, startingWith: "gesture "))
        #expect(plainLine.hasPrefix("gesture tap ended single "))
        let rest = try daemon.stop(readingRestOf: [plain])
        #expect(rest.first?.contains { $0.hasPrefix("trace ") } == false, "\(rest)")
        #expect(!daemon.log.contains("trace "), "\(daemon.log)")
    }

    /// A value beyond the advertised range is clamped (the tap lands on the top edge) and
    /// logged as a warning; a rule's grab is taken and logged.
    @Test func outOfRangeValueIsClampedAndWarnedAndGrabIsTaken() throws {
        guard let daemon = try RunningDaemon(config: """
            { screen: {width: 1000, height: 1000}, devices: [{ match: { type: "touchscreen" }, grab: true }],
              views: [{id: "root", gestures: [{id: "tap", type: "tap"}]}] }
            """) else { return }
        let client = try daemon.connect()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        try daemon.play("synthetic-out-of-range.events")
        let tap = try #require(try daemon.firstLine(from: client, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended tap ") && tap.contains(" x=500.") && tap.contains(" y=0.00 "), "\(tap)")
        try daemon.stop(readingRestOf: [client])
        #expect(daemon.log.contains("<4>event7: position outside the advertised axis range, clamped"), "\(daemon.log)")
        #expect(daemon.log.contains("<6>event7: grabbed (EVIOCGRAB)"), "\(daemon.log)")
    }

    /// Each client gets what it asked for: one JSON with touch lines, one text filtered to swipes
    /// (it receives nothing of the tap), one whose request is refused with an error line and
    /// which, its state unchanged, receives the gesture lines every client gets by default.
    @Test func clientsGetWhatTheyAskFor() throws {
        guard let daemon = try RunningDaemon(config: Self.tapConfig) else { return }
        let json = try daemon.connect(), swipes = try daemon.connect(), rude = try daemon.connect()
        try json.send(line: "format json")
        try json.send(line: "subscribe touches")
        try swipes.send(line: "filter type=swipe")
        try rude.send(line: "subscribe everything")
        #expect(try json.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        #expect(try json.readLine(deadline: deadline(milliseconds: 5000)) == "{\"event\":\"ok\",\"command\":\"format\"}")
        #expect(try json.readLine(deadline: deadline(milliseconds: 5000)) == "{\"event\":\"ok\",\"command\":\"subscribe\"}")
        #expect(try swipes.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        #expect(try swipes.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=filter")
        #expect(try rude.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        #expect(try rude.readLine(deadline: deadline(milliseconds: 5000)) ==
                "error command=subscribe message=\"unknown stream 'everything' (touches, failed or trace)\"")
        try daemon.play()
        var events: [String] = []
        while let line = try json.readLine(deadline: deadline(milliseconds: 10_000)) {
            events.append(line)
            if line.contains("\"event\":\"gesture\"") { break }
        }
        #expect(events.map { $0.split(separator: ",").prefix(2).joined(separator: ",") } == [
            "{\"event\":\"touch\",\"phase\":\"began\"",
            "{\"event\":\"touch\",\"phase\":\"ended\"",
            "{\"event\":\"gesture\",\"type\":\"tap\"",
        ])
        // seq counts lines sent to anyone: the touch lines went to one client only, and still count.
        #expect(events.last?.contains("\"seq\":3") == true, "\(events)")
        let rest = try daemon.stop(readingRestOf: [swipes, rude])
        #expect(rest.first == [], "the swipe-only client got an event")
        #expect(rest.last?.count == 1 && rest.last?.first?.hasPrefix("gesture tap ended tap ") == true, "\(rest)")
    }
}

extension EndToEndTests {
    /// SIGHUP reloads: the tap, played after the reload, arrives under the new configuration's
    /// id; an invalid new file is reported and the old configuration stays in force.
    @Test(arguments: [(true, "gesture tap ended renamed "), (false, "gesture tap ended tap ")])
    func sighupReloads(valid: Bool, expected: String) throws {
        guard let daemon = try RunningDaemon(config: Self.tapConfig) else { return }
        let client = try daemon.connect()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        _ = try daemon.directory.write("c.json5", valid
            ? #"{ screen: {width: 1000, height: 1000}, views: [{id: "root", gestures: [{id: "renamed", type: "tap"}]}] }"#
            : #"{ views: [ { id: "root", gestures: [ { id: "x", type: "tapp" } ] } ] }"#)
        #expect(kill(try daemon.pid(), SIGHUP) == 0)
        // The signal is pending before the ping is sent, and the daemon's one loop handles its
        // signalfd no later than the batch that answers the ping: the reload is done before the
        // tap can be read.
        try client.send(line: "ping")
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=ping")
        try daemon.play()
        let tap = try #require(try daemon.firstLine(from: client, startingWith: "gesture "))
        #expect(tap.hasPrefix(expected), "\(tap)\n\(daemon.log)")
        try daemon.stop(readingRestOf: [client])
        if valid {
            #expect(daemon.log.contains("configuration reloaded from"))
        } else {
            #expect(daemon.log.contains("c.json5:1:55: views[0].gestures[0].type: unknown gesture type \"tapp\""), "\(daemon.log)")
            #expect(daemon.log.contains("reload failed; the previous configuration stays in force"))
        }
    }

    /// A FIFO where the configuration was (someone swapped it in): the reload refuses it at once
    /// instead of waiting for a writer that never comes, the loop goes on answering, and the old
    /// configuration stays in force (security review: it used to block the loader forever).
    @Test func sighupWithAFifoForTheConfigurationRefusesItWithoutBlocking() throws {
        guard let daemon = try RunningDaemon(config: Self.tapConfig) else { return }
        let client = try daemon.connect()
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        let path = daemon.directory.path + "/c.json5"
        #expect(unlink(path) == 0)
        #expect(mkfifo(path, 0o600) == 0)
        #expect(kill(try daemon.pid(), SIGHUP) == 0)
        try client.send(line: "ping")
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=ping")
        try daemon.play()
        let tap = try #require(try daemon.firstLine(from: client, startingWith: "gesture "))
        #expect(tap.hasPrefix("gesture tap ended tap "), "\(tap)\n\(daemon.log)")
        try daemon.stop(readingRestOf: [client])
        #expect(daemon.log.contains("c.json5: cannot read: not a regular file (a FIFO)"), "\(daemon.log)")
        #expect(daemon.log.contains("reload failed; the previous configuration stays in force"))
    }
}

/// `gestured run` inside libumockdev's testbed (`Testbed`, HotplugTests.swift) with the synthetic
/// 10-slot touchscreen at event7 from the start, idle until the test plays a recording on it.
///
/// A test connects its clients, reads a hello (the daemon accepts clients only once it has opened
/// its devices, so event7 is open by then), makes its requests, and only then calls `play`: no
/// line can go out before the test is ready for it, however slowly the machine runs.
struct RunningDaemon {
    let bed: Testbed
    var socket: String { bed.socket }
    var directory: TestEnvironment.TemporaryDirectory { bed.directory }
    var log: String { bed.log }

    /// Nil (with the reason recorded as an issue) when the daemon, the test tool or umockdev is
    /// missing.
    init?(config: String, arguments: [String] = []) throws {
        guard let bed = try Testbed(config: config, devices: ["event7"], arguments: arguments, prefix: "gestured-e2e") else {
            return nil
        }
        self.bed = bed
    }

    /// Replays `events` (a recording in Tests/Fixtures/recordings, or an absolute path) on event7
    /// from now on, from its first touch (the idle start of the recordings is skipped).
    func play(_ events: String = "synthetic-tap.events") throws {
        let path = events.hasPrefix("/") ? events : TestEnvironment.recordings + "/" + events
        let answer = try bed.command("play event7 \(path)")
        guard answer == "ok" else {
            Issue.record("play \(events): \(answer); stderr:\n\(log)")
            throw EndToEndFailure()
        }
    }

    /// The daemon's own pid.
    func pid() throws -> pid_t {
        let answer = try bed.command("pid")
        return try #require(pid_t(answer.dropFirst(3)), "\(answer)")
    }

    /// A connected client (its hello not read yet).
    func connect() throws -> LineClient {
        do { return try LineClient(path: socket, deadline: deadline(milliseconds: 10_000)) } catch {
            Issue.record("no daemon listening at \(socket) after 10 s (\(error)); stderr:\n\(log)")
            throw EndToEndFailure()
        }
    }

    func firstLine(from client: LineClient, startingWith prefix: String) throws -> String? {
        let limit = deadline(milliseconds: 10_000)
        while let line = try client.readLine(deadline: limit) {
            #expect(!line.isEmpty, "an empty line on the socket")
            if line.hasPrefix(prefix) { return line }
        }
        Issue.record("no line starting with \(prefix); stderr:\n\(log)")
        return nil
    }

    /// SIGTERM to the daemon: a clean exit, the socket file removed. Returns the event lines each
    /// client still had to read, to the daemon's close (no empty line among them).
    @discardableResult
    func stop(readingRestOf clients: [LineClient]) throws -> [[String]] {
        #expect(try bed.quit() == "ok exit exit status 0", "stderr:\n\(log)")
        var status = stat()
        #expect(lstat(socket, &status) == -1, "the socket file remains after SIGTERM")
        var rest: [[String]] = []
        for client in clients {
            var lines: [String] = []
            while let line = try client.readLine(deadline: deadline(milliseconds: 5000)) {
                #expect(!line.isEmpty, "an empty line on the socket")
                lines.append(line)
            }
            rest.append(lines)
        }
        return rest
    }
}

struct EndToEndFailure: Error {}

extension EndToEndTests {
    /// With no touchscreen (this machine has no /dev/input), the daemon still starts, says it
    /// waits, serves its socket, and stops cleanly.
    @Test func withoutATouchscreenTheDaemonServesAndWaits() throws {
        let directory = try TestEnvironment.TemporaryDirectory(prefix: "gestured-nodev")
        let socket = directory.path + "/g.sock", stderrPath = directory.path + "/stderr"
        let process = try Subprocess(TestEnvironment.buildDirectory + "/gestured", ["run", "--socket", socket],
                                     stdout: .discard, stderr: .file(stderrPath))
        let client = try LineClient(path: socket, deadline: deadline(milliseconds: 10_000))
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "hello version=1 daemon=gestured")
        try client.send(line: "ping")
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "ok command=ping")
        // No device, so no read yet: an empty histogram, in the client's format.
        try client.send(line: "stats")
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "stats reads=0 p50Us=0 p90Us=0 p99Us=0 p999Us=0 maxUs=0")
        try client.send(line: "format json")
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000)) == "{\"event\":\"ok\",\"command\":\"format\"}")
        try client.send(line: "stats")
        #expect(try client.readLine(deadline: deadline(milliseconds: 5000))?.hasPrefix("{\"event\":\"stats\",\"reads\":0,") == true)
        process.send(signal: SIGTERM)
        let (termination, timedOut) = try #require(try process.wait(deadline: deadline(milliseconds: 10_000)))
        #expect(!timedOut && termination == .exited(0))
        let log = (try? readTextFile(path: stderrPath)) ?? ""
        #expect(log.contains("<6>no touchscreen found; waiting for clients on \(socket)"), "\(log)")
        var status = stat()
        #expect(lstat(socket, &status) == -1)
    }
}
