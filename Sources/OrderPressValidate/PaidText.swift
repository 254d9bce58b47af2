import OrderPressCatalogue
import OrderPressSupport

/// Reads a cell of the optional `paid` column as people actually fill it in: a checkbox (`TRUE`/`FALSE`,
/// or a JSON boolean with `mode=UNFORMATTED_VALUE`), a Form's yes/no answer in its language, a tick.
package enum PaidText {
    /// Compared case-insensitively after normalisation (and NFKC, for a full-width `ＹＥＳ`), so "Yes" and "TRUE" count too.
    static let paid: Set<String> = Set([
        "true", "yes", "y", "1", "✓", "✔", "☑", "✅", "v", "〇", "○", "已付", "已付款", "已繳", "已繳費", "paid", "是", "はい", "済",
        "済み", "支払済", "支払済み", "支払い済み",
    ]).union(labels(["paid", "paid_yes"]))
    static let unpaid: Set<String> = Set(["", "false", "no", "n", "0", "未付", "未付款", "未繳", "unpaid", "否", "いいえ", "☐", "未", "未払い", "未払"])
        .union(labels(["paid_no", "owes"]))

    /// What every built-in catalogue calls paid or unpaid (`支払済み`, `未払い`…): a site's own words
    /// always read as what they say, in whichever language the sheet's people use.
    private static func labels(_ keys: Set<String>) -> [String] {
        (LabelCatalogue.rows + ReasonCatalogue.rows).filter { keys.contains($0.key) }.flatMap { [$0.en, $0.zhHant, $0.zhHans, $0.ja] }.map { $0.lowercased() }
    }

    /// Whether `text` (the normalised cell of `column` in sheet row `row`) says paid; a value OrderPress
    /// does not recognise counts as not paid, with a warning, so that nobody is marked settled by a typo.
    package static func read(_ text: String, column: String, row: Int, warnings: inout [DataWarning]) -> Bool {
        if text.isEmpty { return false }
        // A Sheets checkbox, the usual cell: told before lowercasing and two set look-ups, on
        // every row. The same answers as below: "true" is paid, "false" unpaid.
        if text.utf8.count == 4, text == "TRUE" { return true }
        if text.utf8.count == 5, text == "FALSE" { return false }
        var folded = text.lowercased()
        if paid.contains(folded) { return true }
        if unpaid.contains(folded) { return false }
        folded = NumericText.folded(folded).lowercased()
        if paid.contains(folded) { return true }
        if !unpaid.contains(folded) {
            warnings.append(
                .init(
                    row: row,
                    Reason(
                        .paidUnreadable, ["column": column, "value": text])))
        }
        return false
    }
}
