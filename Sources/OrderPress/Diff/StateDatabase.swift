import Foundation
import GRDB

/// The state database's schema, and reading and writing `StateContents` in it (GRDB over SQLite).
///
/// One row per snapshot record, keyed by its position in sheet order, so that a save compares the
/// new records with the ones it read and writes only those that differ: a rerun on unchanged input
/// writes nothing, one changed order rewrites one row. SQLite's rollback journal (not WAL, which
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
    static func migrator(importing legacy: StateContents) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE snapshot (
                        id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, salt TEXT NOT NULL,
                        changed_at TEXT NOT NULL, columns TEXT NOT NULL, secret_columns TEXT NOT NULL, rates TEXT);
                    CREATE TABLE record (
                        position INTEGER PRIMARY KEY, sheet_row INTEGER NOT NULL, order_id TEXT, identity TEXT NOT NULL,
                        value_list TEXT NOT NULL, secret_list TEXT NOT NULL, rejected INTEGER NOT NULL,
                        group_name TEXT NOT NULL, person TEXT NOT NULL, item TEXT NOT NULL, option_list TEXT NOT NULL,
                        quantity INTEGER NOT NULL, amount TEXT, currency TEXT NOT NULL, first_seen TEXT NOT NULL);
                    CREATE TABLE history (sequence INTEGER PRIMARY KEY, time TEXT NOT NULL, changes TEXT NOT NULL);
                    """)
            try write(legacy, over: StateContents(), in: db)
        }
        return migrator
    }

    static func open(_ url: URL, readOnly: Bool) throws -> DatabaseQueue {
        var configuration = GRDB.Configuration()
        configuration.readonly = readOnly
        configuration.label = "orderpress.state"
        // GRDB's default answers "busy" at once; the build lock already keeps builds apart, and a
        // reading `orderpress diff` should wait out a build's commit rather than fail.
        configuration.busyMode = Database.BusyMode.timeout(10)
        configuration.prepareDatabase { db in
            if !readOnly { try db.execute(sql: "PRAGMA synchronous = FULL") }
        }
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    // MARK: - Reading

    /// What the database holds. Throws `Unreadable` for contents this version cannot make sense of.
    static func read(_ db: Database) throws -> StateContents {
        var contents = StateContents()
        let settings = try Dictionary(
            Row.fetchAll(db, sql: "SELECT key, value FROM setting").map { ($0[0] as String, $0[1] as String) },
            uniquingKeysWith: { first, _ in first })
        contents.siteID = settings["site_id"].flatMap(UUID.init(uuidString:))
        contents.fingerprint = settings["fingerprint"]
        contents.snapshot = try readSnapshot(db)
        let decoder = JSONDecoder()
        contents.history = try Row.fetchAll(db, sql: "SELECT time, changes FROM history ORDER BY sequence DESC").map { row in
            guard let changes = try? decoder.decode(ChangeSet.self, from: Data((row[1] as String).utf8)) else {
                throw Unreadable(reason: "it is not a history this version understands")
            }
            return HistoryEntry(time: row[0], changes: changes)
        }
        return contents
    }

    struct Unreadable: Error {
        var reason: String
    }

    struct Newer: Error {
        var version: Int
    }

    private static func readSnapshot(_ db: Database) throws -> Snapshot? {
        guard
            let meta = try Row.fetchOne(
                db, sql: "SELECT version, salt, changed_at, columns, secret_columns, rates FROM snapshot WHERE id = 1")
        else { return nil }
        let notASnapshot = Unreadable(reason: "it is not a snapshot this version understands")
        let version: Int = meta[0]
        guard version >= 1 else { throw Unreadable(reason: "its version \(version) is not a version of OrderPress's snapshot") }
        guard version <= Snapshot.currentVersion else { throw Newer(version: version) }
        guard let columns = ListText.decode(meta[3]), let secretColumns = ListText.decode(meta[4]) else { throw notASnapshot }
        var rates: Snapshot.Rates?
        if let text = meta[5] as String? {
            guard let decoded = try? JSONDecoder().decode(Snapshot.Rates.self, from: Data(text.utf8)) else { throw notASnapshot }
            rates = decoded
        }
        var rows: [RowRecord] = []
        rows.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM record") ?? 0)
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT position, sheet_row, order_id, identity, value_list, secret_list, rejected, group_name, person,
                    item, option_list, quantity, amount, currency, first_seen FROM record ORDER BY position
                """)
        while let row = try cursor.next() {
            // Saves address records by position: a gap would make the next save overwrite the wrong one.
            guard row[0] as Int == rows.count, let values = ListText.decode(row[4]), let secrets = ListText.decode(row[5]),
                let options = ListText.decode(row[10])
            else { throw notASnapshot }
            rows.append(
                RowRecord(
                    row: row[1], id: row[2], identity: row[3], values: values, secrets: secrets, rejected: row[6],
                    group: row[7], person: row[8], item: row[9], options: options, quantity: row[11], amount: row[12],
                    currency: row[13], firstSeen: row[14]))
        }
        return Snapshot(
            version: version, salt: meta[1], changedAt: meta[2], columns: columns, secretColumns: secretColumns,
            rows: rows, rates: rates)
    }

    // MARK: - Writing

    /// Writes the difference between `old`, which the database holds, and `new`: changed records and
    /// settings, the history entries that are new, the deletion of those that fell off.
    static func write(_ new: StateContents, over old: StateContents, in db: Database) throws {
        try set("site_id", new.siteID.map { $0.uuidString.lowercased() }, over: old.siteID.map { $0.uuidString.lowercased() }, in: db)
        try set("fingerprint", new.fingerprint, over: old.fingerprint, in: db)
        if let snapshot = new.snapshot {
            try write(snapshot, over: old.snapshot, in: db)
        } else if old.snapshot != nil {
            try db.execute(sql: "DELETE FROM snapshot; DELETE FROM record")
        }
        try write(new.history, over: old.history, in: db)
    }

    private static func set(_ key: String, _ value: String?, over old: String?, in db: Database) throws {
        guard value != old else { return }
        if let value {
            try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
        }
    }

    private static func write(_ new: Snapshot, over old: Snapshot?, in db: Database) throws {
        func withoutRows(_ snapshot: Snapshot) -> Snapshot {
            var snapshot = snapshot
            snapshot.rows = []
            return snapshot
        }
        if old.map(withoutRows) != withoutRows(new) {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO snapshot (id, version, salt, changed_at, columns, secret_columns, rates)
                    VALUES (1, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    new.version, new.salt, new.changedAt, ListText.encode(new.columns), ListText.encode(new.secretColumns),
                    new.rates.map { String(decoding: JSONOutput.encode($0), as: UTF8.self) },
                ])
        }
        let oldRows = old?.rows ?? []
        let statement = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO record (position, sheet_row, order_id, identity, value_list, secret_list, rejected,
                    group_name, person, item, option_list, quantity, amount, currency, first_seen)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for (position, record) in new.rows.enumerated() where position >= oldRows.count || oldRows[position] != record {
            try statement.execute(arguments: [
                position, record.row, record.id, record.identity, ListText.encode(record.values),
                ListText.encode(record.secrets), record.rejected, record.group, record.person, record.item,
                ListText.encode(record.options), record.quantity, record.amount, record.currency, record.firstSeen,
            ])
        }
        if oldRows.count > new.rows.count {
            try db.execute(sql: "DELETE FROM record WHERE position >= ?", arguments: [new.rows.count])
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
            try db.execute(sql: "INSERT INTO history (time, changes) VALUES (?, ?)", arguments: [entry.time, changes])
        }
    }
}
