import FoundationEssentials
import GesturedFuzzKit
import Testing

/// Every input kept in the fuzz corpora (Tests/Fuzz/Corpus/<target>, seeded from the
/// repository's configurations and recordings and grown by the runs of docs/RELIABILITY.md)
/// passes its target's checks: the ordinary suite replays what the fuzzers found interesting,
/// so a change that breaks one of them fails here without a fuzz run.
struct CorpusTests {
    static let root: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/") + "/Tests/Fuzz/Corpus"
    }()

    @Test(arguments: FuzzTarget.allCases)
    func everyKeptInputPasses(_ target: FuzzTarget) throws {
        let directory = Self.root + "/" + target.rawValue
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(!names.isEmpty, "no corpus in \(directory)")
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            do { try target.run(bytes) } catch { Issue.record("\(target)/\(name): \(error)") }
        }
    }
}

/// The pipeline target reaches what it is meant to check: its seeds (the fixture recordings under
/// the written configurations) make gestures of every type the recordings can make, and the
/// pass-through seeds forward touches.
struct PipelineSeedTests {
    @Test func theSeedsReachTheRecognizersAndTheForwarder() throws {
        let directory = CorpusTests.root + "/pipeline"
        var gestures = 0, forwarded = 0
        var types: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let tally = try PipelineTarget.run([UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))))
            gestures += tally.gestures; forwarded += tally.forwarded; types.formUnion(tally.types)
        }
        #expect(gestures > 100)
        #expect(forwarded > 10)
        #expect(types.isSuperset(of: ["tap", "pan", "pinch", "rotation", "longPress", "swipe"]), "\(types)")
    }
}
