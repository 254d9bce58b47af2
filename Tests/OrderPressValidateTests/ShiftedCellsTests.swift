import Foundation
import Testing

@testable import OrderPressValidate
import OrderPressTestSupport

/// CSV rows whose cells sit one column off are rejected without their values; a row that is merely
/// wrong (a typo in its price, an unreadable paid cell) keeps them, and so does every JSON row.
@Suite struct ShiftedCellsTests {
    static let headers = ["id", "group", "orderer", "drink", "quantity", "price", "currency", "time", "note", "paid", "editCode", "phone"]

    static func validate(_ rows: [[String]], csv: Bool = true) throws -> ValidatedData {
        try sheet(rows, csv: csv).data
    }

    /// `validate`, with the rows as the diff compares them and the secret cells.
    static func sheet(_ rows: [[String]], csv: Bool = true) throws -> ValidatedSheet {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML + "\n[orders.columns]\nperson = \"orderer\"")
        var table = TestSupport.table(Self.headers, rows)
        table.fromCSV = csv
        return try Validator(configuration: configuration).validateSheet(orders: table, groups: nil)
    }

    static let good = ["1", "G", "Amy", "tea", "1", "35", "", "2026-11-21 10:00", "", "TRUE", "SECRET1", "0900"]

    @Test(arguments: [
        // A stray comma in the drink, the phone cut off: the edit code lands in `phone`, the paid cell in `editCode`.
        (["2", "G", "Ben", "tea", "large", "1", "35", "", "2026-11-21 10:00", "", "TRUE", "SECRET2"], "quantity"),
        // A cell missing before the price (a line broken, then a stray comma): the edit code lands in `paid`.
        (["3", "G", "Cy", "tea", "35", "", "2026-11-21 10:00", "", "TRUE", "SECRET3", "", "0900"], "price"),
        // The edit code in `note`, the paid cell in `time`.
        (["4", "G", "Di", "tea", "1", "35", "", "", "TRUE", "SECRET4", "0900", ""], "time"),
    ])
    func aShiftedRowIsRejectedWithoutItsValues(_ row: [String], column: String) throws {
        let sheet = try Self.sheet([Self.good, row])
        let data = sheet.data
        #expect(data.orders.map(\.person) == ["Amy"])
        #expect(data.rejected.count == 1)
        #expect(data.rejected.first?.values == [])
        #expect(data.rejected.first?.reasons.first?.hasPrefix("its cells look shifted by one column from column '\(column)'") == true)
        #expect(sheet.rows.count == 1)
        #expect(data.malformedRows == 1)
        #expect(!data.warnings.contains { $0.message.contains("SECRET") })
        #expect(data.groups.map(\.name) == ["G"])
    }

    @Test(arguments: [
        ["5", "G", "Ed", "tea", "1", "abc", "", "", "", "", "S5", ""],
        ["6", "G", "Flo", "tea", "1", "35", "", "", "", "maybe", "S6", ""],
        ["7", "G", "", "tea", "1", "35", "", "", "", "", "S7", ""],
    ])
    func aWrongRowKeepsItsValues(_ row: [String]) throws {
        let sheet = try Self.sheet([Self.good, row])
        let data = sheet.data
        #expect(data.malformedRows == 0)
        #expect(sheet.rows.count == 2)
        #expect(data.rejected.allSatisfy { !$0.values.isEmpty })
    }

    /// A Google Form's columns: the quantity just before the price, a free-text note and the paid checkbox
    /// after it, no secret. Read one column over, a mistyped price's row would read (the quantity's `1` as
    /// the price, the empty note as `paid`): a price typed with its currency, in words or with a stray
    /// separator is still a typo, and a row with its values; a code is still a shift. (A sign of the row's own
    /// currency, `35 元` in TWD, is read: these name another.)
    @Test(arguments: [
        ("35 円", false), ("US$ 35", false), ("€35", false), ("JPY 35", false), ("35元/杯", false), ("－35", false), ("三十五", false),
        ("問店家", false), ("1,2", false), ("?", false), ("Zx9kQ7wP", true), ("2026/11/21", true),
    ])
    func aFormsMistypedPriceIsNotAShift(price: String, shifted: Bool) throws {
        let headers = ["時間戳記", "姓名", "團購", "飲料", "甜度", "杯數", "單價", "備註", "已付款"]
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML + """

            [orders.columns]
            time = "時間戳記"
            person = "姓名"
            group = "團購"
            item = "飲料"
            options = ["甜度"]
            quantity = "杯數"
            price = "單價"
            note = "備註"
            paid = "已付款"
            secret = []
            """)
        let rows = [
            ["2026/11/21 下午 3:15:00", "Amy", "G", "tea", "半糖", "1", "35", "", "TRUE"],
            ["2026/11/21 下午 3:16:00", "Ben", "G", "tea", "半糖", "1", price, "", "FALSE"],
        ]
        var table = TestSupport.table(headers, rows)
        table.fromCSV = true
        let data = try Validator(configuration: configuration).validate(orders: table, groups: nil)
        #expect(data.orders.map(\.person) == ["Amy"])
        #expect(data.malformedRows == (shifted ? 1 : 0))
        #expect(data.rejected.first?.values.isEmpty == shifted)
        #expect(data.rejected.first?.person == (shifted ? "" : "Ben"))
    }

    @Test func aJSONRowIsNeverTakenForShifted() throws {
        let sheet = try Self.sheet([Self.good, ["3", "G", "Cy", "tea", "35", "", "2026-11-21 10:00", "", "TRUE", "SECRET3", "", "0900"]], csv: false)
        let data = sheet.data
        #expect(data.malformedRows == 0)
        #expect(sheet.rows.count == 2)
    }
}

