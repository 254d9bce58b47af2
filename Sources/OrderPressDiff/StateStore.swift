import Foundation
import GRDB
import OrderPressSlugs
import OrderPressSupport

/// The snapshot, the history, the site id and the last build's record, in one SQLite database in
/// the state folder (`state.sqlite`, see `StateDatabase`): read strictly, written in transactions.
///
/// A store reads the folder once and remembers what it read (and then what it saved), so that a save
/// writes only what differs from it; a build holds the lock, so nothing else changes the state meanwhile.
/// A state folder written before the database (`snapshot.json`, `history.json`, `site-id`) is read as it
/// is, and moved into the database by the first write: in the transaction that creates the database,
/// and the old files are removed only once it is committed. Until then they stay the state.
///
/// A class: what it remembers is one cache for one folder, and every holder of the store (the pipeline,
/// the head start that reads the state early, the diff step) must see the same one. A struct's copies
/// would share it all the same, behind a value's look.
public final class StateStore: Sendable {
    public let folder: URL
    /// False for `orderpress diff` and a dry run: the database is then opened read-only, and nothing
    /// is created, migrated or saved.
    public let writable: Bool
    /// How many runs the history keeps; the Changes page shows fewer.
    static let historyLimit = 200
    private let remembered = Remembered()

    public init(folder: URL, writable: Bool = true) {
        self.folder = folder
        self.writable = writable
    }

    var databaseURL: URL { folder.appendingPathComponent(StateDatabase.fileName) }
    var legacy: LegacyStateFiles { LegacyStateFiles(folder: folder) }
    var stagedURL: URL { folder.appendingPathComponent(StagedSnapshot.fileName) }

    /// Every file of the state that a build may write or remove: a link at any of them is refused.
    var ownedFiles: [URL] {
        [databaseURL] + StateDatabase.companionSuffixes.map { folder.appendingPathComponent(StateDatabase.fileName + $0) }
            + legacy.all + [stagedURL]
    }

    /// The last snapshot as a rerun compares against it: its index, its records read on demand.
    package func loadPrevious() throws(DataError) -> PreviousSnapshot? {
        precondition(remembered.value?.recordsLetGo != true, "the last snapshot was read after its records were let go")
        guard let index = try contents().snapshot else { return nil }
        // Handed over, not kept: at a million orders they are tens of MB the rest of the build has no use for.
        return PreviousSnapshot(index: index, chains: remembered.takeChains()) { [self] positions throws(DataError) in try records(at: positions) }
    }

    /// The last snapshot's records at `positions`, in that order, each checked against its stamp in
    /// the index read before: `orderpress diff` holds no lock, and a build may have saved since.
    package func records(at positions: [Int]) throws(DataError) -> [RowRecord] {
        guard let known = remembered.value, let index = known.contents.snapshot else { return [] }
        if let legacy = known.legacyRecords { return positions.map { legacy[$0] } }
        let found: [(record: RowRecord, digest: RecordDigest?)?]
        do {
            let queue = try StateDatabase.open(databaseURL, readOnly: true)
            defer { try? queue.close() }
            found = try queue.read { db in
                try StateDatabase.records(db, at: positions.map { index.records[$0] }, total: index.records.count, schema: known.schema)
            }
        } catch let error as StateDatabase.Unreadable {
            throw Self.unreadable(databaseURL.path, reason: error.reason)
        } catch where StateFileCheck.isBusy(error) {
            throw StateFileCheck.busy(databaseURL.path)
        } catch {
            throw Self.unreadable(databaseURL.path, reason: Self.reason(error))
        }
        var records: [RowRecord] = []
        records.reserveCapacity(positions.count)
        for (position, entry) in zip(positions, found) {
            let stamp = index.records[position]
            guard let entry, stamp
                    == SnapshotIndex.Stamp(
                        entry.record, digest: entry.digest ?? RecordDigest(entry.record), slot: stamp.slot, fingerprint: stamp.fingerprint)
            else {
                // A race with a build's save, not bad data: worth running again (75, like a held lock).
                throw DataError(message: "\(databaseURL.path) changed while it was being read (a build saved meanwhile?); run again", status: .tempFail)
            }
            records.append(entry.record)
        }
        return records
    }

