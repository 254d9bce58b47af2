import OrderPressValidate

/// The last snapshot's records by identity: each identity's first position, and after each position
/// the next one with the same identity (-1 after the last), in sheet order. Made where the state is
/// read, on a thread of its own while the sheet is parsed: the diff built it on one core while the
/// other waited, a fifth of a second at a million orders.
package struct IdentityChains: Sendable {
    let first: [IdentityKey: Int]
    package let next: [Int]

    package init(_ records: [SnapshotIndex.Stamp]) {
        var first: [IdentityKey: Int] = [:]
        first.reserveCapacity(records.count)
        var next = [Int](repeating: -1, count: records.count)
        for position in records.indices.reversed() {
            next[position] = first.updateValue(position, forKey: records[position].identity) ?? -1
        }
        (self.first, self.next) = (first, next)
    }
}
