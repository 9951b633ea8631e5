/// The fast reader's fixed-width fields (`EvemuTextParser.appendCanonicalEvent`), each read as
/// one word: a branch per field where a byte-by-byte reader takes one per byte.
extension EvemuTextParser {
    /// `.dddddd ` as the 8 bytes of `word` (the first byte lowest): the 6 digits' value, or nil
    /// when the word is anything else.
    @inline(__always) static func fraction(_ word: UInt64) -> Int64? {
        guard word & 0xff00_0000_0000_00ff == 0x2000_0000_0000_002e else { return nil }   // "." … " "
        let digits = (word >> 8) & 0xffff_ffff_ffff
        // A byte is a digit when its high nibble is 3 and adding 6 keeps it so (0x30…0x39).
        // A carry out of a byte that is not a digit can only spoil the next byte's test, and
        // the word is refused by the first test already.
        guard digits & 0xf0f0_f0f0_f0f0 == 0x3030_3030_3030,
              (digits &+ 0x0606_0606_0606) & 0xf0f0_f0f0_f0f0 == 0x3030_3030_3030 else { return nil }
        // The digits' values as the last six of eight (two leading zeros), then pairs, fours
        // and the eight combined by multiplication (the first byte is the most significant
        // digit).
        var value = (digits & 0x0f0f_0f0f_0f0f) << 16
        value = ((value &* 10) &+ (value >> 8)) & 0x00ff_00ff_00ff_00ff
        value = ((value &* 100) &+ (value >> 16)) & 0x0000_ffff_0000_ffff
        value = (value &* 10_000) &+ (value >> 32)
        return Int64(value & 0xffff_ffff)
    }

    /// Four hex digits as the 4 bytes of `word` (the first byte lowest, the most significant
    /// digit), either case: their value, or nil when a byte is not a hex digit.
    @inline(__always) static func hexField(_ word: UInt32) -> UInt16? {
        guard word & 0x8080_8080 == 0 else { return nil }
        // '@' + the digit's value for a hex digit, a space for any other ASCII byte.
        let table: StaticString = "                                                @ABCDEFGHI       JKLMNO                          JKLMNO                         "
        let t = table.utf8Start
        let a = t[Int(word & 0x7f)], b = t[Int((word >> 8) & 0x7f)]
        let c = t[Int((word >> 16) & 0x7f)], d = t[Int(word >> 24)]
        guard a & b & c & d & 0x40 != 0 else { return nil }
        return UInt16(a & 0xf) << 12 | UInt16(b & 0xf) << 8 | UInt16(c & 0xf) << 4 | UInt16(d & 0xf)
    }
}