    /// Runs that changed something, newest first.
    public func loadHistory() throws(DataError) -> [HistoryEntry] {
        try contents().history
    }

    /// What the last successful build saved with its snapshot, if it saved one: a build whose inputs
    /// have its fingerprint has nothing to do. Reads that record alone, not the snapshot, unless the
    /// database needs the repair only a full read (for writing) makes.
    public func lastBuild() throws(DataError) -> LastBuild? {
        if let known = remembered.value { return known.contents.lastBuild }
        guard FileManager.default.fileExists(atPath: databaseURL.path) else { return try contents().lastBuild }
        do {
            if writable { try refuseLinks() } else { try StateFileCheck.refuseOddEntries(in: folder) }
            let queue = try StateDatabase.open(databaseURL, readOnly: true)
            defer { try? queue.close() }
            return try queue.read { db in
                guard try StateDatabase.schema(db) != .none else { return nil }
                return try StateDatabase.readLastBuild(db)
            }
        } catch where StateFileCheck.isBusy(error) {
            // Not waited out a second time by the full read.
            throw StateFileCheck.busy(databaseURL.path)
        } catch {
            // The full read says what is wrong, or repairs an unfinished save and reads on.
            return try contents().lastBuild
        }
    }

    /// The site's own random id, made on its first build and kept, so that two sites built from
    /// similar configurations never share a feed id. With `create` false (a dry run) a missing id
    /// is made up for this run only.
    public func siteID(create: Bool) throws(OutputError) -> UUID {
        var contents = try contentsForWriting()
        if let id = contents.siteID { return id }
        let id = UUID()
        if create {
            contents.siteID = id
            try write(contents, records: nil)
        }
        return id
    }

    /// Saves the snapshot, history and the build's record in one transaction, writing only what differs
    /// from the state that this store read; when nothing differs, the database is not even opened for
    /// writing. A nil record clears the stored one: it described another build.
    public func save(snapshot: Snapshot, history: [HistoryEntry], lastBuild: LastBuild? = nil) throws(OutputError) {
        try save(snapshot: snapshot, digests: snapshot.rows.map(RecordDigest.init), history: history, lastBuild: lastBuild)
    }

    /// `digests` are the snapshot's records', as the diff computed them.
    package func save(snapshot: Snapshot, digests: [RecordDigest], history: [HistoryEntry], lastBuild: LastBuild?) throws(OutputError) {
        try save(try stage(snapshot, digests: digests), history: history, lastBuild: lastBuild)
    }

    /// Starts saving `snapshot` (see `StagedSnapshot`): the records that differ from the last snapshot's
    /// are written on their own thread beside the state, which stays as it was until `save(_:history:lastBuild:)`.
    /// `reuse` tells the records' row fingerprints and which records the diff kept (`RecordReuse`).
    package func stage(_ snapshot: consuming Snapshot, digests: [RecordDigest], reuse: RecordReuse = .none) throws(OutputError) -> StagedSnapshot {
        let records = SnapshotRecords(snapshot.rows, reuse: reuse)
        snapshot.rows = []
        return try stage(header: snapshot, records: records, digests: digests, reuse: reuse)
    }

    /// As `stage(_:digests:reuse:)`, for a snapshot `header` without its records, and its `records` as the diff made them.
    package func stage(
        header: consuming Snapshot, records: consuming SnapshotRecords, digests: [RecordDigest], reuse: RecordReuse = .none
    ) throws(OutputError) -> StagedSnapshot {
        let previous = try contentsForWriting().snapshot
        try AtomicFile.createFolder(folder)
        return StagedSnapshot(header: header, records: records, digests: digests, reuse: reuse, previous: previous, folder: folder)
    }

    /// Lets go of the last snapshot's index of records, once a new snapshot is staged over it: nothing
    /// reads it again before the save, which needs only its header, and at a million orders it is some
    /// hundred MB held through rendering. Kept while the state is still the files from before the
    /// database, whose import reads it. The last snapshot cannot be loaded again from this store.
    package func letGoOfPreviousRecords() {
        remembered.letGoOfRecords()
    }

