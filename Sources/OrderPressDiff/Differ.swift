import Foundation
import OrderPressFetch
import OrderPressSupport
import OrderPressValidate

/// Compares this run's validated rows with the last snapshot and turns them into snapshot records.
///
/// Validation hands over each row's identity and values, and apart from them its secret values; hashing
/// happens here because the salt belongs to the state folder's snapshot, which only the diff reads (so
/// `orderpress check` never needs the state), and the snapshot is the one place a secret leaves a trace.
struct Differ: Sendable {
    var hasher: SecretHasher
    /// This run's time (ISO 8601), given to rows seen for the first time.
    package var now: String
    /// What this run's records are made under beyond their rows' cells (`Snapshot.context`); nil when it
    /// cannot be told, and then no record of the last snapshot is kept without being made again.
    package var context: Digest128? = nil
    /// From this many rows on, records all made afresh are not held: only what they add to their rows, each
    /// made again when the staging writes it (`SnapshotRecords`); held whole beside the rows, they were a
    /// million-order full build's peak. Below it they are made here on both cores before render starts:
    /// made again while render ran, they took a 100,000-order full build 7 % longer (docs/benchmarks.md).
    package static let madeWhenStagedFrom = 250_000
    package var madeWhenStagedFrom = Differ.madeWhenStagedFrom

