/// Reads a sheet's cells by column name, normalised; the column positions are looked up once per table.
struct CellReader {
    let index: [String: Int]

    init(_ table: SourceTable) {
        index = table.columnIndex()
    }

    /// The normalised text of `column` in `row`; "" when the sheet has no such column.
    func text(_ row: SourceTable.Row, _ column: String) -> String {
        guard let position = index[column], position < row.cells.count else { return "" }
        return Text.normalize(row.cells[position])
    }
}
