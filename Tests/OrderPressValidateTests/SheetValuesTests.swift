import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch
@testable import OrderPressValidate
import OrderPressTestSupport

/// Cells as people fill a sheet or a Form: full-width digits, yes/no answers in their language,
/// checkboxes, blank rows, 12-hour times and serials, and hints that fit the source and the value.
@Suite struct SheetValuesTests {
    static let headers = ["group", "orderer", "drink", "quantity", "price", "time", "paid"]

    static func validate(_ rows: [[String]], toml: String = TestSupport.minimalTOML, groups: SourceTable? = nil) throws -> ValidatedData {
        try sheet(rows, toml: toml, groups: groups).data
    }

    /// `validate`, with the rows as the diff compares them and the secret cells.
    static func sheet(_ rows: [[String]], toml: String = TestSupport.minimalTOML, groups: SourceTable? = nil) throws -> ValidatedSheet {
        let configuration = try TestSupport.configuration("timezone = \"Asia/Taipei\"\n" + toml)
        return try Validator(configuration: configuration).validateSheet(orders: TestSupport.table(headers, rows), groups: groups)
    }

    static func row(quantity: String = "1", price: String = "35", time: String = "", paid: String = "") -> [String] {
        ["Tea", "Amy", "紅茶", quantity, price, time, paid]
    }

    @Test(arguments: [("３５", "35"), ("１，２００", "1200"), ("１２．５", "12.5"), ("３５.５０", "35.5"), ("1,200", "1200")])
    func fullWidthPricesRead(price: String, value: String) throws {
        let data = try Self.validate([Self.row(price: price)])
        #expect(data.rejected == [])
        #expect(data.orders.map(\.unitPrice) == [Decimal(string: value)!])
    }

    @Test(arguments: [("２", 2), ("１０", 10), ("１，０００", 1000)])
    func fullWidthQuantitiesRead(quantity: String, value: Int) throws {
        let data = try Self.validate([Self.row(quantity: quantity)])
        #expect(data.rejected == [])
        #expect(data.orders.map(\.quantity) == [value])
    }

    /// NFKC folds width, not other scripts' digits or fractions: these stay rejected.
    @Test(arguments: ["١٢", "½", "３５杯"])
    func otherNumeralsAreStillRejected(price: String) throws {
        let data = try Self.validate([Self.row(price: price)])
        #expect(data.orders == [])
        #expect(data.rejected.count == 1)
    }

    @Test(arguments: [
        "TRUE", "true", "True", "是", "はい", "✓", "✔", "☑", "V", "v", "已付", "已付款", "paid", "PAID", "yes", "Y", "1", "ＹＥＳ",
    ])
    func paidAnswers(value: String) throws {
        let data = try Self.validate([Self.row(paid: value)])
        #expect(data.orders.map(\.paid) == [true])
        #expect(data.warnings == [])
    }

    @Test(arguments: ["FALSE", "false", "否", "いいえ", "未付", "未付款", "unpaid", "Unpaid", "no", "N", "0", ""])
    func unpaidAnswers(value: String) throws {
        let data = try Self.validate([Self.row(price: "35", paid: value)])
        #expect(data.orders.map(\.paid) == [false])
        #expect(data.warnings == [])
    }

    @Test(arguments: ["maybe", "2", "半", "X"])
    func otherPaidAnswersWarnNamingRowAndValue(value: String) throws {
        let data = try Self.validate([Self.row(), Self.row(paid: value)])
        #expect(data.orders.map(\.paid) == [false, false])
        #expect(data.warnings == [DataWarning(row: 3, message: "paid '\(value)' is neither paid nor unpaid and counts as not paid; write yes or no")])
    }

    // MARK: - Hints

    static func urlTOML(_ query: String = "") -> String {
        """
        base_currency = "TWD"
        [orders]
        url = "https://sheetdb.example/api/v1/abc?sheet=orders\(query)"
        """
    }

    @Test(arguments: [
        // Typed by a person: the hint is to write the number, whatever the source. (The row's own currency's
        // sign, `35元` or `NT$35` in TWD, is read: `LocaleValuesTests`.)
        ("35杯", false, "price '35杯' is not a plain number; write 35 (the currency belongs in the currency column or the group)"),
        ("35杯", true, "price '35杯' is not a plain number; write 35 (the currency belongs in the currency column or the group)"),
        ("３５杯", true, "price '３５杯' is not a plain number; write 35 (the currency belongs in the currency column or the group)"),
        ("M$ 35", true, "price 'M$ 35' is not a plain number; write 35 (the currency belongs in the currency column or the group)"),
        // The sheet's own currency format (a sign no currency here claims), read through SheetDB: UNFORMATTED_VALUE fixes it.
        ("M$1.23", true, "price 'M$1.23' is formatted as currency by the sheet; read the sheet with mode=UNFORMATTED_VALUE or cast_numbers=price, or write 1.23"),
        ("M$1,200.00", true, "price 'M$1,200.00' is formatted as currency by the sheet; read the sheet with mode=UNFORMATTED_VALUE or cast_numbers=price, or write 1,200.00"),
        // The same from a file, or from a URL already read with UNFORMATTED_VALUE (the text was typed): a mode cannot help.
        ("M$1.23", false, "price 'M$1.23' is not a plain number; write 1.23 (the currency belongs in the currency column or the group)"),
        ("M$1.23", nil, "price 'M$1.23' is not a plain number; write 1.23 (the currency belongs in the currency column or the group)"),
    ])
    func priceHintsFitTheSourceAndTheValue(price: String, fromURL: Bool?, reason: String) throws {
        let toml = fromURL.map { $0 ? Self.urlTOML() : TestSupport.minimalTOML } ?? Self.urlTOML("&mode=UNFORMATTED_VALUE")
        let data = try Self.validate([Self.row(price: price)], toml: toml)
        #expect(data.rejected.map(\.reasons) == [[reason]])
    }