    /// The new snapshot without its records, this run's records (`SnapshotRecords`; first-seen times
    /// carried over from matched rows), their digests, which of them
    /// were kept rather than made again (`RecordReuse`), what changed, and how many of this run's rejected
    /// rows are new and tied to no order of the last run (which the deletion guard may count as orders
    /// that turned rejected).
    ///
    /// A row whose fingerprint is its matched record's, under the same context, keeps that record's digest
    /// and makes its record without hashing its secrets (see `RecordReuse`): hashing every secret and
    /// every record was most of a rerun's diff.
    ///
    /// Matching needs only the last snapshot's index; a record is read in full only when it is left over
    /// (see `LeftoverPairing`), or its digest differs from its match's, or its match has a secret this run
    /// could not see.
    ///
    /// Lets go of `sheet`'s rows and, unless `keepSecrets`, its secret cells
    /// once the records are made: at a million rows they are hundreds of MB that nothing reads again
    /// (each record shares its row's texts), held beside the records until the build's peak. When no
    /// record is kept, the records hold the rows instead, and are made from them when read.
    package func compare(
        taking sheet: inout ValidatedSheet, previous: PreviousSnapshot?, keepSecrets: Bool = false
    ) throws(DataError) -> (header: Snapshot, records: SnapshotRecords, digests: [RecordDigest], reuse: RecordReuse, changes: ChangeSet, newRejected: Int) {
        let data = sheet.data
        let matches = previous.map { previous in
            sheet.rows.withUnsafeBufferPointer { rows in Self.matches(count: rows.count, in: previous.chains) { rows[$0].identityKey } }
        }
        let kept = previous.map { keptRecords(sheet, previous: $0, matches: matches ?? []) } ?? []
        let remade = try remadeRecords(sheet, previous: previous, kept: kept)
        var (records, digests) = recordsAndDigests(&sheet, keepSecrets: keepSecrets, kept: kept, remade: remade, old: previous?.index.records ?? [])
        let reuse = RecordReuse(fingerprints: sheet.fingerprints.count == records.count ? sheet.fingerprints : RowFingerprints([]), kept: kept)
        sheet.rows = []
        Allocator.releaseFreed()
        var current = Snapshot(
            version: Snapshot.currentVersion, salt: hasher.salt, changedAt: now, columns: sheet.columns,
            secretColumns: sheet.secrets.columns, rows: [], rates: nil)
        current.context = context
        guard let previous, let matches else {
            return (current, records, digests, reuse, ChangeSet(firstRun: true, deleted: [], added: [], changed: []), 0)
        }
        let old = previous.index.records
        let header = previous.index.header
        // With other columns, equal digests cannot tell equal values: every match is read and compared.
        let sameColumns = header.columns == current.columns && header.secretColumns == current.secretColumns

        var matchedOld = [Bool](repeating: false, count: old.count)
        var unmatched: [Int] = []
        var differing: [(new: Int, old: Int)] = []
        for index in records.indices {
            let position = matches[index]
            // A kept record stands for its match as it was: first seen then, the same digest, every secret seen.
            if let from = records.keptFrom(index) {
                matchedOld[from] = true
                continue
            }
            guard position >= 0 else {
                unmatched.append(index)
                continue
            }
            matchedOld[position] = true
            records.setFirstSeen(index, old[position].firstSeen)
            // The digest leaves out the first-seen time, so it stands as computed.
            if sameColumns, digests[index] == old[position].digest, !records.hasUnknownSecret(index) { continue }
            differing.append((index, position))
        }
        let leftover = old.indices.filter { !matchedOld[$0] }
        let read = try previous.records(differing.map(\.old) + leftover)

        var changes = ChangeSet(firstRun: false, deleted: [], added: [], changed: [])
        var reasons: [Int: [String]]?
        /// The change from `before` to the record at `index`, which now stands for it.
        func makeChange(_ before: RowRecord, _ index: Int) -> ChangeSet.Change {
            let secrets = carryOverUnknownSecrets(records[index], before, header, current)
            if secrets != records[index].secrets {
                // Its digest was made with a secret this run could not see.
                records[index].secrets = secrets
                digests[index] = RecordDigest(records[index])
            }
            records[index].firstSeen = before.firstSeen
            var change = ChangeSet.Change(before: before, after: records[index], fields: differences(before, header, records[index], current))
            if !before.rejected, records[index].rejected {
                // Looked up only for the few orders that turned rejected.
                if reasons == nil { reasons = Dictionary(data.rejected.map { ($0.row, $0.reasons) }, uniquingKeysWith: { first, _ in first }) }
                change.reasons = reasons?[records[index].row] ?? []
            }
            return change
        }
        // Every old record that a new one stands for now, by its place in `read`: matched by identity, or
        // left over and paired (see `LeftoverPairing`). Taken in sheet order, so that each list of changes is
        // made in order rather than sorted afterwards (a change is two whole records to move).
        let pairing = LeftoverPairing(old: read[differing.count...], new: unmatched, records: records)
        var pairs = differing.indices.map { (new: differing[$0].new, read: $0) }
        for list in [pairing.changed, pairing.noLongerCounted, pairing.nowCounted, pairing.stillRejected] {
            pairs += list.map { (new: $0.new, read: $0.old) }
        }
        if pairs.count > differing.count { pairs.sort { $0.new < $1.new } }
        for pair in pairs {
            let change = makeChange(read[pair.read], pair.new)
            switch (change.before.rejected, change.after.rejected) {
            // Paired with no field changed: the same order, whose identity changed as another row's id came or
            // went, or whose digest could not tell (other columns, a secret this run could not see).
            case (false, false): if !change.fields.isEmpty { changes.changed.append(change) }
            case (false, true): changes.noLongerCounted.append(change)
            case (true, false): changes.nowCounted.append(change)
            // A row rejected in both runs is no order, whatever was edited in it.
            case (true, true): break
            }
        }
        changes.deleted = pairing.deleted.map { read[$0] }
        changes.added = pairing.added.map { records[$0] }

        current.salt = header.salt
        if changes.isEmpty { current.changedAt = header.changedAt }
        return (current, records, digests, reuse, changes, pairing.rejected)
    }

    /// For each of `sheet`'s rows, in order, the position in the last snapshot of the record it keeps
    /// (its match, `matches`), or -1 for one to make again; empty when none is kept. Kept: a row whose
    /// fingerprint is the one its match was made from, under the same context and columns, rejected as it
    /// was, with every secret seen (an unseen one's hash is the last one carried over, which a record made
    /// again must look up). Its identity is its match's, as matching found it.
    private func keptRecords(_ sheet: borrowing ValidatedSheet, previous: PreviousSnapshot, matches: [Int]) -> [Int32] {
        let header = previous.index.header
        guard let context, header.context == context, header.columns == sheet.columns, header.secretColumns == sheet.secrets.columns,
            sheet.fingerprints.count == sheet.rows.count, matches.count == sheet.rows.count, sheet.secrets.rows.count == sheet.rows.count
        else { return [] }
        let (old, rows, fingerprints, secrets) = (previous.index.records, sheet.rows, sheet.fingerprints, sheet.secrets.rows)
        return Parallel.fill(count: rows.count, minimumChunk: 20_000) { index in
            let position = matches[index]
            guard position >= 0, let fingerprint = old[position].fingerprint, fingerprint == fingerprints[index],
                old[position].rejected == rows[index].rejected, !secrets[index].contains(where: \.isUnknown)
            else { return -1 }
            return Int32(position)
        }
    }

