import Foundation
import GRDB
import Testing

@testable import OrderPressSupport
@testable import OrderPressDiff
@testable import OrderPressValidate
import OrderPressTestSupport

/// A rerun keeps the records of rows whose cells did not change, under the same context (`RecordReuse`):
/// their secrets are not hashed again, their digests are the last ones, and the save leaves them where
/// they are; the state it saves equals one whose every record was made again.
@Suite struct RecordReuseTests {
    static let (key, rows) = (DiffFixtures.key, DiffFixtures.coded)

    static func sheet(_ rows: [[String]], currency: String = "TWD") throws -> ValidatedSheet {
        try DiffFixtures.validated(rows, currency: currency)
    }

    /// Runs the diff step on `sheet` over what `store` holds and saves what it decides; returns the decision
    /// and how much the save wrote.
    static func run(_ sheet: ValidatedSheet, key: [UInt8] = key, in store: StateStore, at time: String) throws -> (DiffDecision, SlotPlan.Counts) {
        let decision = try DiffStep(now: time, key: key).run(sheet, rates: nil, previous: try store.loadPrevious(), history: [])
        let staged = try store.stage(decision.snapshot, digests: decision.digests, reuse: decision.reuse)
        let written = try staged.staged()
        try store.save(staged, history: decision.history, lastBuild: nil)
        return (decision, written)
    }

