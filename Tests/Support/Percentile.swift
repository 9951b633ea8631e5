/// The value at fraction `q` of `sorted` (nearest rank); 0 for none. The kernel guest's latency
/// tests and `gestured-vm-bench` quote medians and p99s of it.
public func percentile(_ sorted: [Int64], _ q: Double) -> Int64 {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}
