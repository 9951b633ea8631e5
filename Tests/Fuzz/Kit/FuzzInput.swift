/// The bytes of one fuzz input, read front to back as choices: a structure-aware target turns
/// them into a configuration, devices and events. Reading past the end gives zeros, so every
/// input means something and a short input means the simplest choices.
public struct FuzzInput: Sendable {
    public let bytes: [UInt8]
    public private(set) var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { position >= bytes.count }
    public var remaining: Int { max(0, bytes.count - position) }

    public mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// 0..<n (n ≥ 1).
    public mutating func below(_ n: Int) -> Int { Int(byte()) % n }

    /// One of `choices` (not empty).
    public mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    public mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    public mutating func int32() -> Int32 {
        Int32(bitPattern: UInt32(uint16()) | UInt32(uint16()) << 16)
    }

    /// The next `count` bytes (fewer at the end).
    public mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let start = min(position, bytes.count), end = min(position + count, bytes.count)
        position += count
        return bytes[start..<end]
    }

    /// Everything not read yet.
    public mutating func rest() -> ArraySlice<UInt8> {
        let start = min(position, bytes.count)
        position = bytes.count
        return bytes[start...]
    }
}
