import OrderPressSupport
import OrderPressValidate

/// The last snapshot's records by identity: each identity's first position, and after each position
/// the next one with the same identity (-1 after the last), in sheet order. Made where the state is
/// read, on a thread of its own while the sheet is parsed: the diff built it on one core while the
/// other waited, a fifth of a second at a million orders.
/// A `FlatTable`, not a `Dictionary`: every row of a rerun looks its identity up, and SipHash over the
/// key's two words cost more than the probe.
package struct IdentityChains: Sendable {
    private let firstPositions: FlatTable<IdentityKey>
    package let next: [Int]

    package init(_ records: [SnapshotIndex.Stamp]) {
        var first = FlatTable<IdentityKey>(minimumCapacity: records.count)
        var next = [Int](repeating: -1, count: records.count)
        for position in records.indices.reversed() {
            next[position] = first.updateValue(Int32(position), forKey: records[position].identity).map(Int.init) ?? -1
        }
        (firstPositions, self.next) = (first, next)
    }

    /// The first position with `identity`, if any.
    package func first(_ identity: IdentityKey) -> Int? {
        firstPositions[identity].map(Int.init)
    }
}

/// Its bits are SHA-256's already; mixed all the same, as every key of a `FlatTable` is.
extension IdentityKey: FlatKey {
    package var spread: UInt64 { FlatTable<Self>.mix(value.high, value.low) }
}
