/// Reads a cell of the optional `paid` column as people actually fill it in.
enum PaidText {
    /// Compared case-insensitively after normalisation, so "Yes" and "TRUE" count too.
    static let paid: Set<String> = ["true", "yes", "y", "1", "✓", "已付", "paid"]
    static let unpaid: Set<String> = ["", "false", "no", "n", "0", "未付"]

    /// Whether `text` (the normalised cell of `column` in sheet row `row`) says paid; a value OrderPress
    /// does not recognise counts as not paid, with a warning, so that nobody is marked settled by a typo.
    static func read(_ text: String, column: String, row: Int, warnings: inout [DataWarning]) -> Bool {
        if text.isEmpty { return false }
        let folded = text.lowercased()
        if paid.contains(folded) { return true }
        if !unpaid.contains(folded) {
            warnings.append(
                .init(row: row, message: "\(column) '\(text)' is neither paid nor unpaid and counts as not paid; write yes or no"))
        }
        return false
    }
}
