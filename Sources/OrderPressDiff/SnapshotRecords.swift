import OrderPressSupport
import OrderPressValidate

/// A new snapshot's records in sheet order, as the diff makes them: each one made afresh, or kept from the
/// last snapshot (`RecordReuse`), of which only its sheet row, whether it is rejected and the position of
/// the record it stands for are held.
///
/// A record kept whole was a `RowRecord` of some 200 bytes with none of its fields filled: at a million
/// rows, a rerun held a quarter of a GB of them through the diff and the staging. Everything else a kept
/// record is (its identity, first-seen time, digest, fields and secret hashes) is the last snapshot's.
///
/// When none is kept (a first run, or a rerun whose records cannot be kept: another binary, key or
/// configuration), the records are not held at all, only the validated rows and their secret cells
/// (`made`): each record is made again from its row when read, by the staging above all, its secrets
/// hashed then. Held whole beside the rows they were made of, they were the peak of a million orders'
/// full build; so were their secrets' hashes, an array a row in the holes the secret cells left.
package struct SnapshotRecords: Sendable {
    /// The records made afresh, in sheet order (none when `made` holds them).
    private var fresh: [RowRecord]
    /// Where each record is, in sheet order; empty when every one was made afresh (`fresh` is all of them).
    private var places: [Place]
    /// The records, made from their rows when read, when none was kept (`isMade`).
    private var made: Made
    private var isMade: Bool

    private struct Place: Sendable {
        /// The record's index in `fresh`, or, for a kept one, -1 less the last snapshot's position it stands for.
        var index: Int32
        /// A kept record's sheet row.
        var row: Int32
        /// Whether a kept record is rejected.
        var rejected: Bool
    }

    /// Records not yet made: each row's, with its secret cells, hashed when the record is made, and `firstSeen`.
    struct Made: Sendable {
        /// Every one validated in full (`SheetRow.validated`).
        var rows: [SheetRow]
        /// Each row's secret cells, as validation read them.
        var secrets: [[SecretValue]]
        var hasher: SecretHasher
        var firstSeen: String
        /// Each record's first-seen time, once one is not `firstSeen` (a rerun carries its match's over).
        var seen: [String] = []
        /// The secrets' hashes of the records whose hashes the diff changed (the last ones of secrets this run could not see).
        var changedSecrets: [Int: [SecretHash]] = [:]

        func record(_ position: Int) -> RowRecord {
            guard case .validated(let row) = rows[position] else { preconditionFailure("a record is made only of a row validated in full") }
            return RowRecord(row, secrets: hashes(position), firstSeen: seen.isEmpty ? firstSeen : seen[position])
        }

        /// Record `position`'s secrets' hashes.
        func hashes(_ position: Int) -> [SecretHash] {
            if !changedSecrets.isEmpty, let changed = changedSecrets[position] { return changed }
            return secrets[position].map(hasher.hash)
        }

        /// What a change to record `position` changed of what it adds to its row (its secrets' hashes, which
        /// were `hashes`, and first-seen time: the diff changes nothing else of a record it made).
        mutating func update(_ position: Int, to record: borrowing RowRecord, hashes: [SecretHash]) {
            if record.secrets != hashes { changedSecrets[position] = record.secrets }
            setFirstSeen(position, record.firstSeen)
        }

        mutating func setFirstSeen(_ position: Int, _ time: String) {
            if seen.isEmpty, time != firstSeen { seen = Array(repeating: firstSeen, count: rows.count) }
            if !seen.isEmpty { seen[position] = time }
        }
    }

    /// Every record made afresh.
    package init(_ records: [RowRecord] = []) {
        fresh = records
        places = []
        made = Made(rows: [], secrets: [], hasher: SecretHasher(salt: ""), firstSeen: "")
        isMade = false
    }

    /// The records of `rows`, each with its row's `secrets` hashed by `hasher`, first seen `firstSeen`, made when read.
    init(rows: [SheetRow], secrets: [[SecretValue]], hasher: SecretHasher, firstSeen: String) {
        precondition(rows.count == secrets.count, "a record's secrets are not its row's")
        fresh = []
        places = []
        made = Made(rows: rows, secrets: secrets, hasher: hasher, firstSeen: firstSeen)
        isMade = true
    }

    /// `records` whole, of which those `reuse` says were kept stand only for the last snapshot's (their fields unread).
    package init(_ records: [RowRecord], reuse: RecordReuse) {
        let kept = reuse.kept
        guard kept.count == records.count, kept.contains(where: { $0 >= 0 }) else {
            self.init(records)
            return
        }
        self.init(
            fresh: records.indices.filter { kept[$0] < 0 }.map { records[$0] }, kept: kept, row: { records[$0].row },
            rejected: { records[$0].rejected })
    }

    /// `fresh`, the records made afresh, and the others kept: for each position in sheet order, the last
    /// snapshot's position it stands for or -1 (`RecordReuse.kept`), and each kept one's sheet row and
    /// whether it is rejected. Nothing kept when `kept` is empty.
    init(fresh: [RowRecord], kept: [Int32], row: (Int) -> Int, rejected: (Int) -> Bool) {
        self.fresh = fresh
        made = Made(rows: [], secrets: [], hasher: SecretHasher(salt: ""), firstSeen: "")
        isMade = false
        guard !kept.isEmpty else {
            places = []
            return
        }
        var next: Int32 = 0
        places = kept.indices.map { position in
            if kept[position] >= 0 { return Place(index: -1 - kept[position], row: Int32(row(position)), rejected: rejected(position)) }
            defer { next += 1 }
            return Place(index: next, row: 0, rejected: false)
        }
        precondition(Int(next) == fresh.count, "the records made afresh are not the rows kept none of")
    }

    /// How many records the snapshot has.
    package var count: Int { isMade ? made.rows.count : places.isEmpty ? fresh.count : places.count }

    package var indices: Range<Int> { 0..<count }

    /// How many records were kept.
    package var keptCount: Int { places.isEmpty ? 0 : places.count - fresh.count }

    /// The last snapshot's position that record `position` stands for, when it was kept.
    package func keptFrom(_ position: Int) -> Int? {
        guard !places.isEmpty, places[position].index < 0 else { return nil }
        return Int(-1 - places[position].index)
    }

    /// Where record `position`, made afresh, is in `fresh` (or in `made`); nil for a kept one.
    private func freshIndex(_ position: Int) -> Int? {
        guard !places.isEmpty else { return position }
        let index = places[position].index
        return index >= 0 ? Int(index) : nil
    }

    /// The sheet row of record `position`.
    package func row(_ position: Int) -> Int {
        if isMade { return made.rows[position].row }
        guard let index = freshIndex(position) else { return Int(places[position].row) }
        return fresh[index].row
    }

    /// Whether record `position` is rejected.
    package func rejected(_ position: Int) -> Bool {
        if isMade { return made.rows[position].rejected }
        guard let index = freshIndex(position) else { return places[position].rejected }
        return fresh[index].rejected
    }

    /// Whether record `position` was made afresh (not kept).
    package func isFresh(_ position: Int) -> Bool {
        keptFrom(position) == nil
    }

    /// Record `position`, which must have been made afresh; read where it is (or made), not copied.
    package subscript(position: Int) -> RowRecord {
        _read {
            if isMade {
                yield made.record(position)
            } else {
                yield fresh[freshPosition(position)]
            }
        }
        _modify {
            if isMade {
                var record = made.record(position)
                let hashes = record.secrets
                yield &record
                made.update(position, to: record, hashes: hashes)
            } else {
                yield &fresh[freshPosition(position)]
            }
        }
    }

    /// Sets record `position`'s first-seen time (it must have been made afresh), without making it when it is made when read.
    package mutating func setFirstSeen(_ position: Int, _ time: String) {
        if isMade { made.setFirstSeen(position, time) } else { self[position].firstSeen = time }
    }

    /// Whether record `position` (made afresh) has a secret this run could not see.
    package func hasUnknownSecret(_ position: Int) -> Bool {
        guard isMade, made.changedSecrets[position] == nil else { return self[position].secrets.contains(.unknown) }
        return made.secrets[position].contains(where: \.isUnknown)
    }

    /// Has the records made when read hash their secrets with `hasher` from now on (`DiffStep.rehash`), as
    /// if every one had been given that hasher's hashes of its secrets; false (and nothing done) when the
    /// records are held.
    mutating func rehashWhenRead(with hasher: SecretHasher) -> Bool {
        guard isMade else { return false }
        made.hasher = hasher
        made.changedSecrets = [:]
        return true
    }

    private func freshPosition(_ position: Int) -> Int {
        guard let index = freshIndex(position) else { preconditionFailure("record \(position) was kept, not made") }
        return index
    }

    /// The records made afresh that are rejected, in sheet order.
    package var freshRejected: [RowRecord] {
        if isMade { return made.rows.indices.filter { made.rows[$0].rejected }.map(made.record) }
        return fresh.filter(\.rejected)
    }
}

extension RowRecord {
    /// The record of `row` with its secrets' `secrets` hashes and its amount as exact text, first seen `firstSeen`.
    init(_ row: borrowing ValidatedRow, secrets: [SecretHash], firstSeen: String) {
        self.init(
            row: row.row, id: row.id, identity: row.identity, values: row.values, secrets: secrets, rejected: row.rejected,
            group: row.group, person: row.person, item: row.item, options: row.options, quantity: row.quantity,
            amount: row.amount.map(DecimalText.exact), currency: row.currency, firstSeen: firstSeen)
    }
}
