import GesturedBenchKit
import GesturedCore
import Testing

/// Every benchmark scenario runs once, so the benchmark cannot rot: each builds, routes its
/// touches, and produces lines. (Timing is the benchmark's business, never a test's.)
@Suite struct ScenarioSmokeTests {
    @Test(arguments: Scenario.all)
    func scenarioRunsAndProducesLines(_ scenario: Scenario) throws {
        let stream = FrameStream.generate(scenario.gesture, frames: 300)
        var runner = try CoreRunner(scenario)
        runner.run(stream)
        #expect(runner.lines > 0)
        #expect(stream.frames.contains { $0.isSteady })
    }

    @Test func streamsAreDeterministic() {
        for gesture in Scenario.Gesture.allCases {
            #expect(FrameStream.generate(gesture, frames: 100).events == FrameStream.generate(gesture, frames: 100).events)
        }
    }
}