    /// The records of the kept rows (`SheetRow.kept`) whose match is not a record this run keeps (their
    /// identity changed as another row's id came or went, or a row alike in every cell took their match),
    /// by index: each made from the last snapshot's record of the same cells, which validation named, with
    /// this row's place, id and identity. Read together, as the diff reads the records that differ.
    private func remadeRecords(_ sheet: borrowing ValidatedSheet, previous: PreviousSnapshot?, kept: [Int32]) throws(DataError) -> [Int: RowRecord] {
        guard sheet.keptRows > 0 else { return [:] }
        var remade: [(index: Int, row: KeptRow)] = []
        for index in sheet.rows.indices where index >= kept.count || kept[index] < 0 {
            if case .kept(let row) = sheet.rows[index] { remade.append((index, row)) }
        }
        guard !remade.isEmpty else { return [:] }
        // No last snapshot, or fewer of its records than validation named: the state changed under this build.
        let read = try previous?.records(remade.map { Int($0.row.known) }) ?? []
        guard read.count == remade.count else {
            throw DataError(message: "the state changed while this build read it: run the build again")
        }
        var records: [Int: RowRecord] = [:]
        for (made, before) in zip(remade, read) {
            records[made.index] = RowRecord(
                row: made.row.row, id: made.row.id, identity: made.row.identity, values: before.values, secrets: before.secrets, rejected: false,
                group: before.group, person: before.person, item: before.item, options: before.options, quantity: before.quantity,
                amount: before.amount, currency: before.currency, firstSeen: now)
        }
        return records
    }

    /// For each of `count` identities, in order, the last snapshot's position it pairs with, or -1:
    /// rows sharing an identity (identical content) pair up first come, first served. Each identity's
    /// first position is looked up on both cores; the one pass that pairs them then only walks a chain
    /// past positions already taken, from where it last stopped for that identity.
    static func matches(count: Int, in chains: IdentityChains, identity: (Int) -> IdentityKey) -> [Int] {
        var matches = Parallel.fill(count: count, minimumChunk: 5_000) { chains.first(identity($0)) ?? -1 }
        var taken = [Bool](repeating: false, count: chains.next.count)
        var cursor: [Int: Int] = [:]
        for index in 0..<count {
            let head = matches[index]
            var position = head
            if position >= 0, taken[position] {
                position = cursor[head] ?? chains.next[head]
                while position >= 0, taken[position] { position = chains.next[position] }
                cursor[head] = position
            }
            if position >= 0 { taken[position] = true }
            matches[index] = position
        }
        return matches
    }

    /// Hashing every secret and every record is most of a rerun's diff: both cores share it. Unless
    /// `keepSecrets`, `sheet`'s secret cells are taken, each row's let go as soon as it is hashed: their
    /// pages then hold the records' hashes, which were made beside them (an array and an e-mail a row at a
    /// million Form rows).
    /// A row `kept` names keeps its old record's digest, from `old`: no record is made of it, and its
    /// secrets are not hashed. A row validation kept that the diff does not keep (`remade`) has its record
    /// made from the last snapshot's.
    /// When none is kept and every row was validated in full, from `madeWhenStagedFrom` rows, the records
    /// are made again when read (`SnapshotRecords`), their secrets hashed again then: they hold the rows and
    /// the secret cells (taken from `sheet` unless `keepSecrets`), and the hashes only the digests need are
    /// not kept. Kept, a million Form rows' hashes were an array a row that the cells' holes could not take.
    private func recordsAndDigests(
        _ sheet: inout ValidatedSheet, keepSecrets: Bool, kept: [Int32], remade: [Int: RowRecord], old: [SnapshotIndex.Stamp]
    ) -> (SnapshotRecords, [RecordDigest]) {
        // Taken: held by the records made when read, or let go once the records are made (see below).
        var rows: [SheetRow] = []
        swap(&rows, &sheet.rows)
        let madeWhenStaged = sheet.keptRows == 0 && rows.count >= madeWhenStagedFrom
        // Every row validated in full (`madeWhenStaged`: none kept by validation) and none kept here: the
        // records are made when read, from the rows and their secret cells, which they hold.
        if madeWhenStaged, !(kept.count == rows.count && kept.contains { $0 >= 0 }) {
            var secrets: [[SecretValue]] = []
            if keepSecrets { secrets = sheet.secrets.rows } else { swap(&secrets, &sheet.secrets.rows) }
            let records = SnapshotRecords(rows: rows, secrets: secrets, hasher: hasher, firstSeen: now)
            let digests = [RecordDigest](unsafeUninitializedCapacity: records.count) { buffer, initialized in
                // Each range initialises only its own elements.
                nonisolated(unsafe) let buffer = buffer
                _ = Parallel.chunks(count: records.count, minimumChunk: 5_000) { range in
                    var scratch = RecordDigest.Scratch()
                    for index in range { (buffer.baseAddress! + index).initialize(to: scratch.digest(records[index])) }
                }
                initialized = records.count
            }
            return (records, digests)
        }
        guard !keepSecrets else {
            let secrets = sheet.secrets.rows
            return recordsAndDigests(&rows, kept: kept, remade: remade, old: old) { secrets[$0] }
        }
        var secrets: [[SecretValue]] = []
        swap(&secrets, &sheet.secrets.rows)
        return secrets.withUnsafeMutableBufferPointer { secrets in
            // Each range takes only its own rows' secrets; the kept rows' go with the array.
            nonisolated(unsafe) let secrets = secrets
            return recordsAndDigests(&rows, kept: kept, remade: remade, old: old) { index in
                var taken: [SecretValue] = []
                swap(&taken, &secrets[index])
                return taken
            }
        }
    }

