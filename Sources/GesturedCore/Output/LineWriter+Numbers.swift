/// Numbers in a line: integers, fixed-point decimals and instants, written right to left two
/// digits at a time.
extension LineEncoder.LineWriter {

    mutating func integer(_ i: Int64) {
        if i < 0 { byte(UInt8(ascii: "-")) }
        digits(i.magnitude, width: 1)
    }

    /// `value` with exactly `decimals` decimals (0…6), rounded half away from zero;
    /// non-finite values (which the recognizers never produce) print as 0 so that JSON stays
    /// valid.
    mutating func fixed(_ value: Double, decimals: Int) {
        guard value.isFinite else { return fixed(0, decimals: decimals) }
        let scaled = abs(value) * Self.powersOfTen[decimals]
        guard scaled < 9e18 else { return literal(value < 0 ? "-9e18" : "9e18") }
        // Rounded half away from zero without libm's `round` call: the fraction
        // `scaled - trunc(scaled)` is exact in binary floating point, so comparing it with
        // 0.5 decides as `round` does. (No double lies in [9e18 - 0.5, 9e18): the guard
        // above sends the same values to "9e18".)
        // Through Int64 (0 ≤ scaled < 9e18 < 2⁶³): one conversion instruction, where
        // `UInt64(Double)` also handles values from 2⁶³ on.
        let whole = Int64(scaled)
        var units = UInt64(truncatingIfNeeded: whole)
        if scaled - Double(whole) >= 0.5 { units &+= 1 }
        if value < 0 && units != 0 { byte(UInt8(ascii: "-")) }
        guard decimals > 0 else { return digits(units, width: 1) }
        // One pass, right to left, two digits at a time: the `decimals` digits of the
        // fraction, the point, then the integer part (at least one digit); where splitting
        // integer and fraction first cost a division and two digit writers.
        var length = decimals &+ 1
        var power = Self.integerPowersOfTen[length]
        while length < 20 && units >= power { length &+= 1; power = power &* 10 }
        reserve(length &+ 1)
        var end = count &+ length &+ 1
        var rest = units
        var fraction = decimals
        while fraction >= 2 {
            end &-= 2
            pair(rest % 100, at: end)
            rest /= 100
            fraction &-= 2
        }
        if fraction == 1 {
            end &-= 1
            base[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        end &-= 1
        base[end] = UInt8(ascii: ".")
        while end &- count >= 2 {
            end &-= 2
            pair(rest % 100, at: end)
            rest /= 100
        }
        if end > count { base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest) }
        count &+= length &+ 1
    }

    /// Two decimal digits of `n` (< 100) at `position` (room reserved).
    func pair(_ n: UInt64, at position: Int) {
        let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        let i = Int(n) &* 2
        base[position] = pairs.utf8Start[i]; base[position &+ 1] = pairs.utf8Start[i &+ 1]
    }

    /// 10^0 … 10^6 as the scale of `fixed` (exact in a `Double`).
    private static let powersOfTen: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]
    /// 10^0 … 10^7: the smallest number with one more digit than `fixed` writes at least.
    private static let integerPowersOfTen: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000]

    /// `seconds.micros` with exactly six decimals, as `Instant.description`.
    mutating func instant(_ t: Instant) {
        let negative = t.microseconds < 0
        let magnitude = t.microseconds.magnitude
        if negative { byte(UInt8(ascii: "-")) }
        digits(magnitude / 1_000_000, width: 1)
        byte(UInt8(ascii: "."))
        digits(magnitude % 1_000_000, width: 6)
    }

    /// The decimal digits of `n`, zero-padded on the left to `width`, written right to left
    /// two at a time.
    mutating func digits(_ n: UInt64, width: Int) {
        // Most numbers here are one or two digits (a fraction with 2 decimals, a count).
        if n < 10 && width <= 1 {
            reserve(1)
            base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n); count &+= 1
            return
        }
        if n < 100 && (width == 2 || (n >= 10 && width <= 1)) {
            reserve(2)
            pair(n, at: count); count &+= 2
            return
        }
        var length = 1
        var power: UInt64 = 10
        while length < 20 && n >= power { length += 1; power = power &* 10 }
        let total = max(length, width)
        reserve(total)
        var end = count &+ total
        var rest = n
        while rest >= 100 {
            end &-= 2
            pair(rest % 100, at: end)
            rest /= 100
        }
        if rest >= 10 {
            end &-= 2
            pair(rest, at: end)
        } else {
            end &-= 1
            base[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        while end > count { end &-= 1; base[end] = UInt8(ascii: "0") }
        count &+= total
    }
}
