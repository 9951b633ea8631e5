import GesturedFuzzKit

/// libFuzzer's entry point for the `pipeline` target (`PipelineTarget`): a violated invariant is a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do { try PipelineTarget.run(bytes) } catch { violated(error) }
    return 0
}