    /// Saves a staged snapshot with the history and the build's record, in one transaction, like
    /// `save(snapshot:history:lastBuild:)`; the staged file is removed whatever happens.
    package func save(_ staged: StagedSnapshot, history: [HistoryEntry], lastBuild: LastBuild?) throws(OutputError) {
        try save(staged, history: history, lastBuild: lastBuild, gate: nil)
    }

    /// `save(_:history:lastBuild:)` begun at once on a thread of its own and committed only once
    /// `PendingSave.commit()` says so: the save's transaction is written while the caller finishes
    /// publishing, and the state stays as it was unless the commit comes.
    /// `pageSlugs`: the slugs the build handed out (`PageSlugs`); nil leaves the stored ones as they are.
    /// `archives`: the finished rounds (`RoundArchive.text`), saved in the same transaction; `roundWatch`
    /// (`RoundWatch.text`) likewise, nil leaving the stored one as it is, and `deletions` (`RecentDeletions.text`).
    package func beginSave(
        _ staged: StagedSnapshot, history: [HistoryEntry], lastBuild: LastBuild?, pageSlugs: String? = nil, archives: String? = nil,
        roundWatch: String? = nil, deletions: String? = nil
    ) -> PendingSave {
        PendingSave { [self] gate throws(OutputError) in
            try save(
                staged, history: history, lastBuild: lastBuild, pageSlugs: pageSlugs, archives: archives, roundWatch: roundWatch,
                deletions: deletions, gate: gate)
        }
    }

    /// The deletions tombstones may list, as the last successful build kept them; nil when none were kept
    /// (a state saved before they were) or the state cannot be read.
    package func keptDeletions() -> RecentDeletions? {
        RecentDeletions(text: try? contents().deletions)
    }

    /// When the last snapshot was made and what refused runs found missing; an empty watch when none was kept
    /// or the state cannot be read. `seenAt` falls back to the snapshot's last change for a state saved before.
    package func keptRoundWatch() -> RoundWatch {
        let contents = try? contents()
        var watch = RoundWatch(text: contents?.roundWatch)
        if watch.seenAt == nil { watch.seenAt = contents?.snapshot?.header.changedAt }
        return watch
    }

    /// A run refused by the guard remembers since when the orders of `groups` were missing, and nothing else:
    /// a later run must not close those rounds if the orders vanished before their deadline.
    package func noteMissing(_ groups: Set<String>, at time: String) throws(OutputError) {
        var contents = try contentsForWriting()
        guard contents.snapshot != nil, !groups.isEmpty else { return }
        let watch = RoundWatch(text: contents.roundWatch).noting(missing: groups, at: time)
        contents.roundWatch = watch.text
        try write(contents, records: nil)
    }

    /// The finished rounds the last successful build kept; none when the state cannot be read.
    package func keptArchives() -> [RoundArchive] {
        RoundArchive.list(from: try? contents().archives)
    }

    /// The slugs the last successful build handed out, to keep them with their pages; nil when none
    /// were kept or the state cannot be read (the diff, which read it first, says why).
    package func keptSlugs() -> PageSlugs? {
        PageSlugs(text: try? contents().pageSlugs)
    }

    /// With a `gate`, nothing is written to the state before it opens, and its transaction is committed
    /// only if it opens to commit.
    private func save(
        _ staged: StagedSnapshot, history: [HistoryEntry], lastBuild: LastBuild?, pageSlugs: String? = nil, archives: String? = nil,
        roundWatch: String? = nil, deletions: String? = nil, gate: PendingSave.Gate?
    ) throws(OutputError) {
        defer { staged.discard() }
        let written = try staged.staged()
        var contents = try contentsForWriting()
        contents.history = Array(history.prefix(Self.historyLimit))
        contents.lastBuild = lastBuild
        if let pageSlugs { contents.pageSlugs = pageSlugs }
        if let archives { contents.archives = archives }
        if let roundWatch { contents.roundWatch = roundWatch }
        if let deletions { contents.deletions = deletions }
        let sameSnapshot = written == .none && staged.header == contents.snapshot?.header && staged.count == staged.previousCount
        try write(contents, records: nil, staged: sameSnapshot ? nil : staged, gate: gate)
    }

    // MARK: - Reading

