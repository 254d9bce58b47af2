import Foundation
import GRDB
import GRDBSQLite
import OrderPressSupport
import OrderPressValidate

/// The state database's schema, and reading and writing `StateContents` in it (GRDB over SQLite).
///
/// One row per snapshot record, keyed by a slot it keeps while it stays the same record (`SlotPlan`),
/// and the sheet order apart, in one row (`RecordOrder`), so that a save compares the new records with
/// the ones it read and writes only those that differ: a rerun on unchanged input writes nothing, one
/// changed order rewrites one row, one deleted order deletes one row and rewrites the order (not every
/// record below it, as when records were keyed by position). SQLite's rollback journal (not WAL, which
/// leaves `-wal` and `-shm` files beside the database and cannot be read without writing them)
/// makes each save all-or-nothing, and `synchronous = FULL` flushes it to disk before the commit
/// returns: what the hand-written fsync-and-rename did for the JSON files.
enum StateDatabase {
    static let fileName = "state.sqlite"
    /// The files SQLite may create beside the database; a link at any of them would be written through.
    static let companionSuffixes = ["-journal", "-wal", "-shm"]

    /// Every schema this version knows, oldest first. A database that names one this version does not
    /// know was written by a newer OrderPress. `importing` is what the first migration stores: the
    /// contents of the state files the database replaces, in the transaction that creates it.
    static func migrator(importing legacy: Import = Import()) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE snapshot (
                        id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, salt TEXT NOT NULL,
                        changed_at TEXT NOT NULL, columns TEXT NOT NULL, secret_columns TEXT NOT NULL, rates TEXT);
                    CREATE TABLE record (\(v1RecordTable));
                    CREATE TABLE history (sequence INTEGER PRIMARY KEY, time TEXT NOT NULL, changes TEXT NOT NULL);
                    """)
            var rest = legacy.contents
            rest.snapshot = nil
            try write(rest, records: nil, over: StateContents(), in: db)
            if let snapshot = legacy.contents.snapshot {
                try write(header: snapshot.header, over: nil, in: db)
                try importV1(legacy.records ?? [], in: db)
            }
        }
        // Each record's digest (`RecordDigest`), so that a rerun reads the index, not every record.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "ALTER TABLE record ADD COLUMN digest BLOB")
            let update = try db.makeStatement(sql: "UPDATE record SET digest = ? WHERE position = ?")
            // A slice at a time: a million records in full would take over a gigabyte.
            var start = 0
            while case let slice = try v1Records(db, from: start, count: 10_000), let last = slice.last {
                for entry in slice { try update.execute(arguments: [Data(RecordDigest(entry.record).bytes), entry.position]) }
                start = last.position + 1
            }
        }
        // Records keyed by slot, the order apart (`RecordOrder`): a deletion no longer rewrites every
        // record below it. Each record keeps its position as its slot.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "CREATE TABLE record_order (\(orderTable))")
            // Two integers a record, not the records: bounded at a million.
            var order = RecordOrder()
            let cursor = try Row.fetchCursor(db, sql: "SELECT position, sheet_row FROM record ORDER BY position")
            while let row = try cursor.next() {
                order.slots.append(row[0])
                order.rows.append(row[1])
            }
            if order.count > 0 { try write(order, into: "record_order", in: db) }
            try db.execute(sql: "ALTER TABLE record DROP COLUMN sheet_row; ALTER TABLE record RENAME COLUMN position TO slot")
        }
        // Each record's row fingerprint (`RowFingerprints`) and the snapshot's context (`Snapshot.context`), so
        // that a rerun keeps the records of unchanged rows instead of making them again. Unknown (NULL)
        // until the next save: that one writes every record again, with its row's fingerprint.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: "ALTER TABLE record ADD COLUMN fingerprint BLOB; ALTER TABLE snapshot ADD COLUMN context BLOB")
        }
        return migrator
    }

    /// The record table as schema v1 made it; v2 added `digest`, v3 dropped `sheet_row` and renamed
    /// `position` to `slot`, v4 added `fingerprint`.
    private static let v1RecordTable = """
        position INTEGER PRIMARY KEY, sheet_row INTEGER NOT NULL, \(fieldTable)
        """
    private static let fieldTable = """
        order_id TEXT, identity TEXT NOT NULL,
        value_list TEXT NOT NULL, secret_list TEXT NOT NULL, rejected INTEGER NOT NULL,
        group_name TEXT NOT NULL, person TEXT NOT NULL, item TEXT NOT NULL, option_list TEXT NOT NULL,
        quantity INTEGER NOT NULL, amount TEXT, currency TEXT NOT NULL, first_seen TEXT NOT NULL
        """
    /// The one row of the sheet order (`RecordOrder`); none is read as an empty order.
    private static let orderTable = """
        id INTEGER PRIMARY KEY CHECK (id = 1), width INTEGER NOT NULL, slots BLOB NOT NULL, sheet_rows BLOB NOT NULL
        """

    /// The state files' contents, for the first migration to store: their snapshot's records apart.
    struct Import {
        package var contents = StateContents()
        package var records: [RowRecord]? = nil
    }

    /// Whether the database holds the last schema, an older one it can still read, or none at all
    /// (its creation was rolled back: the old files are still the state).
    package enum Schema: Sendable {
        /// v4: records by slot with their rows' fingerprints, the order apart.
        case current
        /// Records by slot, without fingerprints.
        case v3
        /// Records by position, with their digests.
        case v2
        /// Records by position, without digests.
        case v1
        case none
    }

    package static func schema(_ db: Database) throws -> Schema {
        let migrator = migrator()
        if try migrator.hasBeenSuperseded(db) { throw Newer(version: 0) }
        if try migrator.hasCompletedMigrations(db) { return .current }
        let applied = try migrator.appliedIdentifiers(db)
        return applied.contains("v3") ? .v3 : applied.contains("v2") ? .v2 : applied.contains("v1") ? .v1 : .none
    }

    static func open(_ url: URL, readOnly: Bool) throws -> DatabaseQueue {
        var configuration = GRDB.Configuration()
        configuration.readonly = readOnly
        configuration.label = "orderpress.state"
        // GRDB's default answers "busy" at once; the build lock already keeps builds apart, and a
        // reading `orderpress diff` should wait out a build's commit rather than fail. Not longer: a
        // database that another program keeps locked is said at once to be worth trying again (75).
        configuration.busyMode = Database.BusyMode.timeout(5)
        configuration.prepareDatabase { db in
            if !readOnly { try db.execute(sql: "PRAGMA synchronous = FULL") }
        }
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    /// A scratch database for staging a snapshot's records (`StagedSnapshot`): no journal and no
    /// flushing, since a staged file that a crash cut short is thrown away, never read.
    static func openScratch(_ url: URL) throws -> DatabaseQueue {
        var configuration = GRDB.Configuration()
        configuration.label = "orderpress.staged"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF") }
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    // MARK: - Reading

    /// What the database holds, the snapshot as its index. Throws `Unreadable` for contents this
    /// version cannot make sense of. A database of schema v1 has no digests: they are computed. One of
    /// schema v1 or v2 (read without writing) keeps its records by position: each is its slot.
    static func read(_ db: Database, schema: Schema = .current) throws -> StateContents {
        var contents = StateContents()
        let settings = try Dictionary(
            Row.fetchAll(db, sql: "SELECT key, value FROM setting").map { ($0[0] as String, $0[1] as String) },
            uniquingKeysWith: { first, _ in first })
        contents.siteID = settings["site_id"].flatMap(UUID.init(uuidString:))
        contents.lastBuild = try lastBuild(settings[lastBuildKey])
        contents.pageSlugs = settings[pageSlugsKey]
        contents.archives = settings[archivesKey]
        contents.roundWatch = settings[roundWatchKey]
        contents.deletions = settings[deletionsKey]
        contents.snapshot = try readIndex(db, schema: schema)
        let decoder = JSONDecoder()
        contents.numberedFrom = settings[numberedFromKey].flatMap { Int($0) }
        contents.history = try Row.fetchAll(db, sql: "SELECT time, changes, sequence FROM history ORDER BY sequence DESC").map { row in
            guard let changes = try? decoder.decode(ChangeSet.self, from: Data((row[1] as String).utf8)) else {
                throw Unreadable(reason: "it is not a history this version understands")
            }
            let sequence: Int = row[2]
            return HistoryEntry(time: row[0], changes: changes, sequence: sequence, numbered: sequence >= contents.numberedFrom ?? .max)
        }
        return contents
    }

    static let lastBuildKey = "last_build"
    /// The setting `StateContents.numberedFrom` is kept in.
    static let numberedFromKey = "history_numbered_from"
    /// The slugs that stay with their pages (`PageSlugs`): a setting, so that no schema changes.
    static let pageSlugsKey = "page_slugs"
    /// The finished rounds (`RoundArchive`), every later build publishes them: a setting too.
    static let archivesKey = "round_archives"
    /// When the last snapshot was made, and orders missing in refused runs (`RoundWatch`): a setting too.
    static let roundWatchKey = "round_watch"
    /// The deletions of the last 30 days that tombstones list (`RecentDeletions`): a setting too.
    static let deletionsKey = "recent_deletions"

    /// The last build's record alone, without the snapshot: what an unchanged rerun needs.
    static func readLastBuild(_ db: Database) throws -> LastBuild? {
        try lastBuild(String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [lastBuildKey]))
    }

    private static func lastBuild(_ text: String?) throws -> LastBuild? {
        guard let text else { return nil }
        guard let value = try? JSONDecoder().decode(LastBuild.self, from: Data(text.utf8)) else {
            throw Unreadable(reason: "its record of the last build is not one this version understands")
        }
        return value
    }

    struct Unreadable: Error {
        var reason: String
    }

    struct Newer: Error {
        var version: Int
    }

    static let notASnapshot = Unreadable(reason: "it is not a snapshot this version understands")

    /// The snapshot's header and each record's stamp; nil when there is no snapshot.
    private static func readIndex(_ db: Database, schema: Schema) throws -> SnapshotIndex? {
        guard
            let meta = try Row.fetchOne(
                db, sql: "SELECT version, salt, changed_at, columns, secret_columns, rates\(schema == .current ? ", context" : "") FROM snapshot WHERE id = 1")
        else { return nil }
        let version: Int = meta[0]
        guard version >= 1 else { throw Unreadable(reason: "its version \(version) is not a version of OrderPress's snapshot") }
        guard version <= Snapshot.currentVersion else { throw Newer(version: version) }
        guard let columns = ListText.decode(meta[3]), let secretColumns = ListText.decode(meta[4]) else { throw notASnapshot }
        var rates: Snapshot.Rates?
        if let text = meta[5] as String? {
            guard let decoded = try? JSONDecoder().decode(Snapshot.Rates.self, from: Data(text.utf8)) else { throw notASnapshot }
            rates = decoded
        }
        var header = Snapshot(
            version: version, salt: meta[1], changedAt: meta[2], columns: columns, secretColumns: secretColumns,
            rows: [], rates: rates)
        if schema == .current, let context = meta[6] as Data? {
            guard let digest = context.withUnsafeBytes(Digest128.init(bytes:)) else { throw notASnapshot }
            header.context = digest
        }
        guard schema != .v1 else {
            let records = try v1Records(db)
            let stamps = records.indices.map { SnapshotIndex.Stamp(records[$0], digest: RecordDigest(records[$0]), slot: $0) }
            return SnapshotIndex(header: header, records: stamps)
        }
        // By slot, each put at its place in the order; schema v2 by position, its place.
        let order = schema == .current || schema == .v3 ? try readOrder(db) : nil
        let fingerprints = schema == .current
        let places = try order.map { order in
            guard let places = order.positionsBySlot() else { throw notASnapshot }
            return places
        }
        var stamps: [SnapshotIndex.Stamp] = []
        // Most records share a few first-seen times: one string each, not one per record.
        var times = FirstSeenTimes()
        // Read through SQLite's own calls: a rerun reads a million of these, and GRDB's rows cost several
        // times what the values do.
        let prepared = try db.makeStatement(
            sql: order == nil
                ? "SELECT position, identity, digest, first_seen, rejected, sheet_row FROM record ORDER BY position"
                : "SELECT slot, identity, digest, first_seen, rejected\(fingerprints ? ", fingerprint" : "") FROM record ORDER BY slot")
        let statement = prepared.sqliteStatement
        // GRDB finalises the statement when `prepared` goes.
        defer { withExtendedLifetime(prepared) {} }
        func bytes(_ column: Int32) throws -> UnsafeBufferPointer<UInt8> {
            guard sqlite3_column_type(statement, column) == SQLITE_TEXT, let bytes = sqlite3_column_text(statement, column) else { throw notASnapshot }
            return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column)))
        }
        var read = 0
        while case let code = sqlite3_step(statement), code != SQLITE_DONE {
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            let key = Int(sqlite3_column_int64(statement, 0))
            // Saves address records by slot through the order: a record the order does not place, or a slot
            // it names that no record holds, would make the next save overwrite the wrong one (by
            // position, a gap would).
            let position: Int
            let row: Int
            if let order, let places {
                guard read < places.count, RecordOrder.slot(places[read]) == key else { throw notASnapshot }
                position = RecordOrder.position(places[read])
                row = order.rows[position]
            } else {
                guard key == read, sqlite3_column_type(statement, 5) == SQLITE_INTEGER else { throw notASnapshot }
                (position, row) = (read, Int(sqlite3_column_int64(statement, 5)))
            }
            guard sqlite3_column_type(statement, 2) == SQLITE_BLOB,
                let digest = RecordDigest(bytes: UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 2), count: Int(sqlite3_column_bytes(statement, 2)))),
                sqlite3_column_type(statement, 4) == SQLITE_INTEGER
            else { throw notASnapshot }
            var fingerprint: Digest128?
            if fingerprints, sqlite3_column_type(statement, 5) != SQLITE_NULL {
                guard sqlite3_column_type(statement, 5) == SQLITE_BLOB,
                    let read = Digest128(bytes: UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 5), count: Int(sqlite3_column_bytes(statement, 5))))
                else { throw notASnapshot }
                fingerprint = read
            }
            let identity = try bytes(1)
            let stamp = SnapshotIndex.Stamp(
                identity: IdentityKey(bytes: identity), digest: digest, row: row,
                firstSeen: times.text(try bytes(3)), rejected: sqlite3_column_int64(statement, 4) != 0, byID: Identity.isID(identity), slot: key,
                fingerprint: fingerprint)
            if let order {
                // The first stamp holds every place until its own is read: no stamp of no record is made.
                if stamps.isEmpty { stamps = Array(repeating: stamp, count: order.count) }
                stamps[position] = stamp
            } else {
                stamps.append(stamp)
            }
            read += 1
        }
        guard read == (places?.count ?? read) else { throw notASnapshot }
        return SnapshotIndex(header: header, records: stamps)
    }

    /// The sheet order; empty when none is kept (an empty snapshot).
    private static func readOrder(_ db: Database) throws -> RecordOrder {
        guard let row = try Row.fetchOne(db, sql: "SELECT width, slots, sheet_rows FROM record_order WHERE id = 1") else {
            return RecordOrder()
        }
        guard let width = row[0] as Int?, let slots = row[1] as Data?, let rows = row[2] as Data?,
            let order = RecordOrder(width: width, slots: slots, rows: rows)
        else { throw notASnapshot }
        return order
    }

    /// The columns a record is read and written with since schema v3, after its slot.
    private static let fieldColumns = """
        order_id, identity, value_list, secret_list, rejected, group_name, person, item, option_list, quantity,
        amount, currency, first_seen
        """
    private static let v1RecordColumns = "position, sheet_row, \(fieldColumns)"
    private static let recordColumns = "slot, \(fieldColumns), digest, fingerprint"

    /// Every record in full, in order: what a database of schema v1, which kept no digests, is read as.
    private static func v1Records(_ db: Database) throws -> [RowRecord] {
        let all = try v1Records(db, from: 0, count: Int.max)
        guard all.indices.elementsEqual(all.map(\.position)) else { throw notASnapshot }
        return all.map(\.record)
    }

    /// The records of a database of schema v1 from position `start` on, at most `count`, in order.
    private static func v1Records(_ db: Database, from start: Int, count: Int) throws -> [(position: Int, record: RowRecord)] {
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT \(v1RecordColumns) FROM record WHERE position >= ? ORDER BY position LIMIT ?",
            arguments: [start, count == Int.max ? -1 : count])
        var result: [(position: Int, record: RowRecord)] = []
        while let row = try cursor.next() {
            result.append((row[0], try record(row, sheetRow: row[1], from: 2)))
        }
        return result
    }

    /// The records of `stamps` (as `read` found them, in any order), with their stored digests (nil in a
    /// database of schema v1); nil for one the database does not hold. `total` is how many the index
    /// read found. Each record's sheet row is its stamp's: the order's.
    package static func records(
        _ db: Database, at stamps: [SnapshotIndex.Stamp], total: Int, schema: Schema
    ) throws -> [(record: RowRecord, digest: RecordDigest?)?] {
        let key = schema == .current || schema == .v3 ? "slot" : "position"
        let digests = schema != .v1
        let columns = "\(key), \(fieldColumns)\(digests ? ", digest" : "")"
        func entry(_ row: Row, _ stamp: SnapshotIndex.Stamp) throws -> (record: RowRecord, digest: RecordDigest?) {
            (try record(row, sheetRow: stamp.row, from: 1), digests ? (row[14] as Data?).flatMap(RecordDigest.init(data:)) : nil)
        }
        guard stamps.count > total / 8 else {
            let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM record WHERE \(key) = ?")
            return try stamps.map { stamp in try Row.fetchOne(statement, arguments: [stamp.slot]).map { try entry($0, stamp) } }
        }
        // Once they are many, one pass beats looking each up; only the wanted rows are decoded. The wanted
        // slots sorted, with the place of each in the answer, merged with the table read in slot order.
        let wanted = stamps.indices.map { UInt64(UInt32(truncatingIfNeeded: stamps[$0].slot)) << 32 | UInt64($0) }.sorted()
        var result = [(record: RowRecord, digest: RecordDigest?)?](repeating: nil, count: stamps.count)
        var next = 0
        let cursor = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM record ORDER BY \(key)")
        while next < wanted.count, let row = try cursor.next() {
            let slot: Int = row[0]
            while next < wanted.count, RecordOrder.slot(wanted[next]) < slot { next += 1 }
            while next < wanted.count, RecordOrder.slot(wanted[next]) == slot {
                let place = RecordOrder.position(wanted[next])
                result[place] = try entry(row, stamps[place])
                next += 1
            }
        }
        return result
    }

    /// A record of `row`, whose fields start at column `first`.
    private static func record(_ row: Row, sheetRow: Int, from first: Int) throws -> RowRecord {
        guard let values = ListText.decode(row[first + 2]), let secrets = ListText.decode(row[first + 3]),
            let options = ListText.decode(row[first + 8])
        else {
            throw notASnapshot
        }
        return RowRecord(
            row: sheetRow, id: row[first], identity: row[first + 1], values: values, secrets: secrets.map(SecretHash.init(text:)), rejected: row[first + 4],
            group: row[first + 5], person: row[first + 6], item: row[first + 7], options: options, quantity: row[first + 9],
            amount: row[first + 10], currency: row[first + 11], firstSeen: row[first + 12])
    }

    // MARK: - Writing

    /// Writes the difference between `old`, which the database holds, and `new`: changed records and
    /// settings, the history entries that are new, the deletion of those that fell off. `records` are
    /// the records of `new.snapshot`, in its order; nil when it is `old.snapshot`.
    static func write(_ new: StateContents, records: [RowRecord]?, over old: StateContents, in db: Database) throws {
        try set("site_id", new.siteID.map { $0.uuidString.lowercased() }, over: old.siteID.map { $0.uuidString.lowercased() }, in: db)
        func text(_ record: LastBuild?) -> String? { record.map { String(decoding: JSONOutput.encode($0), as: UTF8.self) } }
        try set(lastBuildKey, text(new.lastBuild), over: text(old.lastBuild), in: db)
        try set(pageSlugsKey, new.pageSlugs, over: old.pageSlugs, in: db)
        try set(archivesKey, new.archives, over: old.archives, in: db)
        try set(roundWatchKey, new.roundWatch, over: old.roundWatch, in: db)
        try set(deletionsKey, new.deletions, over: old.deletions, in: db)
        if let snapshot = new.snapshot {
            if let records {
                try write(snapshot, records: records, over: old.snapshot, in: db)
            } else {
                precondition(snapshot == old.snapshot, "a changed snapshot was saved without its records")
            }
        } else if old.snapshot != nil {
            try db.execute(sql: "DELETE FROM snapshot; DELETE FROM record; DELETE FROM record_order")
        }
        try write(new.history, over: old.history, in: db)
        // Set once, by the first save of this version: the entries already saved keep their ids.
        if old.numberedFrom == nil { try set(numberedFromKey, String(numberedFrom(new.history)), over: nil, in: db) }
    }

    /// `StateContents.numberedFrom` for a history saved for the first time by this version: its first
    /// numbered entry, or the next number.
    static func numberedFrom(_ history: [HistoryEntry]) -> Int {
        history.filter(\.numbered).map(\.sequence).min() ?? (history.map(\.sequence).max() ?? 0) + 1
    }

    private static func set(_ key: String, _ value: String?, over old: String?, in db: Database) throws {
        guard value != old else { return }
        if let value {
            try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
        }
    }

    /// Writes the records that equal no old one but for their sheet row (`SlotPlan`), deletes the slots
    /// left over and rewrites the order if it changed: one changed order rewrites one row, one deleted
    /// order deletes one, however many there are.
    private static func write(_ new: SnapshotIndex, records: [RowRecord], over old: SnapshotIndex?, in db: Database) throws {
        precondition(records.count == new.records.count, "a snapshot was saved with records that are not its own")
        try write(header: new.header, over: old?.header, in: db)
        _ = try write(
            SnapshotRecords(records), digests: new.records.map(\.digest), reuse: .none, over: old?.records ?? [], into: "record",
            freeing: "DELETE FROM record WHERE slot = ?", order: "record_order", in: db)
    }

    /// What `SlotPlan` makes of `records` over `old`: the records to write into `recordTable`, each
    /// freed slot given to `freeing`, the order into `orderTable` if it changed.
    private static func write(
        _ records: SnapshotRecords, digests: [RecordDigest], reuse: RecordReuse, over old: [SnapshotIndex.Stamp],
        into recordTable: String, freeing: String, order orderTable: String, in db: Database
    ) throws -> SlotPlan.Counts {
        let plan = SlotPlan(records, digests: digests, reuse: reuse, over: old)
        try insert(records, plan: plan, digests: digests, fingerprints: reuse, into: recordTable, in: db)
        let freed = try db.makeStatement(sql: freeing)
        for slot in plan.freed { try freed.execute(arguments: [slot]) }
        if plan.reordered { try write(plan.order, into: orderTable, in: db) }
        return plan.counts
    }

    /// Writes into a scratch database (`openScratch`) what a save of `records` over `old` writes
    /// (`SlotPlan`): the records to write, with their slots and digests, the slots to delete, and the
    /// order if it changed, for `write(staged:over:in:)`; returns how much that is.
    package static func stage(
        _ records: SnapshotRecords, digests: [RecordDigest], reuse: RecordReuse = .none, over old: [SnapshotIndex.Stamp], in db: Database
    ) throws -> SlotPlan.Counts {
        try db.execute(
            sql: """
                CREATE TABLE staged_record (slot INTEGER PRIMARY KEY, \(fieldTable), digest BLOB, fingerprint BLOB);
                CREATE TABLE staged_freed (slot INTEGER PRIMARY KEY);
                CREATE TABLE staged_order (\(orderTable));
                """)
        return try write(
            records, digests: digests, reuse: reuse, over: old, into: "staged_record", freeing: "INSERT INTO staged_freed (slot) VALUES (?)",
            order: "staged_order", in: db)
    }

    static let stagedSchema = "staged"

    /// Saves a staged snapshot: its header, the records staged in the scratch database attached as
    /// `stagedSchema`, the deletion of the slots it frees, its order if it changed.
    static func write(staged header: Snapshot, over old: SnapshotIndex?, in db: Database) throws {
        try write(header: header, over: old?.header, in: db)
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO main.record (\(recordColumns)) SELECT \(recordColumns) FROM \(stagedSchema).staged_record;
                DELETE FROM main.record WHERE slot IN (SELECT slot FROM \(stagedSchema).staged_freed);
                INSERT OR REPLACE INTO main.record_order (id, width, slots, sheet_rows)
                    SELECT id, width, slots, sheet_rows FROM \(stagedSchema).staged_order;
                """)
    }

    /// The order as the one row of `table` (`record_order` or its staged copy).
    private static func write(_ order: RecordOrder, into table: String, in db: Database) throws {
        let (width, slots, rows) = order.encoded()
        try db.execute(
            sql: "INSERT OR REPLACE INTO \(table) (id, width, slots, sheet_rows) VALUES (1, ?, ?, ?)", arguments: [width, slots, rows])
    }

    private static func write(header new: Snapshot, over old: Snapshot?, in db: Database) throws {
        if old != new {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO snapshot (id, version, salt, changed_at, columns, secret_columns, rates)
                    VALUES (1, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    new.version, new.salt, new.changedAt, ListText.encode(new.columns), ListText.encode(new.secretColumns),
                    new.rates.map { String(decoding: JSONOutput.encode($0), as: UTF8.self) },
                ])
            // Apart: the first migration writes a header before the column exists (and never one with a context).
            if let context = new.context {
                try db.execute(sql: "UPDATE snapshot SET context = ? WHERE id = 1", arguments: [Data(context.bytes)])
            }
        }
    }

    /// Inserts into `table` the records `plan` writes, each in its slot.
    /// Bound through SQLite's own calls: GRDB's arguments were most of the time a
    /// million-record save took (docs/benchmarks.md).
    private static func insert(
        _ records: SnapshotRecords, plan: SlotPlan, digests: [RecordDigest], fingerprints: RecordReuse, into table: String, in db: Database
    ) throws {
        let statement = try db.makeStatement(
            sql: "INSERT OR REPLACE INTO \(table) (\(recordColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        var row = RowBinder(statement)
        // Each record read where it is: a copy of every one (its texts and lists retained, then released)
        // cost more than comparing them, on the thread that stages while the pages render.
        // A record written is never a kept one: those keep their slots.
        for position in plan.written {
            try bind(
                records[position], key: plan.order.slots[position], digest: digests[position], fingerprint: fingerprints.fingerprint(position),
                into: &row)
            try row.step(in: db)
        }
    }

    /// The records of the state files the database replaces, as schema v1 kept them (by position, with
    /// their sheet rows); the later migrations make them what this version keeps.
    private static func importV1(_ records: [RowRecord], in db: Database) throws {
        let statement = try db.makeStatement(
            sql: "INSERT INTO record (\(v1RecordColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        var row = RowBinder(statement)
        try records.withUnsafeBufferPointer { records in
            for position in records.indices {
                try bind(records[position], key: position, sheetRow: records[position].row, digest: nil, into: &row)
                try row.step(in: db)
            }
        }
    }

    private static func bind(
        _ record: borrowing RowRecord, key: Int, sheetRow: Int? = nil, digest: RecordDigest?, fingerprint: Digest128? = nil,
        into row: inout RowBinder
    ) throws {
        row.reset()
        row.bind(key)
        if let sheetRow { row.bind(sheetRow) }
        row.bind(record.id)
        record.identityValue.withUTF8(id: record.id, values: record.values) { row.bind(text: $0) }
        row.bind(list: record.values)
        row.bind(list: record.secrets)
        row.bind(record.rejected ? 1 : 0)
        row.bind(record.group)
        row.bind(record.person)
        row.bind(record.item)
        row.bind(list: record.options)
        row.bind(record.quantity)
        row.bind(record.amount)
        row.bind(record.currency)
        row.bind(record.firstSeen)
        if let digest {
            row.bind(digest.value)
            row.bind(fingerprint)
        }
    }

    /// Binds one row's values in order, as GRDB would (integers, text, blobs), and runs the statement.
    private struct RowBinder {
        /// Held, so that GRDB does not finalise it while its handle is in use.
        let prepared: Statement
        var statement: OpaquePointer { prepared.sqliteStatement }
        private var index: Int32 = 0
        /// One list's text at a time, its storage kept from row to row.
        private var scratch: [UInt8] = []
        /// SQLite copies what it is given (`SQLITE_TRANSIENT`, a macro Swift does not import).
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        init(_ prepared: Statement) {
            self.prepared = prepared
        }

        mutating func reset() {
            sqlite3_reset(statement)
            index = 0
        }

        mutating func bind(_ value: Int) {
            index += 1
            sqlite3_bind_int64(statement, index, Int64(value))
        }

        mutating func bind(_ value: String?) {
            index += 1
            guard var text = value else {
                sqlite3_bind_null(statement, index)
                return
            }
            text.withUTF8 { bindText($0) }
        }

        /// A list as `ListText` encodes it.
        mutating func bind(list: [String]) {
            bindList { ListText.append(list, to: &$0) }
        }

        /// Secret hashes as `ListText` encodes their texts.
        mutating func bind(list: [SecretHash]) {
            bindList { ListText.append(list, to: &$0) }
        }

        private mutating func bindList(_ encode: (inout [UInt8]) -> Void) {
            index += 1
            scratch.removeAll(keepingCapacity: true)
            encode(&scratch)
            scratch.withUnsafeBufferPointer { bindText($0) }
        }

        /// UTF-8 bytes.
        mutating func bind(text bytes: UnsafeBufferPointer<UInt8>) {
            index += 1
            bindText(bytes)
        }

        /// UTF-8 at `index`.
        private func bindText(_ bytes: UnsafeBufferPointer<UInt8>) {
            // SQLite reads a null pointer as NULL, not "": never given one, even should an empty buffer have no address.
            if let base = bytes.baseAddress {
                sqlite3_bind_text(statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient)
            } else {
                sqlite3_bind_text(statement, index, "", 0, Self.transient)
            }
        }

        /// A digest as its 16 bytes; nil as NULL.
        mutating func bind(_ digest: Digest128?) {
            index += 1
            let index = index
            guard let digest else {
                sqlite3_bind_null(statement, index)
                return
            }
            digest.withBytes { bytes in _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), Self.transient) }
        }

        func step(in db: Database) throws {
            let code = sqlite3_step(statement)
            guard code == SQLITE_DONE else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
        }
    }

    /// A run adds at most one entry in front and drops the oldest: find the longest tail of `new` that
    /// `old` starts with, keep those rows, insert the rest.
    private static func write(_ new: [HistoryEntry], over old: [HistoryEntry], in db: Database) throws {
        let fresh = (0...new.count).first { fresh in
            let kept = new.count - fresh
            return kept <= old.count && new[fresh...].elementsEqual(old.prefix(kept))
        } ?? new.count
        let kept = new.count - fresh
        if old.count > kept {
            try db.execute(
                sql: "DELETE FROM history WHERE sequence NOT IN (SELECT sequence FROM history ORDER BY sequence DESC LIMIT ?)",
                arguments: [kept])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for entry in new.prefix(fresh).reversed() {
            // Only strings, numbers, bools, arrays and string-keyed objects: encoding cannot fail.
            let changes = String(decoding: (try? encoder.encode(entry.changes)) ?? Data(), as: UTF8.self)
            // The entry's own number (the feed's entry id is made of it), not the next free one.
            try db.execute(
                sql: "INSERT INTO history (sequence, time, changes) VALUES (?, ?, ?)", arguments: [entry.sequence, entry.time, changes])
        }
    }
}