    @Test func aRerunKeepsTheRecordsOfUnchangedRowsAndSavesWhatMakingThemAgainSaves() throws {
        let folder = TestSupport.temporaryFolder()
        let (first, written) = try Self.run(try Self.sheet(Self.rows), in: StateStore(folder: folder), at: "2026-11-21T10:00:00Z")
        #expect(first.reuse.keptCount == 0)
        #expect(written.written == Self.rows.count)

        var changed = Self.rows
        changed[2][5] = "40"
        let store = StateStore(folder: folder)
        let (rerun, rewritten) = try Self.run(try Self.sheet(changed), in: store, at: "2026-11-21T11:00:00Z")
        #expect(rerun.reuse.kept == [0, 1, -1, 3, 4, 5])
        #expect(rerun.snapshot.rows[0].secrets.isEmpty && rerun.snapshot.rows[0].values.isEmpty && rerun.snapshot.rows[2].secrets.count == 1)
        #expect(rewritten == SlotPlan.Counts(written: 1, removed: 0, reordered: false))
        #expect(rerun.changes.changed.map(\.after.row) == [4])

        // The same run over the same state with its context forgotten makes every record again.
        let other = TestSupport.temporaryFolder()
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent(StateDatabase.fileName), to: other.appendingPathComponent(StateDatabase.fileName))
        let again = StateStore(folder: other)
        var previous = try #require(try again.loadPrevious())
        previous.index.header.context = nil
        let made = try DiffStep(now: "2026-11-21T12:00:00Z", key: Self.key).run(try Self.sheet(changed), rates: nil, previous: previous, history: [])
        #expect(made.reuse.keptCount == 0)
        #expect(made.digests == rerun.digests)
        #expect(try StateStore(folder: folder).loadSnapshot()?.rows == made.snapshot.rows)
    }

    @Test(arguments: ["key", "currency", "rejected"])
    func nothingIsKeptWhenWhatTheRecordsWereMadeUnderChanged(_ change: String) throws {
        let folder = TestSupport.temporaryFolder()
        _ = try Self.run(try Self.sheet(Self.rows), in: StateStore(folder: folder), at: "2026-11-21T10:00:00Z")
        var (rows, key, currency) = (Self.rows, Self.key, "TWD")
        switch change {
        case "key": key[0] = 8
        case "currency": currency = "JPY"
        default: rows[1][5] = "free"
        }
        let (rerun, _) = try Self.run(try Self.sheet(rows, currency: currency), key: key, in: StateStore(folder: folder), at: "2026-11-21T11:00:00Z")
        let expected = change == "rejected" ? [0, -1, 2, 3, 4, 5] : []
        #expect(rerun.reuse.kept == expected.map(Int32.init))
        if expected.isEmpty { #expect(rerun.snapshot.rows.allSatisfy { $0.secrets.count == 1 }) }
    }

    /// A state saved by the version before fingerprints (schema v3) upgrades: the first build after it
    /// keeps nothing and writes every record again with its row's fingerprint, the one after keeps every
    /// record and writes nothing.
    @Test func aStateWithoutFingerprintsUpgrades() throws {
        let folder = TestSupport.temporaryFolder()
        let (first, _) = try Self.run(try Self.sheet(Self.rows), in: StateStore(folder: folder), at: "2026-11-21T10:00:00Z")
        let queue = try DatabaseQueue(path: folder.appendingPathComponent(StateDatabase.fileName).path)
        try queue.write { db in
            try db.execute(
                sql: """
                    ALTER TABLE record DROP COLUMN fingerprint; ALTER TABLE snapshot DROP COLUMN context;
                    DELETE FROM grdb_migrations WHERE identifier = 'v4'
                    """)
        }
        #expect(try StateFixtures.migrations(queue) == ["v1", "v2", "v3"])
        try queue.close()
        // Read without writing (a dry run, `orderpress diff`), as it is: no fingerprint, no context.
        let reader = try #require(try StateStore(folder: folder, writable: false).loadPrevious())
        #expect(reader.index.header.context == nil && reader.index.records.allSatisfy { $0.fingerprint == nil })
        #expect(reader.index.records.map(\.digest) == first.digests)

        let upgraded = StateStore(folder: folder)
        let (second, written) = try Self.run(try Self.sheet(Self.rows), in: upgraded, at: "2026-11-21T11:00:00Z")
        #expect(second.reuse.keptCount == 0)
        #expect(written.written == Self.rows.count)
        #expect(second.changes.isEmpty && second.snapshot.rows == first.snapshot.rows)
        let check = try DatabaseQueue(path: folder.appendingPathComponent(StateDatabase.fileName).path)
        #expect(try StateFixtures.migrations(check) == ["v1", "v2", "v3", "v4"])
        #expect(try check.read { try Int.fetchOne($0, sql: "SELECT count(fingerprint) FROM record") } == Self.rows.count)
        try check.close()

        let rerun = StateStore(folder: folder)
        let (third, nothing) = try Self.run(try Self.sheet(Self.rows), in: rerun, at: "2026-11-21T12:00:00Z")
        #expect(third.reuse.keptCount == Self.rows.count)
        #expect(nothing == .none)
        #expect(rerun.rowsWritten == nil)
    }

    /// A kept record is held as where it stands alone (`SnapshotRecords`): its sheet row, whether it is
    /// rejected and the last snapshot's position; only the rows made again are records.
    @Test func aRerunHoldsOnlyTheRecordsItMadeAgain() throws {
        let folder = TestSupport.temporaryFolder()
        _ = try Self.run(try Self.sheet(Self.rows), in: StateStore(folder: folder), at: "2026-11-21T10:00:00Z")
        var changed = Self.rows
        changed[2][5] = "40"
        changed.remove(at: 4)
        let (rerun, _) = try Self.run(try Self.sheet(changed), in: StateStore(folder: folder), at: "2026-11-21T11:00:00Z")
        let records = rerun.records
        #expect(records.count == 5 && records.keptCount == 4)
        #expect(records.indices.map { records.keptFrom($0) } == [0, 1, nil, 3, 5])
        #expect(records.indices.map { records.row($0) } == [2, 3, 4, 5, 6])
        #expect(records.indices.allSatisfy { !records.rejected($0) })
        #expect(records[2].values.isEmpty == false && records[2].secrets.count == 1)
    }

    /// A first run's records, made from their rows when read (from `madeWhenStagedFrom` rows) or made at
    /// once: the same records, rejected ones too.
    @Test(arguments: [0, Differ.madeWhenStagedFrom])
    func aFirstRunsRecordsAreMadeWhenRead(madeWhenStagedFrom: Int) throws {
        var rows = Self.rows
        rows[1][5] = "free"
        let sheet = try Self.sheet(rows)
        var step = DiffStep(now: "2026-11-21T10:00:00Z", key: Self.key)
        step.madeWhenStagedFrom = madeWhenStagedFrom
        let decision = try step.run(sheet, rates: nil, previous: nil, history: [])
        let differ = Differ(hasher: SecretHasher(key: Self.key), now: "2026-11-21T10:00:00Z")
        let made = zip(sheet.rows, sheet.secrets.rows).map { differ.record($0.validatedRow!, secrets: $1) }
        #expect(decision.records.all == made)
        #expect(decision.digests == made.map(RecordDigest.init))
        #expect(decision.records.freshRejected == [made[1]])
    }

    /// A rerun that keeps no record (its context changed) makes its records when read (from
    /// `madeWhenStagedFrom` rows) as it makes them at once: each match's first-seen time carried over, the
    /// last hash of a secret this run could not see carried over, the same digests and changes.
    @Test func aRerunThatKeepsNothingMakesTheSameRecordsWhenRead() throws {
        var decisions: [DiffDecision] = []
        var first: [RowRecord] = []
        for madeWhenStagedFrom in [Differ.madeWhenStagedFrom, 0] {
            let folder = TestSupport.temporaryFolder()
            first = try Self.run(try Self.sheet(Self.rows), in: StateStore(folder: folder), at: "2026-11-21T10:00:00Z").0.records.all
            var changed = Self.rows
            changed[2][5] = "40"
            changed[3][6] = SecretMask.text
            var previous = try #require(try StateStore(folder: folder).loadPrevious())
            previous.index.header.context = nil
            var step = DiffStep(now: "2026-11-21T11:00:00Z", key: Self.key)
            step.madeWhenStagedFrom = madeWhenStagedFrom
            decisions.append(try step.run(try Self.sheet(changed), rates: nil, previous: previous, history: []))
        }
        let (held, made) = (decisions[0], decisions[1])
        #expect(made.reuse.keptCount == 0)
        #expect(made.records.all == held.records.all)
        #expect(made.digests == held.digests)
        #expect(made.changes == held.changes && made.changes.changed.map(\.after.row) == [4])
        #expect(made.records.all.map(\.firstSeen) == Array(repeating: "2026-11-21T10:00:00Z", count: Self.rows.count))
        #expect(made.records.all[3].secrets == first[3].secrets && first[3].secrets != [.unknown])
    }

    /// Once a new snapshot is staged, the store lets go of the last one's index; the save is the same.
    @Test func theLastIndexLetGoSavesTheSame() throws {
        var saved: [Snapshot?] = []
        var stamps: [String] = []
        for letGo in [false, true] {
            let folder = TestSupport.temporaryFolder()
            _ = try Self.run(try Self.sheet(Self.rows), in: StateStore(folder: folder), at: "2026-11-21T10:00:00Z")
            var changed = Self.rows
            changed[2][5] = "40"
            let store = StateStore(folder: folder)
            let decision = try DiffStep(now: "2026-11-21T11:00:00Z", key: Self.key).run(
                try Self.sheet(changed), rates: nil, previous: try store.loadPrevious(), history: [])
            let staged = try store.stage(header: decision.header, records: decision.records, digests: decision.digests, reuse: decision.reuse)
            if letGo {
                store.letGoOfPreviousRecords()
                #expect(try store.contents().snapshot?.records.isEmpty == true)
            }
            try store.save(staged, history: decision.history, lastBuild: nil)
            saved.append(try StateStore(folder: folder).loadSnapshot())
            let queue = try DatabaseQueue(path: folder.appendingPathComponent(StateDatabase.fileName).path)
            stamps.append(try queue.read { db in
                try String.fetchAll(db, sql: "SELECT quote(slot) || quote(digest) || quote(fingerprint) FROM record ORDER BY slot").joined()
            })
            try queue.close()
        }
        #expect(saved[0] == saved[1] && saved[0]?.rows.count == Self.rows.count)
        #expect(stamps[0] == stamps[1] && !stamps[0].isEmpty)
    }
}
