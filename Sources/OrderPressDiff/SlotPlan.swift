/// Where a save puts each record of the new snapshot (schema v3): a record that equals an old one in all
/// but its sheet row keeps that one's slot and is not written again; the others are written into the
/// slots of old records that no new one kept, or into new slots; the slots left over are deleted.
///
/// A deletion in the middle of the sheet moves every later record up by one position and one sheet
/// row: keyed by position, each of them was rewritten; kept in their slots, none is, and only the
/// order (`RecordOrder`) changes.
package struct SlotPlan {
    /// Each new record's slot, in sheet order.
    private(set) var order: RecordOrder
    /// The positions whose records must be written (at `order.slots[position]`), ascending.
    package private(set) var written: [Int] = []
    /// The old slots that no new record took, ascending by their old position.
    private(set) var freed: [Int] = []
    /// Whether `order` differs from the old one.
    package private(set) var reordered: Bool

    /// What a save writes: how many records, how many slots it deletes, whether it rewrites the order.
    package struct Counts: Equatable, Sendable {
        package var written: Int
        package var removed: Int
        package var reordered: Bool

        package static let none = Counts(written: 0, removed: 0, reordered: false)
    }

    var counts: Counts { Counts(written: written.count, removed: freed.count, reordered: reordered) }

    /// Every record made afresh (tests).
    package init(
        _ records: UnsafeBufferPointer<RowRecord>, digests: [RecordDigest], reuse: RecordReuse = .none, over old: [SnapshotIndex.Stamp]
    ) {
        self.init(SnapshotRecords(Array(records), reuse: reuse), digests: digests, reuse: reuse, over: old)
    }

    /// Borrowed records: a copy of each (its texts and lists retained, then released) cost more than comparing.
    /// A record the diff kept (`records.keptFrom`) takes the slot of the one it stands for first, whatever
    /// else equals it: it is that record, and holds nothing to write.
    package init(_ records: SnapshotRecords, digests: [RecordDigest], reuse: RecordReuse = .none, over old: [SnapshotIndex.Stamp]) {
        let count = min(records.count, digests.count)
        var slots = [Int](repeating: -1, count: count)
        var taken = [Bool](repeating: false, count: old.count)
        if records.keptCount > 0 {
            for position in 0..<count {
                guard let candidate = records.keptFrom(position) else { continue }
                precondition(
                    candidate < old.count && !taken[candidate] && old[candidate].digest == digests[position],
                    "a kept record does not stand for the record it was kept from")
                taken[candidate] = true
                slots[position] = old[candidate].slot
            }
        }
        func keeps(_ position: Int, from candidate: Int) -> Bool {
            guard candidate >= 0, candidate < old.count, !taken[candidate], records.isFresh(position),
                old[candidate].stamps(records[position], digest: digests[position], fingerprint: reuse.fingerprint(position))
            else { return false }
            taken[candidate] = true
            slots[position] = old[candidate].slot
            return true
        }
        // First each record where it was, or as far from there as the last one kept was: one order
        // deleted (or inserted) shifts all the following by one more (or one less), looked for next.
        var offset = 0
        var missed = false
        for position in 0..<count {
            if let candidate = records.keptFrom(position) {
                offset = candidate - position
                continue
            }
            if keeps(position, from: position + offset) { continue }
            if keeps(position, from: position + offset + 1) {
                offset += 1
            } else if keeps(position, from: position + offset - 1) {
                offset -= 1
            } else if offset != 0, keeps(position, from: position) {
                offset = 0
            } else {
                missed = true
            }
        }
        // Then the others by digest: old positions by digest, each chained to the next with the same digest
        // (-1 ends a chain), made only when needed, of the old records not kept by then.
        if missed, taken.contains(false) {
            var first: [RecordDigest: Int] = [:]
            var next = [Int](repeating: -1, count: old.count)
            for candidate in old.indices.reversed() where !taken[candidate] {
                next[candidate] = first.updateValue(candidate, forKey: old[candidate].digest) ?? -1
            }
            for position in 0..<count where slots[position] < 0 {
                // The one kept is unlinked: many copies of one record are not walked past again and again.
                var previous = -1
                var candidate = first[digests[position]] ?? -1
                while candidate >= 0 {
                    let following = next[candidate]
                    if keeps(position, from: candidate) {
                        if previous < 0 { first[digests[position]] = following } else { next[previous] = following }
                        break
                    }
                    previous = candidate
                    candidate = following
                }
            }
        }
        // The rest fill the slots left over, then new ones.
        var spare = old.indices.lazy.filter { !taken[$0] }.map { old[$0].slot }.makeIterator()
        var fresh = (old.lazy.map(\.slot).max() ?? -1) + 1
        // Room for them all at once: grown by doubling, a million positions left each smaller array behind.
        written.reserveCapacity(slots.lazy.filter { $0 < 0 }.count)
        for position in 0..<count where slots[position] < 0 {
            if let slot = spare.next() {
                slots[position] = slot
            } else {
                slots[position] = fresh
                fresh += 1
            }
            written.append(position)
        }
        while let slot = spare.next() { freed.append(slot) }
        order = RecordOrder(slots: slots, rows: (0..<count).map { records.row($0) })
        reordered = order.count != old.count || !zip(order.slots, order.rows).elementsEqual(old.lazy.map { ($0.slot, $0.row) }) { $0 == $1 }
    }
}
