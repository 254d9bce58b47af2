import Foundation

@testable import OrderPress

/// The differ as it was before the state kept an index (`SnapshotIndex`): every record of the last
/// snapshot in memory, compared one by one. Kept verbatim as the oracle the indexed diff must equal.
struct ReferenceDiffer {
    var hasher: SecretHasher
    var now: String

    /// This run's records (first-seen times carried over from matched rows) and what changed.
    func compare(_ data: ValidatedData, secrets: SecretCells, previous: Snapshot?) -> (snapshot: Snapshot, changes: ChangeSet) {
        var records = zip(data.rows, secrets.rows).map { record($0, secrets: $1) }
        let current = Snapshot(
            version: Snapshot.currentVersion, salt: hasher.salt, changedAt: now, columns: data.columns,
            secretColumns: secrets.columns, rows: [], rates: nil)
        guard let previous else {
            return (with(current, rows: records), ChangeSet(firstRun: true, deleted: [], added: [], changed: []))
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
            records[index].secrets = carryOverUnknownSecrets(records[index], old, previous, current)
            let fields = differences(old, previous, records[index], current)
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
            changed.append(.init(before: old, after: records[newIndex], fields: differences(old, previous, records[newIndex], current)))
            return true
        }
        let changes = ChangeSet(
            firstRun: false, deleted: deletedIndices.map { previous.rows[$0] },
            added: addedIndices.filter { !pairedNew.contains($0) }.map { records[$0] },
            changed: changed.sorted { $0.after.row < $1.after.row })
        var snapshot = with(current, rows: records)
        snapshot.salt = previous.salt
        if changes.isEmpty { snapshot.changedAt = previous.changedAt }
        return (snapshot, changes)
    }

    /// Keeps the last known hash of a secret this run could not see, so it is neither lost nor "changed".
    func carryOverUnknownSecrets(_ new: RowRecord, _ old: RowRecord, _ oldSnapshot: Snapshot, _ newSnapshot: Snapshot) -> [String] {
        let known = Dictionary(zip(oldSnapshot.secretColumns, old.secrets), uniquingKeysWith: { first, _ in first })
        return zip(newSnapshot.secretColumns, new.secrets).map { column, hash in
            hash == SecretHasher.unknown ? known[column] ?? hash : hash
        }
    }

    func with(_ snapshot: Snapshot, rows: [RowRecord]) -> Snapshot {
        var snapshot = snapshot
        snapshot.rows = rows
        return snapshot
    }

    func record(_ row: ValidatedRow, secrets: [SecretValue]) -> RowRecord {
        RowRecord(
            row: row.row, id: row.id, identity: row.identity, values: row.values, secrets: secrets.map(hasher.hash),
            rejected: row.rejected, group: row.group, person: row.person, item: row.item, options: row.options,
            quantity: row.quantity, amount: row.amount.map(DecimalText.exact), currency: row.currency, firstSeen: now)
    }

    /// Column → [before, after] for every mapped column whose value differs; secrets masked.
    func differences(_ old: RowRecord, _ oldSnapshot: Snapshot, _ new: RowRecord, _ newSnapshot: Snapshot) -> [String: [String]] {
        var fields: [String: [String]] = [:]
        let before = Dictionary(zip(oldSnapshot.columns, old.values), uniquingKeysWith: { first, _ in first })
        let after = Dictionary(zip(newSnapshot.columns, new.values), uniquingKeysWith: { first, _ in first })
        for column in Set(before.keys).union(after.keys) where before[column, default: ""] != after[column, default: ""] {
            fields[column] = [before[column, default: ""], after[column, default: ""]]
        }
        let oldSecrets = Dictionary(zip(oldSnapshot.secretColumns, old.secrets), uniquingKeysWith: { first, _ in first })
        let newSecrets = Dictionary(zip(newSnapshot.secretColumns, new.secrets), uniquingKeysWith: { first, _ in first })
        for column in Set(oldSecrets.keys).intersection(newSecrets.keys)
        where oldSecrets[column] != newSecrets[column] && oldSecrets[column] != SecretHasher.unknown
            && newSecrets[column] != SecretHasher.unknown
        {
            fields[column] = [SecretMask.text, SecretMask.text]
        }
        return fields
    }
}
