import OrderPressFetch
@testable import OrderPressValidate

extension RowReader {
    /// `read(_:row:repeated:)` of one row of `table`, with a table of repeated texts of its own.
    package func read(_ table: SourceTable, row: Int) -> (values: [String], secrets: [SecretValue]) {
        var repeated = RepeatedTexts(texts: 0)
        return table.withCells { read($0, row: row, repeated: &repeated) }
    }
}
