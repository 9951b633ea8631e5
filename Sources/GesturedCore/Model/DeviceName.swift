/// A device's sysname (`event5`), as touch updates, samples and gesture lines carry it.
///
/// Stored inline, up to `capacity` bytes, so that it is trivially copyable: a `TouchUpdate` is
/// copied once per recognizer that sees it, and a `String` field would make every such copy (and
/// every copy of a proposal or a sample) retain and release. Kernel input sysnames are `eventN`;
/// `GesturePipeline.addDevice` refuses a device whose sysname does not fit, rather than cut it.
public struct DeviceName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public static let capacity = 31

    // 31 bytes of UTF-8 and a length, in four words.
    private var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0

    /// The empty name (made without reading a `String`, as a literal `""` would at run time).
    public init() {}

    /// nil when `name` is longer than `capacity` bytes of UTF-8.
    public init?(_ name: String) {
        let utf8 = name.utf8
        guard utf8.count <= Self.capacity else { return nil }
        withUnsafeMutableBytes(of: &self) { raw in
            raw.copyBytes(from: utf8)
            raw[Self.capacity] = UInt8(utf8.count)
        }
    }

    public init(stringLiteral name: String) {
        guard let fitting = DeviceName(name) else { preconditionFailure("device name longer than \(Self.capacity) bytes") }
        self = fitting
    }

    public var count: Int { withUnsafeBytes(of: self) { Int($0[Self.capacity]) } }

    /// The name's UTF-8 bytes.
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeBytes(of: self) { raw in
            body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[0..<Int(raw[Self.capacity])]))
        }
    }

    public var description: String { withUTF8 { String(decoding: $0, as: UTF8.self) } }
}
