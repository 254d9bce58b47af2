import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressCatalogue
@testable import OrderPressValidate
import OrderPressTestSupport

/// A group's fee or discount cell: a plain amount, or a warning that says what to write and counts as 0.
@Suite struct GroupAmountTests {
    @Test(arguments: [
        ("", "0", nil),
        ("60", "60", nil),
        ("1,200.50", "1200.5", nil),
        ("３０", "30", nil),
        ("x", "0", "groups row 3: discount 'x' is not a number and counts as 0"),
        ("-5", "0", "groups row 3: discount '-5' must not be negative and counts as 0"),
        ("$5.00", "0", "groups row 3: discount '$5.00' is not a plain number (write 5.00) and counts as 0"),
        // A percentage is not "write 10": that would take 10 of the currency off, not a tenth.
        ("10%", "0", "groups row 3: discount '10%' is a percentage and counts as 0; write the amount it takes off, in the group's currency"),
        ("１０％", "0", "groups row 3: discount '１０％' is a percentage and counts as 0; write the amount it takes off, in the group's currency"),
        ("12.5 %", "0", "groups row 3: discount '12.5 %' is a percentage and counts as 0; write the amount it takes off, in the group's currency"),
    ] as [(String, String, String?)])
    func aCellIsAnAmountOrAWarningThatSaysWhatToWrite(text: String, value: String, warning: String?) {
        var warnings: [DataWarning] = []
        let amount = GroupAmount.read(text, column: "discount", row: 3, fromSheetAPI: false, warnings: &warnings).value
        #expect(amount == Decimal(string: value)!)
        #expect(warnings.map(\.message) == (warning.map { [$0] } ?? []))
    }

    /// Read from a SheetDB-style URL, a cell in the sheet's own currency format is fixed for the whole
    /// column by reading the groups tab unformatted, as a price is; what someone typed (`NT$30`, `35元`)
    /// only by writing the number, whatever the source.
    @Test(arguments: [
        ("$5.00", true, Optional(ReasonCode.groupAmountSheetFormat),
         "groups row 3: fee '$5.00' is formatted as currency by the sheet and counts as 0; read the groups sheet with mode=UNFORMATTED_VALUE or cast_numbers=fee, or write 5.00"),
        ("NT$1,200.00", true, .groupAmountSheetFormat,
         "groups row 3: fee 'NT$1,200.00' is formatted as currency by the sheet and counts as 0; read the groups sheet with mode=UNFORMATTED_VALUE or cast_numbers=fee, or write 1,200.00"),
        ("$5.00", false, .groupAmountFormatted, "groups row 3: fee '$5.00' is not a plain number (write 5.00) and counts as 0"),
        ("NT$30", true, .groupAmountFormatted, "groups row 3: fee 'NT$30' is not a plain number (write 30) and counts as 0"),
        ("35元", true, .groupAmountFormatted, "groups row 3: fee '35元' is not a plain number (write 35) and counts as 0"),
        ("10%", true, .groupAmountPercent,
         "groups row 3: fee '10%' is a percentage and counts as 0; write the amount it takes off, in the group's currency"),
        ("60", true, nil, nil),
    ] as [(String, Bool, ReasonCode?, String?)])
    func aSheetFormattedAmountFromTheSheetAPINamesTheModeThatFixesIt(text: String, fromSheetAPI: Bool, code: ReasonCode?, warning: String?) {
        var warnings: [DataWarning] = []
        _ = GroupAmount.read(text, column: "fee", row: 3, fromSheetAPI: fromSheetAPI, warnings: &warnings)
        #expect(warnings.map(\.message) == (warning.map { [$0] } ?? []))
        #expect(warnings.map { $0.reason?.code } == (code.map { [$0] } ?? []))
    }

    /// The hint in every language, naming the column and the number to write: from a SheetDB-style URL,
    /// reading the sheet unformatted; from a file (or for what someone typed), writing the number — in
    /// every language too, not only in English.
    @Test(arguments: [
        (true, "zh-Hant", "團購第 2 列：運費「NT$30.00」被試算表設成貨幣格式，以 0 計算；請以 mode=UNFORMATTED_VALUE 或 cast_numbers=運費 讀取團購表，或改寫為 30.00"),
        (true, "zh-Hans", "团购第 2 行：運費“NT$30.00”被表格设成货币格式，按 0 计算；请用 mode=UNFORMATTED_VALUE 或 cast_numbers=運費 读取团购表，或改写为 30.00"),
        (true, "ja", "グループ 2 行目：運費「NT$30.00」はシートで通貨形式になっているため 0 として扱います。mode=UNFORMATTED_VALUE か cast_numbers=運費 でグループシートを読むか、30.00 と書いてください"),
        (false, "zh-Hant", "團購第 2 列：運費「NT$30.00」不是單純的數字（請寫 30.00），以 0 計算"),
        (false, "zh-Hans", "团购第 2 行：運費“NT$30.00”不是单纯的数字（请写 30.00），按 0 计算"),
        (false, "ja", "グループ 2 行目：運費「NT$30.00」は数字だけではないため 0 として扱います（30.00 と書いてください）"),
        (false, "en", "groups row 2: 運費 'NT$30.00' is not a plain number (write 30.00) and counts as 0"),
    ])
    func theHintIsSaidInTheSiteLanguage(fromSheetAPI: Bool, language: String, shown: String) throws {
        var warnings: [DataWarning] = []
        _ = GroupAmount.read("NT$30.00", column: "運費", row: 2, fromSheetAPI: fromSheetAPI, warnings: &warnings)
        let reason = try #require(warnings.first?.reason)
        #expect(reason.code == (fromSheetAPI ? .groupAmountSheetFormat : .groupAmountFormatted))
        #expect(reason.values == ["row": "2", "column": "運費", "value": "NT$30.00", "number": "30.00"])
        #expect(Labels(language: language).text(reason.code.labelKey, reason.values) == shown)
    }

    @Test func aPercentageHasItsOwnCodeAndTheSiteSaysItInItsLanguage() throws {
        var warnings: [DataWarning] = []
        _ = GroupAmount.read("10%", column: "折扣", row: 2, fromSheetAPI: false, warnings: &warnings)
        let reason = try #require(warnings.first?.reason)
        #expect(reason.code == .groupAmountPercent)
        #expect(reason.values == ["row": "2", "column": "折扣", "value": "10%"])
        #expect(Labels(language: "zh-Hant").text(reason.code.labelKey, reason.values)
            == "團購第 2 列：折扣「10%」是百分比，以 0 計算；請寫成要折抵的金額（團購的幣別）")
    }
}
