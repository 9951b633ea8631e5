/// The pipeline's devices: held densely, in the order they were added, and found by id. A device
/// that went is not held, so a lookup by id says so (`position(of:)` is nil) instead of a slot
/// left empty that every reader must unwrap (`devices[i]!`).
///
/// Within one step a device is reached by its position (`self[p]`), in place: `_modify` yields
/// the element itself, so feeding its decoder never copies its buffers. Positions change only
/// when a device goes.
struct DeviceTable: Sendable {
    /// The devices held, in the order they were added.
    private(set) var all: [GesturePipeline.Device] = []
    /// By `DeviceID.value` (ids are never reused): the device's position in `all`, nil once it
    /// went.
    private var positions: [Int?] = []

    /// The id the next device added gets.
    var nextID: GesturePipeline.DeviceID { GesturePipeline.DeviceID(value: positions.count) }

    /// Where the device with `id` is held, if it is.
    func position(of id: GesturePipeline.DeviceID) -> Int? {
        positions.indices.contains(id.value) ? positions[id.value] : nil
    }

    var indices: Range<Int> { all.indices }

    /// Read with `get`, not a `_read` coroutine: with a `_read` yielding the array's element,
    /// the sanitized debug build (`make test-sanitize`) reported a heap use after free in
    /// `appendRotation`: `devices[p].geometry.rotation` read memory the coroutine's resume had
    /// freed. Optimized, the getter reads the field in place.
    subscript(position: Int) -> GesturePipeline.Device {
        get { all[position] }
        _modify { yield &all[position] }
    }

    /// Holds a device (its id is `nextID`).
    mutating func append(_ device: GesturePipeline.Device) {
        precondition(device.id == nextID, "devices are added with the next id")
        positions.append(all.count)
        all.append(device)
    }

    /// Lets a device go; the later ones move up a position.
    mutating func remove(_ id: GesturePipeline.DeviceID) {
        guard let p = position(of: id) else { return }
        all.remove(at: p)
        positions[id.value] = nil
        for q in p..<all.count { positions[all[q].id.value] = q }
    }
}
