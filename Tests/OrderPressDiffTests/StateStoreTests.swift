import Foundation
import GRDB
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressDiff
import OrderPressTestSupport

@Suite struct StateStoreTests {
    static let startAfresh = "move it away to start afresh (the next build is then a first run)"

    /// A state folder holding a good snapshot and history, as a build leaves them.
    static func saved() throws -> (store: StateStore, snapshot: Snapshot) {
        let store = StateStore(folder: TestSupport.temporaryFolder())
        let (snapshot, changes) = try DiffFixtures.compare(DifferTests.base, previous: nil)
        try store.save(snapshot: snapshot, history: [HistoryEntry(time: "2026-11-21T10:00:00Z", changes: changes, sequence: 1)], lastBuild: LastBuild(fingerprint: "f1"))
        return (store, snapshot)
    }

    /// A state folder as OrderPress wrote it before the database, with the files given.
    static func legacyFolder(snapshot: Snapshot?, history: [HistoryEntry]?, siteID: UUID?) -> URL {
        let folder = TestSupport.temporaryFolder()
        var files: [String: String] = [:]
        if let snapshot { files["snapshot.json"] = String(decoding: JSONOutput.encode(snapshot), as: UTF8.self) }
        if let history {
            files["history.json"] = String(decoding: JSONOutput.encode(LegacyStateFiles.History(version: 1, entries: history)), as: UTF8.self)
        }
        if let siteID { files["site-id"] = siteID.uuidString.lowercased() + "\n" }
        TestSupport.write(files, in: folder)
        return folder
    }

    static func exists(_ name: String, in folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
    }

    @Test func aSavedStateReadsBackWhole() throws {
        let (store, snapshot) = try Self.saved()
        let id = try store.siteID(create: true)
        let fresh = StateStore(folder: store.folder)
        #expect(try fresh.loadSnapshot() == snapshot)
        #expect(try fresh.loadHistory().map(\.time) == ["2026-11-21T10:00:00Z"])
        #expect(try fresh.lastBuild()?.fingerprint == "f1")
        #expect(try fresh.siteID(create: false) == id)
        #expect(TestSupport.files(in: store.folder) == ["state.sqlite"])
    }

    /// Text of any kind survives the lists' encoding, and an empty list is not a list of one "".
    @Test(arguments: [[], [""], ["", ""], ["a\\", "\u{1F}", "\\u", "\\\u{301}x", "紅茶\n\t\u{0}"], ["\u{1F}\u{1F}\\\\"]])
    func listsRoundTrip(list: [String]) {
        #expect(ListText.decode(ListText.encode(list)) == list)
    }

