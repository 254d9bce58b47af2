import Foundation
import Testing

@testable import OrderPress

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
        let amount = GroupAmount.read(text, column: "discount", row: 3, warnings: &warnings)
        #expect(amount == Decimal(string: value)!)
        #expect(warnings.map(\.message) == (warning.map { [$0] } ?? []))
    }

    @Test func aPercentageHasItsOwnCodeAndTheSiteSaysItInItsLanguage() throws {
        var warnings: [DataWarning] = []
        _ = GroupAmount.read("10%", column: "折扣", row: 2, warnings: &warnings)
        let reason = try #require(warnings.first?.reason)
        #expect(reason.code == .groupAmountPercent)
        #expect(reason.values == ["row": "2", "column": "折扣", "value": "10%"])
        #expect(Labels(language: "zh-Hant").text(reason.code.labelKey, reason.values)
            == "團購第 2 列：折扣「10%」是百分比，以 0 計算；請寫成要折抵的金額（團購的幣別）")
    }
}
