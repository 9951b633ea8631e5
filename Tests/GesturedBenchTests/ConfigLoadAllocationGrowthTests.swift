import CBenchSupport
import GesturedConfig
import GesturedCore
import Testing

/// Loading a configuration costs work and memory linear in its text for every shape of input
/// (security review, round two, fault 2), counted in heap allocations of the loading thread
/// (CBenchSupport's malloc wrappers), not timed: twice the input makes at most about twice the
/// allocations. The review's shapes: views without frames (each was listed in every cell of its
/// parent's grid; and each was checked for cover against every sibling in front, as small views
/// side by side were), many keys on one line, many unknown or duplicate keys, a template file named
/// many times. The cost of a column on a long line allocates nothing: LinearCostTests counts it.
@Suite struct ConfigLoadAllocationGrowthTests {
    static let shapes: [String] = ["frameless views", "frameless subviews", "small views side by side", "unknown keys on one line",
                                   "unknown keys one per line", "duplicate keys", "duplicate view ids",
                                   "a template file named by every gesture"]

    static func text(_ shape: String, _ n: Int) -> String {
        switch shape {
        case "frameless views": "{ screen: { width: 1920, height: 1080 }, views: [" + (0..<n).map { "{ id: \"v\($0)\" }" }.joined(separator: ", ") + "] }"
        case "frameless subviews": "{ views: [{ id: \"root\", subviews: [" + (0..<n).map { "{ id: \"v\($0)\" }" }.joined(separator: ", ") + "] }] }"
        case "small views side by side":
            "{ screen: { width: 1920, height: 1080 }, views: [" + (0..<n).map { "{ id: \"v\($0)\", frame: { x: \($0 % 100 * 10), y: \($0 / 100 * 5 % 1000), width: 8, height: 4 } }" }.joined(separator: ", ") + "] }"
        case "unknown keys on one line": "{ " + (0..<n).map { "k\($0): 1" }.joined(separator: ", ") + ", views: [{ id: \"root\" }] }"
        case "unknown keys one per line": "{\n" + (0..<n).map { "k\($0): 1,\n" }.joined() + "views: [{ id: \"root\" }] }"
        case "duplicate keys": "{ " + String(repeating: "screen: { width: 10, height: 10 }, ", count: n) + "views: [{ id: \"root\" }] }"
        case "duplicate view ids": "{ views: [" + Array(repeating: "{ id: \"v\" }", count: n).joined(separator: ", ") + "] }"
        default: "{ views: [{ id: \"root\", gestures: [" + (0..<n).map { "{ id: \"s\($0)\", type: \"stroke\", templates: [{ file: \"t.json5\" }] }" }.joined(separator: ", ") + "] }] }"
        }
    }

    static let templates = StrokeTemplateFile.text([StrokeTemplate(name: "zig", points: (0..<400).map { Point(x: Double($0 % 37), y: Double($0 % 23)) })],
                                                   comment: "four hundred points")

    /// The loading thread's allocations for the shape at size `n` (the text built before counting).
    static func allocations(_ shape: String, _ n: Int) -> UInt64 {
        let text = Self.text(shape, n)
        let before = bench_thread_allocations()
        _ = try? ConfigLoader.parse(text, file: "/etc/gestured/gestured.json5", readFile: { path in
            path == "/etc/gestured/t.json5" ? .success(Array(Self.templates.utf8))
                : .failure(ConfigLoader.unreadable(file: path, message: "cannot open: No such file or directory"))
        })
        return bench_thread_allocations() - before
    }

    @Test(arguments: shapes)
    func twiceTheInputMakesAtMostAboutTwiceTheAllocations(shape: String) throws {
        try #require(bench_counts_allocations() == 1, "allocations are not counted in this build (AddressSanitizer owns malloc)")
        let n = 2_000
        _ = Self.allocations(shape, 50)   // caches and lazily built tables, once
        let single = Self.allocations(shape, n), double = Self.allocations(shape, 2 * n)
        #expect(double <= single * 2 + single / 5 + 1_000, "\(shape): \(single) allocations for \(n), \(double) for \(2 * n)")
    }
}
