import Foundation
import GRDB
import Testing

@testable import OrderPressSupport
@testable import OrderPressDiff
import OrderPressTestSupport

/// The state database's schema v4: records by slot with their rows' fingerprints, the sheet order in one row (`RecordOrder`).
@Suite struct StateDatabaseTests {
    static let notASnapshot = "it is not a snapshot this version understands"

    static let v4Columns = [
        "slot", "order_id", "identity", "value_list", "secret_list", "rejected", "group_name", "person", "item", "option_list",
        "quantity", "amount", "currency", "first_seen", "digest", "fingerprint",
    ]

    /// Read without writing (a dry run, `orderpress diff`), a v2 state is read as it is; the first build
    /// makes it v4 with the same contents, each record in the slot of its position, and then a rerun on
    /// the same snapshot writes nothing.
    @Test func aV2StateMigratesWithTheSameContents() throws {
        let (folder, queue, snapshot, history) = try StateFixtures.v2State()
        #expect(try queue.read { try $0.columns(in: "record").map(\.name) }.contains("sheet_row"))
        let reader = StateStore(folder: folder, writable: false)
        #expect(try reader.loadSnapshot() == snapshot)
        #expect(try reader.loadHistory() == history)
        #expect(try StateFixtures.migrations(queue) == ["v1", "v2"])

        let build = StateStore(folder: folder)
        #expect(try build.loadSnapshot() == snapshot)
        #expect(try StateFixtures.migrations(queue) == ["v1", "v2", "v3", "v4"])
        try queue.close()
        let migrated = try DatabaseQueue(path: build.databaseURL.path)
        #expect(try migrated.read { try $0.columns(in: "record").map(\.name) } == Self.v4Columns)
        try migrated.close()
        #expect(try build.contents().snapshot?.records.map(\.slot) == Array(snapshot.rows.indices))
        #expect(try build.contents().snapshot?.records.map(\.row) == snapshot.rows.map(\.row))
        #expect(try build.loadHistory() == history)
        #expect(try build.lastBuild()?.fingerprint == "f1")
        #expect(try build.siteID(create: false) == DiffFixtures.siteID)

        let database = try Data(contentsOf: build.databaseURL)
        let rerun = StateStore(folder: folder)
        let staged = try rerun.stage(snapshot, digests: snapshot.rows.map(RecordDigest.init))
        #expect(try staged.staged() == .none)
        try rerun.save(staged, history: history, lastBuild: LastBuild(fingerprint: "f1"))
        #expect(rerun.rowsWritten == nil)
        #expect(try Data(contentsOf: build.databaseURL) == database)
        #expect(try StateStore(folder: folder).loadSnapshot() == snapshot)
    }

    /// Issue 36 item 13: a v2 state that cannot be read is not migrated (and committed) before the read fails:
    /// the file stays as it was, still v2, and saying why is the same for a build and a dry run.
    @Test func aV2StateThatCannotBeReadIsNotMigrated() throws {
        let (folder, queue, _, _) = try StateFixtures.v2State()
        try queue.write { try $0.execute(sql: "UPDATE history SET changes = '{not a change set'") }
        try queue.close()
        let url = folder.appendingPathComponent(StateDatabase.fileName)
        let before = try Data(contentsOf: url)
        let message = "\(url.path) cannot be read (it is not a history this version understands); \(StateStoreTests.startAfresh)"
        for writable in [true, false] {
            #expect(throws: DataError(message: message)) { try StateStore(folder: folder, writable: writable).loadSnapshot() }
        }
        #expect(try Data(contentsOf: url) == before)
        let reopened = try DatabaseQueue(path: url.path)
        #expect(try StateFixtures.migrations(reopened) == ["v1", "v2"])
        try reopened.close()
    }

    /// Ways the order and the records can disagree; each makes the snapshot unreadable, never a
    /// snapshot with records missing or in the wrong place.
    enum Corruption: String, CaseIterable {
        case truncated, oddWidth, slotTwice, slotWithoutRecord, recordWithoutSlot, rowsShorter, negativeSlot, noOrder, lastRecordGone

        func apply(in db: Database) throws {
            let row = try #require(try Row.fetchOne(db, sql: "SELECT width, slots, sheet_rows FROM record_order"))
            var order = try #require(RecordOrder(width: row[0], slots: row[1], rows: row[2]))
            switch self {
            case .truncated:
                try db.execute(sql: "UPDATE record_order SET slots = substr(slots, 1, length(slots) - 1)")
                return
            case .oddWidth:
                try db.execute(sql: "UPDATE record_order SET width = 2")
                return
            case .rowsShorter:
                try db.execute(sql: "UPDATE record_order SET sheet_rows = substr(sheet_rows, 1, length(sheet_rows) - 4)")
                return
            case .noOrder:
                try db.execute(sql: "DELETE FROM record_order")
                return
            case .lastRecordGone:
                try db.execute(sql: "DELETE FROM record WHERE slot = (SELECT max(slot) FROM record)")
                return
            case .slotTwice: order.slots[1] = order.slots[0]
            case .slotWithoutRecord: order.slots[1] = 1_000
            case .recordWithoutSlot: (order.slots, order.rows) = (order.slots.dropLast(), order.rows.dropLast())
            case .negativeSlot: order.slots[0] = -1
            }
            let (width, slots, rows) = order.encoded()
            try db.execute(sql: "UPDATE record_order SET width = ?, slots = ?, sheet_rows = ?", arguments: [width, slots, rows])
        }
    }

    @Test(arguments: Corruption.allCases)
    func anOrderThatDisagreesWithTheRecordsIsNotASnapshot(corruption: Corruption) throws {
        let (store, _) = try StateStoreTests.saved()
        let queue = try DatabaseQueue(path: store.databaseURL.path)
        try queue.write { try corruption.apply(in: $0) }
        try queue.close()
        let message = "\(store.databaseURL.path) cannot be read (\(Self.notASnapshot)); \(StateStoreTests.startAfresh)"
        for reader in [StateStore(folder: store.folder), StateStore(folder: store.folder, writable: false)] {
            #expect(throws: DataError(message: message)) { try reader.loadSnapshot() }
        }
    }

    /// Slots and rows take four bytes each while they fit, eight once one does not, and read back as written.
    @Test(arguments: [([0, 1, 2], [2, 3, 5], 4), ([7, 0], [Int(Int32.max), Int(Int32.min)], 4), ([1], [Int.max], 8), ([], [], 4)])
    func anOrderReadsBackAsWritten(slots: [Int], rows: [Int], width: Int) throws {
        let order = RecordOrder(slots: slots, rows: rows)
        let encoded = order.encoded()
        #expect(encoded.width == width)
        #expect(encoded.slots.count == slots.count * width)
        #expect(RecordOrder(width: encoded.width, slots: encoded.slots, rows: encoded.rows) == order)
    }
}