    /// Each file of a state folder written before the database is moved into it by the first write,
    /// and removed only then; reading alone (a dry run, `orderpress diff`) changes nothing.
    @Test(arguments: ["snapshot.json", "history.json", "site-id"])
    func eachOldFileIsMigratedThenRemoved(file: String) throws {
        let (snapshot, changes) = try DiffFixtures.compare(DifferTests.base, previous: nil)
        let history = [HistoryEntry(time: "2026-11-21T10:00:00Z", changes: changes, sequence: 1)]
        let folder = Self.legacyFolder(
            snapshot: file == "snapshot.json" ? snapshot : nil, history: file == "history.json" ? history : nil,
            siteID: file == "site-id" ? DiffFixtures.siteID : nil)
        let reader = StateStore(folder: folder, writable: false)
        #expect(try reader.loadSnapshot() == (file == "snapshot.json" ? snapshot : nil))
        #expect(try reader.siteID(create: false) == DiffFixtures.siteID || file != "site-id")
        #expect(TestSupport.files(in: folder) == [file])

        // As a build does: read, keep the site id, save.
        let store = StateStore(folder: folder)
        let loaded = try store.loadSnapshot()
        let id = try store.siteID(create: true)
        try store.save(snapshot: loaded ?? snapshot, history: try store.loadHistory())
        #expect(TestSupport.files(in: folder) == ["state.sqlite"])
        let migrated = StateStore(folder: folder)
        #expect(try migrated.loadSnapshot() == snapshot)
        // Saved by the version before: it keeps the feed id made of its time.
        #expect(try migrated.loadHistory() == (file == "history.json" ? history.map { HistoryEntry(time: $0.time, changes: $0.changes, sequence: 1, numbered: false) } : []))
        #expect(try migrated.siteID(create: false) == id)
        if file == "site-id" { #expect(id == DiffFixtures.siteID) }
    }

    /// A build stopped after the database was committed but before the old files were removed: the
    /// database is the state, and the next write removes the leftovers.
    @Test func theDatabaseWinsOverOldFilesLeftBehind() throws {
        let (store, snapshot) = try Self.saved()
        var stale = snapshot
        stale.rows.removeFirst()
        TestSupport.write(["snapshot.json": String(decoding: JSONOutput.encode(stale), as: UTF8.self)], in: store.folder)
        let next = StateStore(folder: store.folder)
        #expect(try next.loadSnapshot() == snapshot)
        try next.save(snapshot: snapshot, history: try next.loadHistory(), lastBuild: LastBuild(fingerprint: "f1"))
        #expect(next.rowsWritten == nil)
        #expect(TestSupport.files(in: store.folder) == ["state.sqlite"])
    }

    /// A build stopped while creating the database leaves an empty file once SQLite has rolled it back:
    /// the old files are still the state.
    @Test func anEmptyDatabaseLeavesTheOldFilesInCharge() throws {
        let (snapshot, _) = try DiffFixtures.compare(DifferTests.base, previous: nil)
        let folder = Self.legacyFolder(snapshot: snapshot, history: [], siteID: DiffFixtures.siteID)
        TestSupport.write(["state.sqlite": ""], in: folder)
        let store = StateStore(folder: folder)
        #expect(try store.loadSnapshot() == snapshot)
        #expect(try store.siteID(create: true) == DiffFixtures.siteID)
        try store.save(snapshot: snapshot, history: [])
        #expect(store.rowsWritten == nil)
        #expect(TestSupport.files(in: folder) == ["state.sqlite"])
        #expect(try StateStore(folder: folder).loadSnapshot() == snapshot)
    }

    /// Only what changed is written: one changed order is one row, an unchanged save opens nothing.
    @Test func aSaveWritesOnlyTheRowsThatChanged() throws {
        let rows = (1...200).map { DiffFixtures.row("\($0)", "P\($0)") }
        let store = StateStore(folder: TestSupport.temporaryFolder())
        let (first, changes) = try DiffFixtures.compare(rows, previous: nil)
        let history = [HistoryEntry(time: "2026-11-21T10:00:00Z", changes: changes, sequence: 1)]
        try store.save(snapshot: first, history: history, lastBuild: LastBuild(fingerprint: "a"))
        // 200 records, the snapshot's own row, its order, one history entry, the fingerprint, where numbered entries start.
        #expect(store.rowsWritten == rows.count + 5)
        let database = store.folder.appendingPathComponent("state.sqlite")
        let written = try Data(contentsOf: database)
        let stamp = try FileManager.default.attributesOfItem(atPath: database.path)[.modificationDate] as? Date

        let unchanged = StateStore(folder: store.folder)
        let (same, none) = try DiffFixtures.compare(rows, previous: try unchanged.loadSnapshot())
        #expect(none.isEmpty)
        try unchanged.save(snapshot: same, history: try unchanged.loadHistory(), lastBuild: LastBuild(fingerprint: "a"))
        #expect(unchanged.rowsWritten == nil)
        #expect(try Data(contentsOf: database) == written)
        #expect(try FileManager.default.attributesOfItem(atPath: database.path)[.modificationDate] as? Date == stamp)

        var edited = rows
        edited[99] = DiffFixtures.row("100", "P100", price: "36")
        let changing = StateStore(folder: store.folder)
        let (after, one) = try DiffFixtures.compare(edited, previous: try changing.loadSnapshot(), time: "2026-11-21T11:00:00Z")
        #expect(one.changed.count == 1)
        try changing.save(snapshot: after, history: [HistoryEntry(time: "2026-11-21T11:00:00Z", changes: one, sequence: 2)] + history, lastBuild: LastBuild(fingerprint: "b"))
        // The record, the snapshot's changed_at, the new history entry, the fingerprint.
        #expect(changing.rowsWritten == 4)
        #expect(try StateStore(folder: store.folder).loadSnapshot() == after)
        #expect(try StateStore(folder: store.folder).loadHistory().count == 2)

        let shorter = StateStore(folder: store.folder)
        let (fewer, _) = try DiffFixtures.compare(Array(edited.prefix(150)), previous: try shorter.loadSnapshot(), time: "2026-11-21T12:00:00Z")
        try shorter.save(snapshot: fewer, history: [], lastBuild: LastBuild(fingerprint: "b"))
        // 50 records and 2 history entries deleted, changed_at and the order updated.
        #expect(shorter.rowsWritten == 54)
        #expect(try StateStore(folder: store.folder).loadSnapshot() == fewer)
        #expect(try StateStore(folder: store.folder).loadHistory() == [])
    }

    /// Records are bound value by value (`StateDatabase.RowBinder`): empty text stays empty text, a
    /// missing id or amount stays missing, and text of any kind, numbers and flags read back as written.
    @Test func everyKindOfValueRoundTrips() throws {
        let (store, snapshot) = try Self.saved()
        var edited = snapshot
        edited.rows[0] = RowRecord(
            row: Int.max, id: "", identity: "", values: [], secrets: [""], rejected: true, group: "", person: "", item: "",
            options: [""], quantity: Int.min, amount: "", currency: "", firstSeen: "")
        edited.rows[1].id = nil
        edited.rows[1].amount = nil
        edited.rows[2].person = "紅茶\n\t\u{1F600}"
        try StateStore(folder: store.folder).save(snapshot: edited, history: [])
        #expect(try StateStore(folder: store.folder).loadSnapshot() == edited)
    }

    /// Every row of the records, the order and the snapshot tables, in order, as SQLite holds them.
    static func dump(_ queue: DatabaseQueue) throws -> [[DatabaseValue]] {
        try queue.read { db in
            try (Row.fetchAll(db, sql: "SELECT * FROM record ORDER BY slot") + Row.fetchAll(db, sql: "SELECT * FROM record_order")
                + Row.fetchAll(db, sql: "SELECT * FROM snapshot"))
                .map { Array($0.databaseValues) }
        }
    }

    /// A save through staged records leaves exactly the rows that writing the records themselves leaves
    /// (the save before staging, which the import of the old files still uses), run after run.
    @Test func aStagedSaveWritesWhatWritingTheRecordsWrote() async {
        await propertyCheck(count: 60, input: IndexedDiffTests.histories) { history in
            do {
                let folder = TestSupport.temporaryFolder()
                let direct = try DatabaseQueue(path: TestSupport.temporaryFolder().appendingPathComponent("direct.sqlite").path)
                try StateDatabase.migrator().migrate(direct)
                var written = StateContents()
                let runs = [
                    (history.previous, IndexedDiffTests.earlier, true), (history.current, IndexedDiffTests.later, history.sugarIsAnOption),
                    (history.previous, "2026-11-21T11:00:00Z", true),
                ]
                for (rows, time, sugarIsAnOption) in runs {
                    let data = try IndexedDiffTests.validated(rows, sugarIsAnOption: sugarIsAnOption)
                    let store = StateStore(folder: folder)
                    let result = try Differ(hasher: SecretHasher(salt: "salt"), now: time).compare(data, previous: try store.loadPrevious())
                    try store.save(snapshot: result.snapshot, digests: result.digests, history: [], lastBuild: nil)
                    var contents = written
                    contents.snapshot = SnapshotIndex(result.snapshot, digests: result.digests)
                    try direct.write { db in try StateDatabase.write(contents, records: result.snapshot.rows, over: written, in: db) }
                    // Read back: the slots the records went to, which the next save starts from.
                    written = try direct.read { db in try StateDatabase.read(db) }
                    let saved = try StateDatabase.open(store.databaseURL, readOnly: true)
                    #expect(try Self.dump(saved) == Self.dump(direct))
                    try saved.close()
                    #expect(TestSupport.files(in: folder) == ["state.sqlite"])
                }
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// Staged records are not the state until saved; dropped, or left by a build that was killed, they
    /// never become part of it: the next staging starts afresh.
    @Test func stagedRecordsAreNoPartOfTheStateUntilSaved() throws {
        let (store, snapshot) = try Self.saved()
        let database = try Data(contentsOf: store.databaseURL)
        var edited = snapshot
        edited.rows[0].person = "Zoe"
        edited.rows.removeLast()
        let killed = try StateStore(folder: store.folder).stage(edited, digests: edited.rows.map(RecordDigest.init))
        #expect(try killed.staged() == SlotPlan.Counts(written: 1, removed: 1, reordered: true))
        #expect(Self.exists(StagedSnapshot.fileName, in: store.folder))
        #expect(try Data(contentsOf: store.databaseURL) == database)
        #expect(try StateStore(folder: store.folder).loadSnapshot() == snapshot)

        // Dropped: the file goes, the state stays.
        let dropped = try StateStore(folder: store.folder).stage(edited, digests: edited.rows.map(RecordDigest.init))
        dropped.discard()
        #expect(TestSupport.files(in: store.folder) == ["state.sqlite"])
        #expect(try StateStore(folder: store.folder).loadSnapshot() == snapshot)

        // Another edit, after the staged file of the first was left behind: that one alone is saved.
        _ = try StateStore(folder: store.folder).stage(edited, digests: edited.rows.map(RecordDigest.init)).staged()
        var other = snapshot
        other.rows[1].person = "Yuki"
        let next = StateStore(folder: store.folder)
        try next.save(snapshot: other, history: try next.loadHistory(), lastBuild: LastBuild(fingerprint: "f1"))
        #expect(next.rowsWritten == 1)
        #expect(try StateStore(folder: store.folder).loadSnapshot() == other)
        #expect(TestSupport.files(in: store.folder) == ["state.sqlite"])
    }

    /// A save begun ahead (`beginSave`) is no part of the state until committed: while it waits, another
    /// reader sees the last snapshot; abandoned, it leaves the database byte for byte as it was and no
    /// staged file; committed, the state is what a save made at once makes.
    @Test(arguments: [false, true])
    func aBegunSaveChangesNothingUntilCommitted(commit: Bool) throws {
        let (store, snapshot) = try Self.saved()
        let database = try Data(contentsOf: store.databaseURL)
        var edited = snapshot
        edited.rows[0].person = "Zoe"
        edited.rows.removeLast()
        let writer = StateStore(folder: store.folder)
        let staged = try writer.stage(edited, digests: edited.rows.map(RecordDigest.init))
        let pending = writer.beginSave(staged, history: try writer.loadHistory(), lastBuild: LastBuild(fingerprint: "f2"))
        #expect(try StateStore(folder: store.folder, writable: false).loadSnapshot() == snapshot)
        #expect(try StateStore(folder: store.folder, writable: false).lastBuild()?.fingerprint == "f1")
        if commit {
            try pending.commit()
            pending.abandon()  // after a commit, nothing
            #expect(writer.rowsWritten == 4)  // the edited record, the removed one's deletion, the order, the build's record
            #expect(try StateStore(folder: store.folder).loadSnapshot() == edited)
            #expect(try StateStore(folder: store.folder).lastBuild()?.fingerprint == "f2")
        } else {
            pending.abandon()
            #expect(try Data(contentsOf: store.databaseURL) == database)
            #expect(try StateStore(folder: store.folder).loadSnapshot() == snapshot)
        }
        #expect(TestSupport.files(in: store.folder) == ["state.sqlite"])
    }

    /// A state folder from before the database is not migrated ahead of the commit: abandoned, the
    /// old files are still the whole state.
    @Test func aBegunSaveOverOldFilesWritesNothingUntilCommitted() throws {
        let (snapshot, changes) = try DiffFixtures.compare(DifferTests.base, previous: nil)
        let history = [HistoryEntry(time: "2026-11-21T10:00:00Z", changes: changes, sequence: 1)]
        let folder = Self.legacyFolder(snapshot: snapshot, history: history, siteID: DiffFixtures.siteID)
        let before = TestSupport.files(in: folder)
        var edited = snapshot
        edited.rows[0].person = "Zoe"
        let writer = StateStore(folder: folder)
        let abandoned = writer.beginSave(try writer.stage(edited, digests: edited.rows.map(RecordDigest.init)), history: history, lastBuild: nil)
        abandoned.abandon()
        #expect(TestSupport.files(in: folder) == before)
        #expect(!Self.exists(StateDatabase.fileName, in: folder))

        let committed = StateStore(folder: folder)
        let pending = committed.beginSave(try committed.stage(edited, digests: edited.rows.map(RecordDigest.init)), history: history, lastBuild: nil)
        #expect(!Self.exists(StateDatabase.fileName, in: folder))
        try pending.commit()
        #expect(TestSupport.files(in: folder) == ["state.sqlite"])
        #expect(try StateStore(folder: folder).loadSnapshot() == edited)
        #expect(try StateStore(folder: folder).siteID(create: false) == DiffFixtures.siteID)
    }

    /// A history saved before entries were numbered, and before rejected rows were told apart from orders,
    /// reads numbered from its oldest entry, with no rejected row as an added, deleted or changed order; the
    /// next entry takes the next number, and the database keeps each entry's own.
    @Test func anOldHistoryIsNumberedAndListsNoRejectedRowAsAnOrder() throws {
        let (snapshot, firstRun) = try DiffFixtures.compare(DifferTests.base + [DiffFixtures.row("", "Eve", price: "x")], previous: nil)
        let (valid, rejected) = (snapshot.rows[0], snapshot.rows[3])
        #expect(rejected.rejected)
        let fixed = ChangeSet.Change(before: rejected, after: valid, fields: ["price": ["x", "35"]])
        let old = ChangeSet(firstRun: false, deleted: [valid, rejected], added: [rejected], changed: [fixed])
        let entries = [HistoryEntry(time: "2026-11-21T11:00:00Z", changes: old, sequence: 0), HistoryEntry(time: "2026-11-21T10:00:00Z", changes: firstRun, sequence: 0)]
        // As the version before wrote it: no numbers, no lists of orders turned rejected or valid.
        var file = try #require(try JSONSerialization.jsonObject(with: JSONOutput.encode(LegacyStateFiles.History(version: 1, entries: entries))) as? [String: Any])
        file["entries"] = (file["entries"] as? [[String: Any]])?.map { entry in
            var entry = entry
            entry["sequence"] = nil
            var changes = entry["changes"] as? [String: Any] ?? [:]
            (changes["no_longer_counted"], changes["now_counted"]) = (nil, nil)
            entry["changes"] = changes
            return entry
        }
        let folder = TestSupport.temporaryFolder()
        try JSONSerialization.data(withJSONObject: file).write(to: folder.appendingPathComponent("history.json"))

        let store = StateStore(folder: folder)
        let history = try store.loadHistory()
        #expect(history.map(\.sequence) == [2, 1])
        // Their feed ids stay those of before; the next entry's is its number.
        #expect(history.map(\.id) == ["run-20261121110000", "run-20261121100000"])
        #expect(history[0].changes == ChangeSet(firstRun: false, deleted: [valid], added: [], changed: [], nowCounted: [fixed]))
        #expect(history[1].changes == firstRun)
        let next = HistoryEntry(time: "2026-11-21T11:00:00Z", changes: ChangeSet(firstRun: false, deleted: [valid], added: [], changed: []), after: history.first)
        #expect(next.sequence == 3)
        #expect(next.id == "entry-3")
        try store.save(snapshot: snapshot, history: [next] + history)
        #expect(try StateStore(folder: folder).loadHistory() == [next] + history)
    }

    @Test func theHistoryKeepsItsLimit() throws {
        let (store, snapshot) = try Self.saved()
        let entries = (0..<(StateStore.historyLimit + 5)).map {
            HistoryEntry(
                time: "2026-11-21T10:00:\($0)Z", changes: ChangeSet(firstRun: false, deleted: [], added: [], changed: []),
                sequence: StateStore.historyLimit + 5 - $0)
        }
        try store.save(snapshot: snapshot, history: entries)
        #expect(try StateStore(folder: store.folder).loadHistory() == Array(entries.prefix(StateStore.historyLimit)))
        #expect(try StateStore(folder: store.folder).lastBuild()?.fingerprint == nil)
    }

    @Test func aFileThatIsNotADatabaseIsAnError() throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["state.sqlite": String(repeating: "not a database ", count: 100)], in: folder)
        let path = folder.appendingPathComponent("state.sqlite").path
        for store in [StateStore(folder: folder), StateStore(folder: folder, writable: false)] {
            #expect(throws: DataError(message: "\(path) cannot be read (file is not a database); \(Self.startAfresh)")) {
                try store.loadSnapshot()
            }
        }
    }

    @Test func aDatabaseFromANewerVersionIsRefused() throws {
        let (store, _) = try Self.saved()
        let queue = try DatabaseQueue(path: store.databaseURL.path)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')") }
        try queue.close()
        #expect(throws: DataError(message: "\(store.databaseURL.path) was written by a newer OrderPress; upgrade OrderPress")) {
            try StateStore(folder: store.folder).loadSnapshot()
        }
    }

