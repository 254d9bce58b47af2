import Foundation

/// Turns this run's rows into snapshot records and compares them with the last snapshot.
struct Differ: Sendable {
    var configuration: Configuration
    var hasher: SecretHasher
    /// This run's time (ISO 8601), given to rows seen for the first time.
    var now: String

    /// This run's records (first-seen times carried over from matched rows) and what changed.
    func compare(table: SourceTable, data: ValidatedData, previous: Snapshot?) -> (snapshot: Snapshot, changes: ChangeSet) {
        let reader = RowReader(table: table, columns: configuration.orderColumns)
        let columns = reader.displayColumns.filter { !reader.secret.contains($0) }
        let secretColumns = reader.displayColumns.filter { reader.secret.contains($0) }
        var records = makeRecords(table: table, data: data, reader: reader, columns: columns, secretColumns: secretColumns)
        let current = Snapshot(
            version: Snapshot.currentVersion, salt: hasher.salt, changedAt: now, columns: columns,
            secretColumns: secretColumns, rows: [], rates: nil)
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
    private func carryOverUnknownSecrets(_ new: RowRecord, _ old: RowRecord, _ oldSnapshot: Snapshot, _ newSnapshot: Snapshot) -> [String] {
        let known = Dictionary(zip(oldSnapshot.secretColumns, old.secrets), uniquingKeysWith: { first, _ in first })
        return zip(newSnapshot.secretColumns, new.secrets).map { column, hash in
            hash == SecretHasher.unknown ? known[column] ?? hash : hash
        }
    }

    private func with(_ snapshot: Snapshot, rows: [RowRecord]) -> Snapshot {
        var snapshot = snapshot
        snapshot.rows = rows
        return snapshot
    }

    private func makeRecords(
        table: SourceTable, data: ValidatedData, reader: RowReader, columns: [String], secretColumns: [String]
    ) -> [RowRecord] {
        var ordersByRow: [Int: Order] = [:]
        for order in data.orders { ordersByRow[order.row] = order }
        let orderColumns = configuration.orderColumns
        var idCounts: [String: Int] = [:]
        for row in table.rows {
            let id = reader.text(row, orderColumns.id)
            if !id.isEmpty { idCounts[id, default: 0] += 1 }
        }
        // Paying is not a new order: without an id, a row matched by content stays the same order
        // when only its paid cell changes, and the diff shows that as a change.
        let contentColumns = columns.enumerated().filter { $0.element != orderColumns.id && $0.element != orderColumns.paid }
            .sorted { $0.element < $1.element }
        return table.rows.map { row in
            let values = columns.map { reader.text(row, $0) }
            let id = reader.text(row, orderColumns.id)
            let identity: String
            if !id.isEmpty, idCounts[id] == 1 {
                identity = "id:\(id)"
            } else {
                identity = "content:" + contentColumns.map { "\($0.element)=\(values[$0.offset])" }.joined(separator: "\u{1F}")
            }
            let order = ordersByRow[row.number]
            return RowRecord(
                row: row.number, id: id.isEmpty ? nil : id, identity: identity, values: values,
                secrets: secretColumns.map { hasher.hash(reader.text(row, $0)) }, rejected: order == nil,
                group: order?.group ?? reader.text(row, orderColumns.group),
                person: order?.person ?? reader.text(row, orderColumns.person),
                item: order?.item ?? reader.text(row, orderColumns.item),
                options: order?.options ?? orderColumns.options.map { reader.text(row, $0) }.filter { !$0.isEmpty },
                quantity: order?.quantity ?? QuantityText.parse(reader.text(row, orderColumns.quantity)) ?? 1,
                amount: order.map { DecimalText.exact($0.amount) },
                currency: order?.currency ?? reader.text(row, orderColumns.currency).uppercased(),
                firstSeen: now)
        }
    }

    /// Column → [before, after] for every mapped column whose value differs; secrets masked.
    private func differences(_ old: RowRecord, _ oldSnapshot: Snapshot, _ new: RowRecord, _ newSnapshot: Snapshot) -> [String: [String]] {
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
            fields[column] = [RejectedRow.secretMask, RejectedRow.secretMask]
        }
        return fields
    }
}
