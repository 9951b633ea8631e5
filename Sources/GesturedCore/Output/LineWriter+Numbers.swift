/// Numbers in a line: integers, fixed-point decimals and instants, written in pairs of
/// digits.
extension LineEncoder.LineWriter {

    mutating func integer(_ i: Int64) {
        if i < 0 { byte(UInt8(ascii: "-")) }
        digits(i.magnitude, width: 1)
    }

    /// `value` with exactly `decimals` decimals (0…6), rounded half away from zero;
    /// non-finite values (which the recognizers never produce) print as 0 so that JSON stays
    /// valid.
    ///
    /// The protocol's 2, 3 and 4 decimals are written each by its own code, where the divisor
    /// that splits the whole part from the fraction is a literal (the compiler multiplies
    /// instead of dividing) and the fraction's digits are fixed pairs; others take a loop.
    mutating func fixed(_ value: Double, decimals: Int) {
        reserve(22 &+ decimals)   // sign, 19 digits, point, fraction
        switch decimals {
        case 2:
            guard let units = signedUnits(value, scale: 100) else { return }
            let integer = units / 100
            number(integer)
            base[count] = UInt8(ascii: ".")
            pair(units &- integer &* 100, at: count &+ 1)
            count &+= 3
        case 3:
            guard let units = signedUnits(value, scale: 1_000) else { return }
            let integer = units / 1_000
            number(integer)
            let fraction = units &- integer &* 1_000, high = fraction / 100
            base[count] = UInt8(ascii: ".")
            base[count &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: high)
            pair(fraction &- high &* 100, at: count &+ 2)
            count &+= 4
        case 4:
            guard let units = signedUnits(value, scale: 10_000) else { return }
            let integer = units / 10_000
            number(integer)
            let fraction = units &- integer &* 10_000, high = fraction / 100
            base[count] = UInt8(ascii: ".")
            pair(high, at: count &+ 1)
            pair(fraction &- high &* 100, at: count &+ 3)
            count &+= 5
        default:
            var unit: UInt64 = 1
            for _ in 0..<min(max(decimals, 0), 6) { unit &*= 10 }
            guard let units = signedUnits(value, scale: Double(unit)) else { return }
            number(units / unit)
            guard unit > 1 else { return }
            base[count] = UInt8(ascii: "."); count &+= 1
            var fraction = units % unit
            while unit > 1 {
                unit /= 10
                let digit = fraction / unit
                base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit); count &+= 1
                fraction &-= digit &* unit
            }
        }
    }

    /// `|value| × scale` rounded half away from zero, after writing the sign when the rounded
    /// value is negative (never for zero); nil when it is too large for the protocol's numbers,
    /// having written `±9e18` instead. Non-finite values count as 0. Room reserved.
    @inline(__always) private mutating func signedUnits(_ value: Double, scale: Double) -> UInt64? {
        let finite = value.isFinite ? value : 0
        let scaled = abs(finite) * scale
        guard scaled < 9e18 else {
            literal(finite < 0 ? "-9e18" : "9e18")
            return nil
        }
        // Rounded half away from zero without libm's `round` call: the fraction
        // `scaled - trunc(scaled)` is exact in binary floating point, so comparing it with
        // 0.5 decides as `round` does. (No double lies in [9e18 - 0.5, 9e18): the guard
        // above sends the same values to "9e18".)
        // Through Int64 (0 ≤ scaled < 9e18 < 2⁶³): one conversion instruction, where
        // `UInt64(Double)` also handles values from 2⁶³ on.
        let whole = Int64(scaled)
        var units = UInt64(truncatingIfNeeded: whole)
        if scaled - Double(whole) >= 0.5 { units &+= 1 }
        if finite < 0 && units != 0 { base[count] = UInt8(ascii: "-"); count &+= 1 }
        return units
    }

    /// `n` in decimal, room reserved: the common sizes (up to four digits) without a loop.
    @inline(__always) private mutating func number(_ n: UInt64) {
        if n < 10 {
            base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n); count &+= 1
        } else if n < 100 {
            pair(n, at: count); count &+= 2
        } else if n < 1_000 {
            let high = n / 100
            base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: high)
            pair(n &- high &* 100, at: count &+ 1); count &+= 3
        } else if n < 10_000 {
            let high = n / 100
            pair(high, at: count); pair(n &- high &* 100, at: count &+ 2); count &+= 4
        } else {
            digits(n, width: 1)
        }
    }

    /// Two decimal digits of `n` (< 100) at `position` (room reserved).
    func pair(_ n: UInt64, at position: Int) {
        let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        let i = Int(n) &* 2
        base[position] = pairs.utf8Start[i]; base[position &+ 1] = pairs.utf8Start[i &+ 1]
    }

    /// `seconds.micros` with exactly six decimals, as `Instant.description`.
    mutating func instant(_ t: Instant) {
        let negative = t.microseconds < 0
        let magnitude = t.microseconds.magnitude
        if negative { byte(UInt8(ascii: "-")) }
        let seconds = magnitude / 1_000_000
        var micros = magnitude &- seconds &* 1_000_000
        digits(seconds, width: 1)
        // The six digits of the microseconds as three pairs.
        reserve(7)
        base[count] = UInt8(ascii: ".")
        let high = micros / 10_000
        micros &-= high &* 10_000
        let middle = micros / 100
        pair(high, at: count &+ 1); pair(middle, at: count &+ 3); pair(micros &- middle &* 100, at: count &+ 5)
        count &+= 7
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
