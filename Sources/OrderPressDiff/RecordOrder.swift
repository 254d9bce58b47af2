import Foundation

/// The snapshot's sheet order as the state keeps it (schema v3): each position's slot (the key of its
/// record in the `record` table) and sheet row, as two BLOBs of fixed-width little-endian integers in
/// the one row of `record_order`.
///
/// Kept apart from the records so that a deletion or a move, which shifts every record below it,
/// rewrites this one row (800 KB at 100,000 orders) instead of every record after it. Four bytes a
/// value while every value fits, else eight: a sheet row is whatever the source numbered it.
struct RecordOrder: Equatable, Sendable {
    var slots: [Int]
    var rows: [Int]

    init(slots: [Int] = [], rows: [Int] = []) {
        precondition(slots.count == rows.count, "an order with a row for each slot")
        self.slots = slots
        self.rows = rows
    }

    package var count: Int { slots.count }

    /// The bytes of each integer: the narrowest that holds every slot and row.
    var width: Int {
        let narrow = Int(Int32.min)...Int(Int32.max)
        return slots.allSatisfy(narrow.contains) && rows.allSatisfy(narrow.contains) ? 4 : 8
    }

    /// The two BLOBs, at `width`.
    func encoded() -> (width: Int, slots: Data, rows: Data) {
        let width = width
        return (width, Self.encode(slots, width: width), Self.encode(rows, width: width))
    }

    /// The order the BLOBs hold; nil when they are not an order (a width other than 4 or 8, sizes that
    /// are not whole values or differ, a negative slot).
    init?(width: Int, slots: Data, rows: Data) {
        guard width == 4 || width == 8, slots.count % width == 0, slots.count == rows.count,
            let slots = Self.decode(slots, width: width), let rows = Self.decode(rows, width: width),
            slots.allSatisfy({ $0 >= 0 })
        else { return nil }
        self.init(slots: slots, rows: rows)
    }

    private static func encode(_ values: [Int], width: Int) -> Data {
        var data = Data(count: values.count * width)
        data.withUnsafeMutableBytes { bytes in
            for (index, value) in values.enumerated() {
                if width == 4 {
                    bytes.storeBytes(of: Int32(truncatingIfNeeded: value).littleEndian, toByteOffset: index * 4, as: Int32.self)
                } else {
                    bytes.storeBytes(of: Int64(value).littleEndian, toByteOffset: index * 8, as: Int64.self)
                }
            }
        }
        return data
    }

    private static func decode(_ data: Data, width: Int) -> [Int]? {
        data.withUnsafeBytes { bytes in
            (0..<bytes.count / width).map { index in
                width == 4
                    ? Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: Int32.self)))
                    : Int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 8, as: Int64.self)))
            }
        }
    }

    /// Each slot with its position, sorted by slot: what a read by slot (the table's order) is merged
    /// with. Packed into one integer a pair (`slot << 32 | position`), half the memory of a pair of
    /// integers at a million. Nil when a slot appears twice or is too large to be one this version wrote.
    func positionsBySlot() -> [UInt64]? {
        var keys = [UInt64]()
        keys.reserveCapacity(count)
        for (position, slot) in slots.enumerated() {
            guard slot >= 0, slot <= Int(UInt32.max) else { return nil }
            keys.append(UInt64(slot) << 32 | UInt64(position))
        }
        // The slots mostly ascend with the positions, which the check spares sorting.
        if !zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) { keys.sort() }
        guard zip(keys, keys.dropFirst()).allSatisfy({ $0 >> 32 != $1 >> 32 }) else { return nil }
        return keys
    }

    package static func slot(_ key: UInt64) -> Int { Int(key >> 32) }
    static func position(_ key: UInt64) -> Int { Int(key & 0xFFFF_FFFF) }
}
