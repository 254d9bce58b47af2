import Foundation

@testable import OrderPress

/// The differ as it was before the state kept an index (`SnapshotIndex`): every record of the last
/// snapshot in memory, compared one by one. Kept verbatim as the oracle the indexed diff must equal;
/// the per-record helpers it used are `Differ`'s own, unchanged by the index.
struct ReferenceDiffer {
    var hasher: SecretHasher
    var now: String
    var differ: Differ { Differ(hasher: hasher, now: now) }

    /// This run's records (first-seen times carried over from matched rows) and what changed.
    func compare(_ data: ValidatedData, secrets: SecretCells, previous: Snapshot?) -> (snapshot: Snapshot, changes: ChangeSet) {
        var records = zip(data.rows, secrets.rows).map { differ.record($0, secrets: $1) }
        let current = Snapshot(
            version: Snapshot.currentVersion, salt: hasher.salt, changedAt: now, columns: data.columns,
            secretColumns: secrets.columns, rows: [], rates: nil)
        guard let previous else {
            return (differ.with(current, rows: records), ChangeSet(firstRun: true, deleted: [], added: [], changed: []))
        }

        // Match by identity; rows sharing one (identical content) pair up first come, first served.
        var unmatchedOld: [String: [Int]] = [:]
        for (index, record) in previous.rows.enumerated() { unmatchedOld[record.identity, default: []].append(index) }
        var matchedOld = Set<Int>()
        var addedIndices: [Int] = []
        var changed: [ChangeSet.Change] = []
        for index in records.indices {
            guard var candidates = unmatchedOld[records[index].identity], !candidates.isEmpty else {
                addedIndices.append(index)
                continue
            }
            let oldIndex = candidates.removeFirst()
            unmatchedOld[records[index].identity] = candidates
            matchedOld.insert(oldIndex)
            let old = previous.rows[oldIndex]
            records[index].firstSeen = old.firstSeen
            records[index].secrets = differ.carryOverUnknownSecrets(records[index], old, previous, current)
            let fields = differ.differences(old, previous, records[index], current)
            if !fields.isEmpty { changed.append(.init(before: old, after: records[index], fields: fields)) }
        }

        // A rejected row corrected in place has new content but the same sheet row: a change, not a new order.
        var deletedIndices = previous.rows.indices.filter { !matchedOld.contains($0) }
        var addedByRow: [Int: Int] = [:]
        for index in addedIndices { addedByRow[records[index].row] = index }
        var pairedNew = Set<Int>()
        deletedIndices.removeAll { oldIndex in
            let old = previous.rows[oldIndex]
            guard old.rejected, let newIndex = addedByRow[old.row], !pairedNew.contains(newIndex) else { return false }
            pairedNew.insert(newIndex)
            records[newIndex].firstSeen = old.firstSeen
            changed.append(.init(before: old, after: records[newIndex], fields: differ.differences(old, previous, records[newIndex], current)))
            return true
        }
        let changes = ChangeSet(
            firstRun: false, deleted: deletedIndices.map { previous.rows[$0] },
            added: addedIndices.filter { !pairedNew.contains($0) }.map { records[$0] },
            changed: changed.sorted { $0.after.row < $1.after.row })
        var snapshot = differ.with(current, rows: records)
        snapshot.salt = previous.salt
        if changes.isEmpty { snapshot.changedAt = previous.changedAt }
        return (snapshot, changes)
    }
}
