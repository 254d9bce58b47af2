import OrderPressValidate

/// What becomes of the rows that matching by identity left over: the last run's rows no identity of
/// this run matched, and this run's rows that matched none.
///
/// An order without an id is identified by its content, so any edit of it leaves the old and the new
/// row over. Such an old row pairs with a new row of the same group, person and item, nearest sheet row
/// first, whether either is valid or rejected: valid with valid is a changed order (a price typo fixed),
/// valid with rejected an order no longer counted, rejected with valid one now counted, and rejected
/// with rejected nothing (no order either time). Only what is left is a deleted or an added order. Rows
/// are not paired by sheet row alone: the last row deleted and a new answer appended would be one order.
///
/// An old row with an id (unique in its sheet) is the order of that id: it pairs with nothing.
///
/// Linear in the leftovers, which a rerun after one edit has two of: never the whole sheet.
struct LeftoverPairing {
    /// Indices in `old` (its own, as a slice) and in the new records.
    typealias Pair = (old: Int, new: Int)

    var changed: [Pair] = []
    var noLongerCounted: [Pair] = []
    var nowCounted: [Pair] = []
    /// Rows rejected in both runs: no change, but the same row (first seen when the old one was).
    var stillRejected: [Pair] = []
    /// Valid old rows left unpaired: deleted orders, by index in `old`.
    var deleted: [Int] = []
    /// Valid new rows left unpaired: added orders, by index.
    var added: [Int] = []
    /// How many new rejected rows are left unpaired.
    package var rejected = 0

    /// `old`: the last run's records no identity matched; `new`: the indices of this run's records that matched none.
    init(old: ArraySlice<RowRecord>, new: [Int], records: SnapshotRecords) {
        // By place: `old`'s indices less its start.
        let base = old.startIndex
        var oldLeft = [Bool](repeating: true, count: old.count)
        var newLeft = [Bool](repeating: true, count: new.count)
        func take(_ place: Int, _ other: Int, into list: inout [Pair]) {
            oldLeft[place - base] = false
            newLeft[other] = false
            list.append((place, new[other]))
        }

        // By group, person and item: the old rows without an id, then the new rows of those keys.
        var buckets: [String: Bucket] = [:]
        for place in old.indices where Self.hasNoId(old[place]) {
            buckets[Self.key(old[place]), default: Bucket()].old.append(place)
        }
        if !buckets.isEmpty {
            for place in new.indices {
                let key = Self.key(records[new[place]])
                if buckets[key] != nil { buckets[key]!.new.append(place) }
            }
        }
        // Each key apart: the order of the keys changes nothing. Valid and rejected rows pair alike, so that
        // a row rejected in both runs pairs with itself, not with an order that was deleted meanwhile.
        for bucket in buckets.values where !bucket.new.isEmpty {
            let pairs = NearestRows.pairs(old: bucket.old.map { old[$0].row }, new: bucket.new.map { records[new[$0]].row })
            for pair in pairs {
                let (place, other) = (bucket.old[pair.old], bucket.new[pair.new])
                switch (old[place].rejected, records[new[other]].rejected) {
                case (false, false): take(place, other, into: &changed)
                case (false, true): take(place, other, into: &noLongerCounted)
                case (true, false): take(place, other, into: &nowCounted)
                case (true, true): take(place, other, into: &stillRejected)
                }
            }
        }

        deleted = old.indices.filter { oldLeft[$0 - base] && !old[$0].rejected }
        added = new.indices.filter { newLeft[$0] && !records[new[$0]].rejected }.map { new[$0] }
        rejected = new.indices.count { newLeft[$0] && records[new[$0]].rejected }
    }

    private struct Bucket {
        var old: [Int] = []
        var new: [Int] = []
    }

    /// Identified by its content: no id, or one that another row of its sheet shares.
    static func hasNoId(_ record: RowRecord) -> Bool {
        !record.identityValue.isID
    }

    /// Its group, its person as people are told apart (case aside), and its item.
    package static func key(_ record: RowRecord) -> String {
        "\(record.group)\u{1F}\(PersonKey(record.person).text)\u{1F}\(record.item)"
    }
}