    /// The records of `rows` and their digests, each record's secrets those `secrets` gives for its row.
    /// Lets go of `rows` once the records are made, before the digests: at a million rows they are
    /// hundreds of MB, and a rerun's diff peaks here, beside the last snapshot's index.
    private func recordsAndDigests(
        _ rows: inout [SheetRow], kept: [Int32], remade: [Int: RowRecord], old: [SnapshotIndex.Stamp], secrets: (Int) -> [SecretValue]
    ) -> (SnapshotRecords, [RecordDigest]) {
        // The positions of the rows made again: every row when none is kept.
        let made = rows.indices.filter { $0 >= kept.count || kept[$0] < 0 }
        // Each record digested as soon as it is made, while its texts are still in the cache: one pass, not two.
        let (fresh, freshDigests, _) = Parallel.fill(count: made.count, minimumChunk: 5_000) { range, put in
            var scratch = RecordDigest.Scratch()
            for index in range {
                let position = made[index]
                let record: RowRecord
                switch rows[position] {
                case .validated(let row): record = self.record(row, secrets: secrets(position))
                // Validation names a record for every kept row (`remadeRecords`).
                case .kept: record = remade[position]!
                }
                let digest = scratch.digest(record)
                put(index, consume record, digest)
            }
        }
        guard kept.count == rows.count else { return (SnapshotRecords(fresh), freshDigests) }
        let records = rows.withUnsafeBufferPointer { rows in
            SnapshotRecords(fresh: fresh, kept: kept, row: { rows[$0].row }, rejected: { rows[$0].rejected })
        }
        rows = []
        var digests: [RecordDigest] = []
        digests.reserveCapacity(kept.count)
        var next = 0
        for position in kept.indices {
            if kept[position] >= 0 {
                digests.append(old[Int(kept[position])].digest)
            } else {
                digests.append(freshDigests[next])
                next += 1
            }
        }
        return (records, digests)
    }

    /// Keeps the last known hash of a secret this run could not see, so it is neither lost nor "changed".
    func carryOverUnknownSecrets(_ new: RowRecord, _ old: RowRecord, _ oldSnapshot: Snapshot, _ newSnapshot: Snapshot) -> [SecretHash] {
        let known = Dictionary(zip(oldSnapshot.secretColumns, old.secrets), uniquingKeysWith: { first, _ in first })
        return zip(newSnapshot.secretColumns, new.secrets).map { column, hash in
            hash.isUnknown ? known[column] ?? hash : hash
        }
    }

    /// Borrowed: the row is read where it is, not copied out of the array for every row.
    package func record(_ row: borrowing ValidatedRow, secrets: borrowing [SecretValue]) -> RowRecord {
        RowRecord(row, secrets: secrets.map(hasher.hash), firstSeen: now)
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
        where oldSecrets[column] != newSecrets[column] && oldSecrets[column] != .unknown && newSecrets[column] != .unknown
        {
            fields[column] = [SecretMask.text, SecretMask.text]
        }
        return fields
    }
}