    /// What the state folder holds: the database when it has been created, else the files before it.
    package func contents() throws(DataError) -> StateContents {
        if let known = remembered.value { return known.contents }
        var known = try read()
        known.chains = known.contents.snapshot.map { IdentityChains($0.records) }
        remembered.value = known
        return known.contents
    }

    private func read() throws(DataError) -> Remembered.Known {
        if writable {
            // Opening for writing may roll back a killed build's transaction: that is a write.
            do { try refuseLinks() } catch { throw DataError(message: error.description) }
        } else {
            // No lock, so nothing checked these yet: SQLite would wait on a pipe, or read through a link.
            try StateFileCheck.refuseOddEntries(in: folder)
        }
        try StateFileCheck.refuseEmptiedDatabase(self)
        if FileManager.default.fileExists(atPath: databaseURL.path) {
            do {
                let queue = try StateDatabase.open(databaseURL, readOnly: !writable)
                defer { try? queue.close() }
                var schema = try queue.read(StateDatabase.schema)
                if schema != .current, schema != .none, writable {
                    // Written before the records' digests, keyed by position, or without fingerprints: made
                    // what this version keeps once, in their own transaction. Read as it is first: a state that cannot be read
                    // is left as it was, not migrated and committed before the read fails.
                    _ = try queue.read { db in try StateDatabase.read(db, schema: schema) }
                    try StateDatabase.migrator().migrate(queue)
                    schema = .current
                }
                // A database whose creation was rolled back holds no schema: the old files are still the state.
                let contents: StateContents? = schema == .none ? nil : try queue.read { db in try StateDatabase.read(db, schema: schema) }
                try queue.close()
                if let contents { return .init(contents: contents, inDatabase: true, schema: schema) }
            } catch let error as StateDatabase.Newer {
                let what = error.version > 0 ? " (version \(error.version))" : ""
                throw DataError(message: "\(databaseURL.path) was written by a newer OrderPress\(what); upgrade OrderPress")
            } catch let error as StateDatabase.Unreadable {
                throw Self.unreadable(databaseURL.path, reason: error.reason)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_READONLY_ROLLBACK {
                throw DataError(
                    message: "\(databaseURL.path) holds the unfinished save of a build that was stopped; "
                        + "run 'orderpress build' (not a dry run), which completes the repair")
            } catch where StateFileCheck.isBusy(error) {
                throw StateFileCheck.busy(databaseURL.path)
            } catch {
                throw Self.unreadable(databaseURL.path, reason: Self.reason(error))
            }
        }
        let files = legacy
        let snapshot = try files.snapshot()
        return .init(
            contents: StateContents(snapshot: snapshot.map { SnapshotIndex($0) }, history: try files.history(), siteID: try? files.siteID()),
            inDatabase: false, legacyRecords: snapshot?.rows)
    }

    static func unreadable(_ path: String, reason: String) -> DataError {
        DataError(message: "\(path) cannot be read (\(reason)); move it away to start afresh (the next build is then a first run)")
    }

    /// SQLite's own words ("file is not a database"), without GRDB's "SQLite error 26: " prefix.
    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return IOFailure.reason(error)
    }

    // MARK: - Writing

    /// The state to start a write from. Reading fails only before a build has read the state itself,
    /// which reports it as data; here it can only be told as the file that cannot be written.
    private func contentsForWriting() throws(OutputError) -> StateContents {
        try refuseLinks()
        do {
            return try contents()
        } catch {
            throw OutputError(path: databaseURL.path, reason: "the state cannot be read", cannotCreate: false, advice: error.message)
        }
    }

