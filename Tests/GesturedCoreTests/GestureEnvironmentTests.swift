import Testing
@testable import GesturedCore

struct GestureEnvironmentTests {
    @Test func everyFieldOfAGestureLineBecomesAVariable() throws {
        let event = GestureEvent(type: "pan", state: .changed, name: "my drag", view: "map", time: Instant(microseconds: 1_500_000),
                                 sample: GestureSample(touches: 2, location: Point(x: 10, y: 20), device: "event5",
                                                       values: .pan(translation: Vector(dx: 3, dy: -4), velocity: Vector(dx: 100, dy: 0))),
                                 viewLocation: Point(x: 1, y: 2))
        let variables = GestureEnvironment.variables(of: event, seq: 9)
        #expect(variables.map { "\($0.name)=\($0.value)" } == [
            "GESTURE_TYPE=pan", "GESTURE_STATE=changed", "GESTURE_NAME=my drag", "GESTURE_VIEW=map",
            "GESTURE_DEVICE=event5", "GESTURE_TIME=1.500000", "GESTURE_SEQ=9", "GESTURE_TOUCHES=2",
            "GESTURE_X=10.00", "GESTURE_Y=20.00", "GESTURE_VIEW_X=1.00", "GESTURE_VIEW_Y=2.00",
            "GESTURE_TRANSLATION_X=3.00", "GESTURE_TRANSLATION_Y=-4.00", "GESTURE_VELOCITY_X=100.00", "GESTURE_VELOCITY_Y=0.00",
            "GESTURE_LINE=gesture pan changed \"my drag\" view=map device=event5 time=1.500000 seq=9 touches=2 x=10.00 y=20.00 viewX=1.00 viewY=2.00 translationX=3.00 translationY=-4.00 velocityX=100.00 velocityY=0.00",
        ])
    }

    @Test func quotingIsUndone() throws {
        let vars = try #require(GestureEnvironment.variables(ofTextLine: #"gesture tap ended "a \"b\"=c" view="x\\y\n\u{1b}" taps=1"# + "\n"))
        #expect(vars[2].value == #"a "b"=c"#)
        #expect(vars[3].name == "GESTURE_VIEW" && vars[3].value == "x\\y\n\u{1b}")
        #expect(vars[4].name == "GESTURE_TAPS" && vars[4].value == "1")
    }

    @Test func otherLinesHaveNoVariables() {
        #expect(GestureEnvironment.variables(ofTextLine: "hello version=1 daemon=gestured") == nil)
        #expect(GestureEnvironment.variables(ofTextLine: "touch began 1 view=root") == nil)
        #expect(GestureEnvironment.variables(ofTextLine: "gesture tap ended") == nil)
        #expect(GestureEnvironment.variables(ofTextLine: #"gesture tap ended a view="unterminated"#) == nil)
        #expect(GestureEnvironment.variables(ofTextLine: "{\"event\":\"gesture\"}") == nil)
    }

    /// One running, one pending; the newest pending replaces an older one; the pending one starts
    /// when the running one finishes.
    @Test func commandQueueNeverPilesUp() {
        var queue = CommandQueue<Int>()
        var log: [String] = []
        func record(_ action: CommandQueue<Int>.Action) {
            switch action {
            case .start(let job): log.append("start \(job)")
            case .queued(let replaced): log.append("queued" + (replaced.map { ", dropped \($0)" } ?? ""))
            case .none: log.append("none")
            }
        }
        record(queue.submit(1))
        record(queue.submit(2))
        record(queue.submit(3))
        record(queue.submit(4))
        #expect(queue.isRunning && queue.hasPending)
        record(queue.finished())
        record(queue.finished())
        record(queue.finished())
        #expect(!queue.isRunning && !queue.hasPending)
        #expect(log == ["start 1", "queued", "queued, dropped 2", "queued, dropped 3", "start 4", "none", "none"])
    }
}
