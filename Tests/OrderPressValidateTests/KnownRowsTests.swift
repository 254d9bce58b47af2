import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
import OrderPressTestSupport

/// Which rows validation hands the diff as kept (`SheetRow.kept`): a valid row whose cells the last
/// snapshot holds a valid record of (`KnownRows`), under the same context. Every other row — changed,
/// new, rejected, with an unseen secret, or under another context — is validated in full, and every
/// rule of the whole sheet still reads the kept rows.
@Suite struct KnownRowsTests {
    static let headers = ["id", "group", "orderer", "drink", "price", "editCode"]
    static let rows = [
        ["1", "Lunch", "Amy", "紅茶", "35", "1111"],
        ["2", "Lunch", "Ben", "綠茶", "40", "2222"],
        ["3", "Boba", "陳小明", "奶茶", "-5", "3333"],
        ["4", "Boba", "Eve", "紅茶", "35", "4444"],
    ]
    static let toml = """
        base_currency = "TWD"
        [orders]
        path = "o.json"
        [orders.columns]
        secret = ["editCode"]
        [groups]
        path = "g.csv"
        """
    static let key: [UInt8] = Array(repeating: 7, count: 32)

    static func sheet(
        _ rows: [[String]] = rows, groups: [[String]] = [["Lunch", "Amy", "TWD"], ["Boba", "Ben", "TWD"]], known: KnownRows? = nil
    ) throws -> ValidatedSheet {
        try Validator(configuration: try TestSupport.configuration(toml)).validateSheet(
            orders: TestSupport.table(headers, rows), groups: TestSupport.table(["group", "organizer", "currency"], groups, name: "groups"),
            known: { known })
    }

    /// What a snapshot made from `sheet` knows: its valid rows' fingerprints at their positions.
    /// `key`: the state folder's key this run reads, which may not be the one the snapshot was made with.
    static func known(_ sheet: ValidatedSheet, key: [UInt8] = key) -> KnownRows {
        let valid = sheet.rows.indices.map { sheet.rows[$0].rejected ? KnownRows.none : sheet.fingerprints[$0] }
        return KnownRows(context: sheet.context!.keyed(by: Self.key), key: key, validRows: valid)
    }

    /// `known(_:key:)` with each record's identity as the snapshot holds it, but its key `keys` gives: a
    /// kept row that takes it was not hashed again.
    static func known(_ sheet: ValidatedSheet, keys: (Int) -> IdentityKey) -> KnownRows {
        var known = known(sheet)
        (known.identities, known.byID) = (sheet.rows.indices.map(keys), sheet.rows.map(\.identity.isID))
        return known
    }

    static func kept(_ sheet: ValidatedSheet) -> [Int] {
        sheet.rows.indices.filter { if case .kept = sheet.rows[$0] { true } else { false } }
    }

    @Test func anUnchangedValidRowIsKeptAndEveryOtherValidated() throws {
        let before = try Self.sheet()
        #expect(before.keptRows == 0)
        var rows = Self.rows
        rows[1][4] = "41"
        let after = try Self.sheet(rows, known: Self.known(before))
        // The changed row and the rejected one are validated; the two unchanged valid ones kept.
        #expect(Self.kept(after) == [0, 3])
        #expect(after.keptRows == 2)
        guard case .kept(let first) = after.rows[0], case .kept(let last) = after.rows[3] else { return }
        #expect((first.row, first.id, first.known, last.known) == (2, "1", 0, 3))
        #expect(first.identity == before.rows[0].identity && last.identity == before.rows[3].identity)
        #expect(after.rows[1].validatedRow?.amount == 41)
        #expect(after.rows[2].rejected)
        // Their secret cells are not handed over; every order is still there for the pages.
        #expect(after.secrets.rows.map(\.isEmpty) == [true, false, false, true])
        #expect(after.data.orders.map(\.row) == [2, 3, 5])
    }

    @Test(arguments: ["group currency", "another key", "row rejected now", "unseen secret"])
    func nothingOrOnlyWhatStillHoldsIsKept(_ change: String) throws {
        let before = try Self.sheet()
        var rows = Self.rows
        let after: ValidatedSheet
        switch change {
        // Another context: every row validated again.
        case "group currency": after = try Self.sheet(groups: [["Lunch", "Amy", "USD"], ["Boba", "Ben", "TWD"]], known: Self.known(before))
        case "another key": after = try Self.sheet(known: Self.known(before, key: Array(repeating: 8, count: 32)))
        // Ben's row priced in another currency than Lunch's, and Amy's edit code masked as a cached copy keeps it.
        case "row rejected now":
            rows[1][4] = "40 USD"
            after = try Self.sheet(rows, known: Self.known(before))
        default:
            rows[0][5] = SecretMask.text
            after = try Self.sheet(rows, known: Self.known(before))
        }
        let expected: [Int] = switch change {
        case "row rejected now": [0, 3]
        case "unseen secret": [1, 3]
        default: []
        }
        #expect(Self.kept(after) == expected)
    }