    @Test(arguments: [0, 99])
    func aSnapshotOfAnotherVersionIsRefused(version: Int) throws {
        let (store, _) = try Self.saved()
        let queue = try DatabaseQueue(path: store.databaseURL.path)
        try queue.write { try $0.execute(sql: "UPDATE snapshot SET version = ?", arguments: [version]) }
        try queue.close()
        let path = store.databaseURL.path
        let message = version > 1
            ? "\(path) was written by a newer OrderPress (version 99); upgrade OrderPress"
            : "\(path) cannot be read (its version 0 is not a version of OrderPress's snapshot); \(Self.startAfresh)"
        #expect(throws: DataError(message: message)) { try StateStore(folder: store.folder).loadSnapshot() }
    }

    @Test(arguments: ["{not json", "{\"version\": 1}", "[]"])
    func aCorruptOldHistoryIsReportedAsHistory(contents: String) throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["history.json": contents], in: folder)
        let path = folder.appendingPathComponent("history.json").path
        do {
            _ = try StateStore(folder: folder).loadHistory()
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "\(path) cannot be read (it is not a history this version understands); \(Self.startAfresh)")
            #expect(error.exitStatus == .dataError)
        }
        #expect(TestSupport.files(in: folder) == ["history.json"])
    }

    @Test(arguments: [0, -1, Int.min])
    func anOldSnapshotWithAVersionBelowOneIsRefused(version: Int) throws {
        var (snapshot, _) = try DiffFixtures.compare(DifferTests.base, previous: nil)
        snapshot.version = version
        let folder = Self.legacyFolder(snapshot: snapshot, history: nil, siteID: nil)
        let path = folder.appendingPathComponent("snapshot.json").path
        #expect(throws: DataError(message: "\(path) cannot be read (its version \(version) is not a version of OrderPress's snapshot); \(Self.startAfresh)")) {
            try StateStore(folder: folder).loadSnapshot()
        }
    }

    @Test(arguments: [0, -3])
    func anOldHistoryWithAVersionBelowOneIsRefused(version: Int) throws {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["history.json": "{\"version\": \(version), \"entries\": []}"], in: folder)
        let path = folder.appendingPathComponent("history.json").path
        #expect(throws: DataError(message: "\(path) cannot be read (its version \(version) is not a version of OrderPress's history); \(Self.startAfresh)")) {
            try StateStore(folder: folder).loadHistory()
        }
    }

    /// SQLite opens its files by name: a link at the database or where its journal goes is refused (73).
    @Test(arguments: ["state.sqlite", "state.sqlite-journal", "state.sqlite-wal"])
    func aLinkedStateFileIsNotWrittenThrough(name: String) throws {
        let (saved, snapshot) = try Self.saved()
        let link = saved.folder.appendingPathComponent(name)
        let victim = Victim()
        if name == "state.sqlite" { try FileManager.default.removeItem(at: link) }
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim.file)
        let expected = OutputError(
            path: link.path, reason: "a symbolic link", cannotCreate: true,
            advice: "OrderPress never writes through a link inside its folders; replace it with a real file")
        #expect(throws: expected) { try StateStore(folder: saved.folder).save(snapshot: snapshot, history: []) }
        #expect(throws: expected) { try StateStore(folder: saved.folder).siteID(create: true) }
        #expect(expected.exitStatus == .cannotCreate)
        // Reading for a build may roll back a killed save, a write: refused as well, before SQLite opens anything.
        #expect(throws: DataError(message: expected.description)) { try StateStore(folder: saved.folder).loadSnapshot() }
        try victim.expectUntouched()
    }
}
