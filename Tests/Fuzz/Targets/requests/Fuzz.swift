import GesturedFuzzKit

/// libFuzzer's entry point for the `requests` target (`RequestTarget`): a violated invariant is a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do { try RequestTarget.run(bytes) } catch { violated(error) }
    return 0
}
