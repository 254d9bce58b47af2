/// A key of a few machine words that spreads itself over a table's slots (`FlatTable`).
public protocol FlatKey: Equatable {
    /// Well-mixed bits of the key: equal keys, equal bits.
    var spread: UInt64 { get }
}

/// A table from small fixed-size keys to numbers, for the caches in front of a `Numbering` that every
/// order of a sheet looks in (`OrderFacts`): a `Dictionary` runs SipHash over the key's words on every
/// look-up, where this is a multiply-and-shift and a probe (docs/benchmarks.md). Open addressing, linear
/// probing, grown to stay at most half full; entries are only ever added.
public struct FlatTable<Key: FlatKey> {
    @usableFromInline package var keys: [Key?]
    @usableFromInline var values: [Int32]
    @usableFromInline package var count = 0

    @inlinable
    public init() {
        keys = Array(repeating: nil, count: 64)
        values = Array(repeating: 0, count: 64)
    }

    @inlinable
    public subscript(key: Key) -> Int32? {
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: key.spread) & mask
        while let stored = keys[slot] {
            if stored == key { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Room for `count` keys without growing.
    @inlinable
    public init(minimumCapacity count: Int) {
        var capacity = 64
        while capacity < 2 * (count + 1) { capacity *= 2 }
        keys = Array(repeating: nil, count: capacity)
        values = Array(repeating: 0, count: capacity)
    }

    /// Sets `key`'s number, added if it is not in the table; returns the number it had.
    @inlinable
    @discardableResult
    public mutating func updateValue(_ value: Int32, forKey key: Key) -> Int32? {
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: key.spread) & mask
        while let stored = keys[slot] {
            if stored == key {
                defer { values[slot] = value }
                return values[slot]
            }
            slot = (slot + 1) & mask
        }
        insert(key, value)
        return nil
    }

    /// Adds `key`, which must not be in the table yet.
    @inlinable
    public mutating func insert(_ key: Key, _ value: Int32) {
        if 2 * (count + 1) > keys.count { grow() }
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: key.spread) & mask
        while keys[slot] != nil { slot = (slot + 1) & mask }
        keys[slot] = key
        values[slot] = value
        count += 1
    }

    @inlinable
    mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        keys = Array(repeating: nil, count: 2 * oldKeys.count)
        values = Array(repeating: 0, count: 2 * oldKeys.count)
        count = 0
        for (key, value) in zip(oldKeys, oldValues) {
            if let key { insert(key, value) }
        }
    }

    /// Two words mixed into one (the finaliser of SplitMix64 over both), every bit of the result
    /// depending on every bit of both: a table takes the low bits.
    @inlinable
    public static func mix(_ first: UInt64, _ second: UInt64) -> UInt64 {
        var value = first ^ (second &* 0x9E37_79B9_7F4A_7C15)
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

extension FlatTable: Sendable where Key: Sendable {}
