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
    ///
    /// All four bytes at once, by arithmetic on the word: every `E:` line has three such fields,
    /// and a table lookup per byte is several times the work.
    @inline(__always) static func hexField(_ word: UInt32) -> UInt16? {
        // ASCII only: the sums below then never carry from one byte into the next.
        guard word & 0x8080_8080 == 0 else { return nil }
        // A byte plus 0x80 − n has its high bit set when the byte is at least n.
        let digit = (word &+ 0x5050_5050) & ~(word &+ 0x4646_4646)            // "0"…"9"
        let lower = word | 0x2020_2020                                         // "A"…"F" as "a"…"f"
        let letter = (lower &+ 0x1f1f_1f1f) & ~(lower &+ 0x1919_1919)          // "a"…"f"
        guard (digit | letter) & 0x8080_8080 == 0x8080_8080 else { return nil }
        // A digit's value is its low nibble, a letter's its low nibble + 9.
        let nibbles = (word & 0x0f0f_0f0f) &+ ((letter >> 7) & 0x0101_0101) &* 9
        // Nibble pairs into bytes 0 and 2, then the two bytes (the first the more significant).
        let pairs = ((nibbles << 4) | (nibbles >> 8)) & 0x00ff_00ff
        return UInt16(truncatingIfNeeded: (pairs & 0xff) << 8 | pairs >> 16)
    }
}