    /// The groups tab's fee and discount follow their own source, by the price's rule (`Validator.readsSheetAPI`):
    /// a SheetDB-style URL without `mode=UNFORMATTED_VALUE` gets the mode's hint, a file or a URL that asks for
    /// the mode already (the `M$5.00` was typed as text) gets "write 5.00" — whatever the orders' source is.
    /// (A sign no currency here claims: the group's own, `$5.00` in TWD, is read.)
    @Test(arguments: [
        ("url = \"https://sheetdb.example/api/v1/abc?sheet=groups\"", ReasonCode.groupAmountSheetFormat,
         "groups row 2: fee 'M$5.00' is formatted as currency by the sheet and counts as 0; read the groups sheet with mode=UNFORMATTED_VALUE or cast_numbers=fee, or write 5.00"),
        ("url = \"https://sheetdb.example/api/v1/abc?sheet=groups&mode=unformatted_value\"", .groupAmountFormatted,
         "groups row 2: fee 'M$5.00' is not a plain number (write 5.00) and counts as 0"),
        ("path = \"groups.csv\"", .groupAmountFormatted, "groups row 2: fee 'M$5.00' is not a plain number (write 5.00) and counts as 0"),
    ])
    func feeHintsFitTheGroupsSource(source: String, code: ReasonCode, warning: String) throws {
        let groups = TestSupport.table(["group", "fee"], [["Tea", "M$5.00"]], name: "groups")
        // The orders from a file: the hint is the groups source's, not the orders'.
        let data = try Self.validate([Self.row()], toml: TestSupport.minimalTOML + "\n[groups]\n" + source + "\n", groups: groups)
        #expect(data.warnings.map(\.message) == [warning])
        #expect(data.warnings.map { $0.reason?.code } == [code])
        #expect(data.groups.map(\.fee) == [0])
    }

    // MARK: - Times and deadlines

    @Test func twelveHourTimesAndSerialsAreReadAndNeverShiftedSilently() throws {
        // Two cups on the second row: the same answers at the same time would be a response sent twice (`row_repeated`).
        let data = try Self.validate([
            Self.row(time: "2026/11/21 下午 3:15:00"), Self.row(quantity: "2", time: "46347.63541666667"), Self.row(time: "2026/11/21 晚上 8:00"),
            Self.row(time: "18"),
        ])
        #expect(data.orders.map { $0.time.map(Timestamp.iso8601) } == ["2026-11-21T07:15:00Z", "2026-11-21T07:15:00Z", nil, nil])
        #expect(data.orders.map(\.timeText) == ["2026/11/21 下午 3:15:00", "46347.63541666667", "2026/11/21 晚上 8:00", "18"])
        #expect(data.warnings == [
            DataWarning(row: 4, message: "time '2026/11/21 晚上 8:00' is not a date and time OrderPress reads and is shown as written (write it like 2026-11-21 09:15)"),
            DataWarning(row: 5, message: "time '18' is not a date and time OrderPress reads and is shown as written (write it like 2026-11-21 09:15)"),
        ])
    }

    @Test func anUnreadableDeadlineIsAWarningNamingRowAndValue() throws {
        let groups = TestSupport.table(
            ["group", "deadline"], [["Tea", "2026/11/21 下午 2:00:00"], ["Lunch", "下班前"], ["Soup", "46347.5"]], name: "groups")
        let data = try Self.validate([Self.row()], groups: groups)
        #expect(data.warnings == [
            DataWarning(row: nil, message: "groups row 3: deadline '下班前' is not a date and time OrderPress reads and is shown as written (write it like 2026-11-21 18:00)")
        ])
    }

    // MARK: - Blank rows

    @Test func blankAndCheckboxOnlyRowsAreNeitherOrdersNorRejected() throws {
        let sheet = try Self.sheet([
            Self.row(paid: "TRUE"),
            ["", "", "", "", "", "", "FALSE"],
            ["", "", "", "", "", "", ""],
            [" ", "\u{200B}", "", "", "", "", "false"],
            Self.row(price: "", paid: "FALSE"),
            ["", "", "", "", "", "", "FALSE"],
        ])
        let data = sheet.data
        #expect(data.orders.map(\.row) == [2])
        #expect(data.rejected.map(\.row) == [6])
        #expect(data.blankRows == 4)
        #expect(data.rowsRead == 2)
        #expect(sheet.rows.map(\.row) == [2, 6])
        #expect(data.warnings == [])
    }

    /// A cell of an unmapped column does not make a row an order; a mapped one does.
    @Test func onlyMappedCellsCount() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let table = TestSupport.table(["group", "orderer", "drink", "price", "paid", "電話"], [["", "", "", "", "FALSE", "0912"], ["", "Amy", "", "", "FALSE", ""]])
        let sheet = try Validator(configuration: configuration).validateSheet(orders: table, groups: nil)
        let data = sheet.data
        #expect(data.blankRows == 1)
        #expect(data.rejected.map(\.row) == [3])
        #expect(Validator(configuration: configuration).secretCells(of: table).rows.count == sheet.rows.count)
    }
}