/// A row whose cells moved so that only `paid` fails, holding the edit code of the column beside it: its
/// shape (length, kinds of characters) is the edit codes' in the other rows, and no paid cell's.
@Suite struct SecretShapedCellTests {
    static func rows(_ damaged: [String]) -> [[String]] {
        (1...6).map { ["\($0)", "G", "P\($0)", "tea", "1", "35", "", "", "", $0 % 2 == 0 ? "TRUE" : "", "Ab3dE\($0)gH", "0912-345-67\($0)"] } + [damaged]
    }

    @Test func aCodeShapedCellBesideTheSecretColumnHidesTheRow() throws {
        // The paid cell lost: the edit code in `paid`, the phone in `editCode`.
        let data = try ShiftedCellsTests.validate(Self.rows(["7", "G", "Gil", "tea", "1", "35", "", "", "", "Zx9kQ7wP", "0912-345-000", ""]))
        #expect(data.orders.count == 6)
        #expect(data.rejected.map(\.values) == [[]])
        #expect(data.rejected.first?.reasons == ["its 'paid' cell is shaped like the 'editCode' cells beside it, as if the row's cells were shifted by one column; none of its cells is shown; fix the row in the sheet"])
        #expect(!data.warnings.contains { $0.message.contains("Zx9kQ7wP") })
    }

    @Test(arguments: ["maybe", "not yet!", "yes please"])
    func aPaidTypoKeepsItsRow(_ paid: String) throws {
        let sheet = try ShiftedCellsTests.sheet(Self.rows(["7", "G", "Gil", "tea", "1", "35", "", "", "", paid, "Qw3eR7tY", "0912-345-000"]))
        let data = sheet.data
        #expect(data.orders.count == 7)
        #expect(data.warnings.contains { $0.message.contains(paid) })
    }
}

/// Generated rows among twelve clean ones (the sample's column order, fixed-length edit codes): a row with
/// one cell lost or one too many, padded or cut back to the header's width, never shows its edit code in
/// a value, a reason, a warning, an order, a group or the diff's values; a row with one typo in a typed
/// cell is never taken for shifted.
@Suite struct ShiftedRowPropertyTests {
    static let headers = ["id", "group", "orderer", "drink", "size", "sugar", "ice", "quantity", "price", "currency", "time", "note", "paid", "editCode", "phone"]
    static let clean: [[String]] = (0..<12).map { index in
        ["c\(index)", "週五下午茶", "P\(index)", "紅茶", "L", "", "", "1", "35", "", "2026-11-21 09:15", "", index % 2 == 0 ? "TRUE" : "", "CODE\(1000 + index)x", "0900-\(1000 + index)"]
    }

    static func row(_ number: Int, using rng: inout some RandomNumberGenerator) -> [String] {
        func pick(_ values: [String]) -> String { values.randomElement(using: &rng)! }
        return [
            "\(number)", pick(["週五下午茶", "Lunch"]), pick(["Amy", "Ben", "王小明"]), pick(["紅茶", "綠茶"]), pick(["L", "M", ""]), pick(["半糖", ""]),
            pick(["少冰", ""]), pick(["1", "2", ""]), pick(["35", "55", "1200"]), pick(["", "", "TWD"]), pick(["2026-11-21 09:15", ""]),
            pick(["", "no straw", "less ice"]), pick(["TRUE", "", "FALSE"]), "CODE\(2000 + number)x", "0900-\(2000 + number)",
        ]
    }

    static func shown(_ sheet: ValidatedSheet) -> [String] {
        let data = sheet.data
        var shown: [String] = data.rejected.flatMap { $0.values.map(\.value) + $0.reasons }
        shown += data.warnings.map(\.message)
        for order in data.orders { shown += [order.group, order.person, order.item, order.note, order.id ?? "", order.timeText] + order.options }
        shown += data.groups.map(\.name)
        for row in sheet.rows { shown += row.validatedRow?.values ?? [] }
        return shown
    }

    @Test func aRowOneCellOffNeverShowsItsEditCode() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML + "\n[orders.columns]\nperson = \"orderer\"")
        var rng = SplitMix64(seed: 22)
        for number in 0..<600 {
            var row = Self.row(number, using: &rng)
            let position = Int.random(in: 0..<Self.headers.count, using: &rng)
            if number % 2 == 0 {
                row.insert("", at: position)
                row.removeLast()
            } else {
                row.remove(at: position)
                row.append("")
            }
            var table = TestSupport.table(Self.headers, Self.clean + [row])
            table.fromCSV = true
            let sheet = try Validator(configuration: configuration).validateSheet(orders: table, groups: nil)
            #expect(!Self.shown(sheet).contains { $0.contains("CODE\(2000 + number)x") }, "\(row)")
        }
    }

    @Test func aTypoInATypedCellIsNotTakenForAShift() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML + "\n[orders.columns]\nperson = \"orderer\"")
        var rng = SplitMix64(seed: 23)
        let typos: [(Int, [String])] = [
            (8, ["abc", "35元", "-5", ""]), (12, ["maybe", "not yet!", "yes please", "paid 50"]), (10, ["soon", "tomorrow 3pm", "11/32/2026"]),
            (7, ["0", "two", "1.5"]), (9, ["XXX", "NTD", "dollars"]),
        ]
        for number in 0..<600 {
            var row = Self.row(number, using: &rng)
            let (column, values) = typos.randomElement(using: &rng)!
            row[column] = values.randomElement(using: &rng)!
            var table = TestSupport.table(Self.headers, Self.clean + [row])
            table.fromCSV = true
            let data = try Validator(configuration: configuration).validate(orders: table, groups: nil)
            #expect(data.malformedRows == 0, "\(row)")
        }
    }
}
