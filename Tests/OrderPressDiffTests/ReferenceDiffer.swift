import Foundation

@testable import OrderPressValidate
@testable import OrderPressDiff
import OrderPressTestSupport

/// The differ as it was before the state kept an index (`SnapshotIndex`): every record of the last
/// snapshot in memory, compared one by one; and the rules for rows left over after matching by identity
/// (rejected rows, orders without ids edited) written out the plain way, trying every pair. The oracle the
/// indexed diff must equal; the per-record helpers it uses are `Differ`'s own.
struct ReferenceDiffer {
    var hasher: SecretHasher
    var now: String
    var differ: Differ { Differ(hasher: hasher, now: now) }

    /// This run's records (first-seen times carried over from matched rows), what changed, and how many
    /// new rejected rows pair with no order of the last run.
    func compare(_ sheet: ValidatedSheet, previous: Snapshot?) -> (snapshot: Snapshot, changes: ChangeSet, newRejected: Int) {
        let (data, secrets) = (sheet.data, sheet.secrets)
        var records = zip(sheet.rows, secrets.rows).map { differ.record($0.validatedRow!, secrets: $1) }
        let current = Snapshot(
            version: Snapshot.currentVersion, salt: hasher.salt, changedAt: now, columns: sheet.columns,
            secretColumns: secrets.columns, rows: [], rates: nil)
        guard let previous else {
            return (Self.with(current, rows: records), ChangeSet(firstRun: true, deleted: [], added: [], changed: []), 0)
        }
        var changes = ChangeSet(firstRun: false, deleted: [], added: [], changed: [])
        /// Records the change from the old record to the new one that stands for it now, by what each was.
        func pair(_ oldIndex: Int, _ index: Int) {
            let old = previous.rows[oldIndex]
            records[index].firstSeen = old.firstSeen
            records[index].secrets = differ.carryOverUnknownSecrets(records[index], old, previous, current)
            let fields = differ.differences(old, previous, records[index], current)
            let change = ChangeSet.Change(before: old, after: records[index], fields: fields)
            switch (old.rejected, records[index].rejected) {
            case (false, false): if !fields.isEmpty { changes.changed.append(change) }
            case (false, true):
                var change = change
                change.reasons = data.rejected.first { $0.row == records[index].row }?.reasons ?? []
                changes.noLongerCounted.append(change)
            case (true, false): changes.nowCounted.append(change)
            case (true, true): break
            }
        }

        // Match by identity; rows sharing one (identical content) pair up first come, first served.
        var unmatchedOld: [String: [Int]] = [:]
        for (index, record) in previous.rows.enumerated() { unmatchedOld[record.identity, default: []].append(index) }
        var oldLeft = Set(previous.rows.indices)
        var newLeft = Set<Int>()
        for index in records.indices {
            guard var candidates = unmatchedOld[records[index].identity], !candidates.isEmpty else {
                newLeft.insert(index)
                continue
            }
            let oldIndex = candidates.removeFirst()
            unmatchedOld[records[index].identity] = candidates
            oldLeft.remove(oldIndex)
            pair(oldIndex, index)
        }

        // Old rows without an id pair with new rows of the same group, person (case aside) and item, valid
        // or rejected alike: each time the closest two rows of all (ties: the lower old row, then the lower
        // new row) first.
        func withoutId(_ record: RowRecord) -> Bool { record.identity.hasPrefix("content:") }
        func sameOrder(_ a: RowRecord, _ b: RowRecord) -> Bool {
            a.group == b.group && PersonKey(a.person) == PersonKey(b.person) && a.item == b.item
        }
        while true {
            var best: (distance: Int, oldRow: Int, newRow: Int, old: Int, new: Int)?
            for oldIndex in oldLeft where withoutId(previous.rows[oldIndex]) {
                for index in newLeft where sameOrder(previous.rows[oldIndex], records[index]) {
                    let (oldRow, newRow) = (previous.rows[oldIndex].row, records[index].row)
                    let candidate = (abs(oldRow - newRow), oldRow, newRow, oldIndex, index)
                    if best.map({ (candidate.0, candidate.1, candidate.2) < ($0.distance, $0.oldRow, $0.newRow) }) ?? true { best = candidate }
                }
            }
            guard let best else { break }
            oldLeft.remove(best.old)
            newLeft.remove(best.new)
            pair(best.old, best.new)
        }
        changes.deleted = oldLeft.sorted().map { previous.rows[$0] }.filter { !$0.rejected }
        changes.added = newLeft.sorted().map { records[$0] }.filter { !$0.rejected }
        changes.changed.sort { $0.after.row < $1.after.row }
        changes.noLongerCounted.sort { $0.after.row < $1.after.row }
        changes.nowCounted.sort { $0.after.row < $1.after.row }
        var snapshot = Self.with(current, rows: records)
        snapshot.salt = previous.salt
        if changes.isEmpty { snapshot.changedAt = previous.changedAt }
        return (snapshot, changes, newLeft.count { records[$0].rejected })
    }

    static func with(_ snapshot: Snapshot, rows: [RowRecord]) -> Snapshot {
        var snapshot = snapshot
        snapshot.rows = rows
        return snapshot
    }
}
