/// The fuzz targets, by the names `make fuzz` prints (`fuzz <target>: …`, CONTRACT.md §5).
public enum FuzzTarget: String, CaseIterable, Sendable {
    case config, requests, evemu, pipeline, strokes

    /// Runs the target's harness on one input.
    public func run(_ bytes: [UInt8]) throws(Violation) {
        switch self {
        case .config: try ConfigTarget.run(bytes)
        case .requests: try RequestTarget.run(bytes)
        case .evemu: try EvemuTarget.run(bytes)
        case .pipeline: try PipelineTarget.run(bytes)
        case .strokes: try StrokeTarget.run(bytes)
        }
    }
}
