import OrderPressFetch
import OrderPressSupport

/// Reads a sheet's cells by column name, normalised; the column positions are looked up once per table.
struct CellReader {
    let index: [String: Int]

    init(_ table: SourceTable) {
        index = table.columnIndex()
    }

    /// The normalised text of `column` in data row `row` of `table`; "" when the sheet has no such column.
    package func text(_ table: SourceTable, _ row: Int, _ column: String) -> String {
        guard let position = index[column] else { return "" }
        return Text.normalize(table.cell(row, position))
    }
}