    /// A kept row's identity is the one the last snapshot holds of its record, not made and hashed again,
    /// while it is made the same way: an id that became shared, or is no longer, makes it anew, as a row
    /// validated in full has it.
    @Test(arguments: ["price", "shared", "unshared"])
    func aKeptRowTakesItsRecordsIdentityWhileItsRuleIsTheSame(_ change: String) throws {
        var (rows, earlier) = (Self.rows, Self.rows)
        switch change {
        // Ben's row takes Amy's: Amy's row, unchanged, is no longer identified by its id.
        case "shared": rows[1][0] = "1"
        // Ben's row had Amy's id: Amy's, unchanged, is identified by it again.
        case "unshared": earlier[1][0] = "1"
        default: rows[1][4] = "41"
        }
        let before = try Self.sheet(earlier)
        let stored = { (position: Int) in IdentityKey("as stored \(position)") }
        let after = try Self.sheet(rows, known: Self.known(before, keys: stored))
        let full = try Self.sheet(rows)
        #expect(Self.kept(after) == [0, 3])
        #expect(after.rows[3].identityKey == stored(3))
        #expect(after.rows[0].identity.isID == full.rows[0].identity.isID)
        if change == "price" {
            #expect(after.rows[0].identityKey == stored(0))
        } else {
            #expect(after.rows[0].identityKey == full.rows[0].identityKey)
            #expect(after.rows[0].identity.isID == (change == "unshared"))
        }
        // Without the identities, each is made again.
        #expect(try Self.sheet(rows, known: Self.known(before)).rows.map(\.identityKey) == full.rows.map(\.identityKey))
    }

    /// Whether a stored identity is by id is read from its bytes, as they were made: an id that starts with
    /// a combining mark is still one (its first character is not the colon).
    @Test(arguments: [("id:\u{301}7", true), ("id:7", true), ("content:id=7", false), ("i", false), ("", false)])
    func anIdentityIsByIDByItsBytes(_ text: String, _ byID: Bool) {
        #expect(Identity(text: text).isID == byID)
        #expect(Text.withUTF8(text, Identity.isID) == byID)
    }

    /// A deleted row moves the rows after it: they are found where they are now.
    @Test func rowsAreFoundWhereTheyMoved() throws {
        let before = try Self.sheet()
        var rows = Self.rows
        rows.remove(at: 1)
        let after = try Self.sheet(rows, known: Self.known(before))
        #expect(Self.kept(after) == [0, 2])
        guard case .kept(let moved) = after.rows[2] else { return }
        #expect((moved.row, moved.known) == (4, 3))
    }

    /// A record is looked for up to `reach` places from where the row is expected, and nowhere else.
    @Test(arguments: [(30, 20, 30), (30, 14, 30), (30, 13, nil), (30, 47, nil), (3, 0, 3)] as [(Int, Int, Int?)])
    func aRecordIsLookedForNearWhereTheRowIs(_ record: Int, _ guess: Int, _ found: Int?) {
        let fingerprints = (0..<40).map { Digest128(high: UInt64($0) + 1, low: 7) }
        let known = KnownRows(context: Digest128(high: 1, low: 1), key: [], validRows: fingerprints)
        #expect(known.position(of: fingerprints[record], near: guess) == found)
        #expect(known.position(of: KnownRows.none, near: record) == nil)
    }

    /// The rules of the whole sheet read a kept row as any other: its identity follows the other rows'
    /// ids, and a second spelling of its person is merged and warned about.
    @Test func theSheetsRulesStillReadKeptRows() throws {
        let before = try Self.sheet()
        var rows = Self.rows
        // Ben's row takes Amy's id; a new row spells Eve otherwise.
        rows[1][0] = "1"
        rows.append(["5", "Boba", "E ve", "綠茶", "40", "5555"])
        let after = try Self.sheet(rows, known: Self.known(before))
        #expect(Self.kept(after) == [0, 3])
        #expect(!after.rows[0].identity.isID && before.rows[0].identity.isID)
        #expect(after.data.warnings.contains { $0.reason?.code == .idRepeated })
        #expect(after.data.warnings.contains { $0.reason?.code == .personSpellingsMerged })
        #expect(after.data.spellings.merged["eve"]?.spellings.count == 2)
    }

    /// A state written before row fingerprints were made as they are now (`SourceTable.fingerprintScheme`)
    /// holds fingerprints of another encoding: under the same context none is this run's, so every row is
    /// validated in full and its record made again, never kept by a fingerprint of the other kind.
    @Test func fingerprintsOfTheEncodingBeforeKeepNoRow() throws {
        let before = try Self.sheet()
        let known = Self.known(before)
        let older = KnownRows(context: known.context, key: Self.key, validRows: Self.rows.indices.map { index in
            known.validRows[index] == KnownRows.none ? KnownRows.none : Self.fingerprintBefore(Self.rows[index])
        })
        #expect(!older.validRows.contains { $0 != KnownRows.none && before.fingerprints.values.contains($0) })
        #expect(try Self.sheet(known: older).keptRows == 0)
        #expect(try Self.sheet(known: known).keptRows == 3)
    }

    /// A row's fingerprint as versions up to 6c9e4bd made it: the SHA-256 of the number of cells and
    /// each cell prefixed by its length, each number eight bytes little-endian.
    static func fingerprintBefore(_ cells: [String]) -> Digest128 {
        var bytes: [UInt8] = []
        func add(_ number: Int) { withUnsafeBytes(of: UInt64(number).littleEndian) { bytes.append(contentsOf: $0) } }
        add(cells.count)
        for cell in cells {
            add(cell.utf8.count)
            bytes.append(contentsOf: cell.utf8)
        }
        return bytes.withUnsafeBytes { Digest128(sha256Of: $0) }
    }
}
