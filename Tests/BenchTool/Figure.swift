import GesturedCore

/// A figure measured over repeated runs: its median and spread.
struct Figure {
    var name: String
    var unit: String
    var samples: [Double]
    var target: String = ""
    /// nil: no target; true/false: met or not.
    var met: Bool? = nil
    var note: String = ""

    var sorted: [Double] { samples.sorted() }
    var median: Double {
        let s = sorted
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
    var minimum: Double { sorted.first ?? .nan }
    var maximum: Double { sorted.last ?? .nan }
    /// Median absolute deviation: robust against the odd run disturbed by a neighbour.
    var mad: Double {
        let m = median
        return Figure(name: "", unit: "", samples: samples.map { abs($0 - m) }).median
    }
}

enum Format {
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "n/a" }
        let a = abs(v)
        let decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 0.01 || a == 0 ? 3 : 5
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let units = Int64((a * scale).rounded())
        var text = (v < 0 ? "-" : "") + String(units / Int64(scale))
        if decimals > 0 {
            let f = String(units % Int64(scale))
            text += "." + String(repeating: "0", count: decimals - f.count) + f
        }
        return text
    }

    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let n = s.count
        guard n < width else { return s }
        let fill = String(repeating: " ", count: width - n)
        return right ? fill + s : s + fill
    }

    /// A JSON string literal (control characters escaped, as in the protocol's JSON lines).
    static func json(_ s: String) -> String { LineEncoder.jsonString(s) }

    static func jsonNumber(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
}