    /// Writes the difference between `contents` and what the store read, in one transaction; creates
    /// the database first, with the old files' contents, if they are still the state. `records` are
    /// those of `contents.snapshot`; nil when it is the snapshot the store read. A `staged` snapshot
    /// replaces that one; the store then forgets what it read, since the new snapshot's index was never
    /// in memory, and reads the folder again when asked.
    private func write(
        _ contents: StateContents, records: [RowRecord]?, staged: StagedSnapshot? = nil, gate: PendingSave.Gate? = nil
    ) throws(OutputError) {
        precondition(writable, "a read-only state store was asked to write")
        guard let known = remembered.value else { return }
        // A million-record index compared once, not twice.
        let unchanged = known.contents == contents && staged == nil
        // Only the save transaction of a database already in place is written ahead of the gate: creating
        // the database from the old files, or removing them, waits for it.
        if !known.inDatabase || unchanged { try gate?.waitForCommit() }
        if known.inDatabase, unchanged {
            try removeMigratedFiles()
            return
        }
        try refuseLinks()
        try AtomicFile.createFolder(folder)
        do {
            let queue = try StateDatabase.open(databaseURL, readOnly: false)
            if !known.inDatabase {
                try StateDatabase.migrator(importing: .init(contents: known.contents, records: known.legacyRecords)).migrate(queue)
            }
            if !unchanged {
                try queue.inDatabase { db in
                    // Attached outside the transaction, which SQLite requires; only read from.
                    if let staged { try db.execute(sql: "ATTACH DATABASE ? AS \(StateDatabase.stagedSchema)", arguments: [staged.url.path]) }
                    try db.inTransaction(.immediate) {
                        let before = db.totalChangesCount
                        try StateDatabase.write(contents, records: records, over: known.contents, in: db)
                        if let staged { try StateDatabase.write(staged: staged.header, over: known.contents.snapshot, in: db) }
                        remembered.rowsWritten = db.totalChangesCount - before
                        // Thrown out of the transaction, which rolls it back, unless the caller commits.
                        try gate?.waitForCommit()
                        TestHook.reached(.beforeCommit)
                        return .commit
                    }
                    if staged != nil { try db.execute(sql: "DETACH DATABASE \(StateDatabase.stagedSchema)") }
                }
            }
            try queue.close()
        } catch {
            throw OutputError(path: databaseURL.path, reason: Self.reason(error), cannotCreate: false)
        }
        var written = contents
        if written.numberedFrom == nil { written.numberedFrom = StateDatabase.numberedFrom(contents.history) }
        remembered.value = staged == nil ? .init(contents: written, inDatabase: true) : nil
        try removeMigratedFiles()
    }

    /// After the database is committed; a build stopped before this leaves both, and the database wins.
    private func removeMigratedFiles() throws(OutputError) {
        if legacy.exists { try legacy.remove() }
    }

    /// SQLite opens its files by name and would follow a link at any of them.
    private func refuseLinks() throws(OutputError) {
        for url in ownedFiles {
            var status = stat()
            if lstat(url.path, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFLNK) {
                throw ContainedPath.link(url.path, replaceWith: "a real file")
            }
        }
    }

    /// How many rows the last save transaction inserted, updated or deleted (SQLite's count of changes);
    /// nil until a store has saved one. For tests: a save writes only what changed.
    var rowsWritten: Int? { remembered.rowsWritten }

    /// What the store last read or saved, behind a lock: the head start reads the state on another thread.
    private final class Remembered: @unchecked Sendable {
        struct Known: Sendable {
            var contents: StateContents
            /// False while the state is still the files from before the database.
            var inDatabase: Bool
            /// The database's schema: a dry run reads an older one as it is (no digests before v2, records
            /// by position before v3).
            var schema = StateDatabase.Schema.current
            /// The records of a snapshot read from the files before the database, which are read whole.
            var legacyRecords: [RowRecord]? = nil
            /// The snapshot's records by identity, made as it is read, for the diff.
            var chains: IdentityChains? = nil
            /// Whether the snapshot's index of records was let go (`letGoOfPreviousRecords`).
            var recordsLetGo = false
        }

        private var known: Known?
        private var changes: Int?
        private let lock = NSLock()
        var rowsWritten: Int? {
            get { lock.withLock { changes } }
            set { lock.withLock { changes = newValue } }
        }
        var value: Known? {
            get { lock.withLock { known } }
            set { lock.withLock { known = newValue } }
        }
        /// Empties the snapshot's index of records, when the state is in the database.
        func letGoOfRecords() {
            lock.withLock {
                guard var value = known, value.inDatabase, value.contents.snapshot != nil else { return }
                known = nil
                value.contents.snapshot?.records = []
                value.chains = nil
                value.recordsLetGo = true
                known = value
            }
        }

        /// The chains of what was read, once.
        func takeChains() -> IdentityChains? {
            lock.withLock {
                defer { known?.chains = nil }
                return known?.chains
            }
        }
    }
}
