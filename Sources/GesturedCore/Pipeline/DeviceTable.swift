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
    /// By `DeviceID.value` (ids are never reused): the device's position in `all`, nil before
    /// it is held (its id reserved) and once it went.
    private var positions: [Int?] = []

    /// A new id, never given before, for a device about to be held (`append`).
    mutating func reserveID() -> GesturePipeline.DeviceID {
        positions.append(nil)
        return GesturePipeline.DeviceID(value: positions.count - 1)
    }

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

    /// Holds a device under the id `reserveID` gave it; false, holding nothing, for an id not
    /// reserved or already held.
    mutating func append(_ device: GesturePipeline.Device) -> Bool {
        guard positions.indices.contains(device.id.value), positions[device.id.value] == nil else { return false }
        positions[device.id.value] = all.count
        all.append(device)
        return true
    }

    /// Puts `device` where the device of the same id is held (a reload's new treatment); false,
    /// changing nothing, when none is.
    mutating func replace(_ device: GesturePipeline.Device) -> Bool {
        guard let p = position(of: device.id) else { return false }
        all[p] = device
        return true
    }

    /// Lets a device go; the later ones move up a position.
    mutating func remove(_ id: GesturePipeline.DeviceID) {
        guard let p = position(of: id) else { return }
        all.remove(at: p)
        positions[id.value] = nil
        for q in p..<all.count { positions[all[q].id.value] = q }
    }
}
