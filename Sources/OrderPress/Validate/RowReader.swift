/// Looks up the mapped cells of a row by column index, computed once per table.
struct RowReader {
    let cells: CellReader
    let columns: Configuration.OrderColumns
    let secret: Set<String>
    let displayColumns: [String]

    init(table: SourceTable, columns: Configuration.OrderColumns) {
        cells = CellReader(table)
        let index = cells.index
        self.columns = columns
        secret = Set(columns.secret)
        var seen = Set<String>()
        displayColumns = columns.mapped.filter { index[$0] != nil && seen.insert($0).inserted }
    }

    func text(_ row: SourceTable.Row, _ column: String) -> String { cells.text(row, column) }

    func shownValues(_ row: SourceTable.Row) -> [RejectedRow.Cell] {
        displayColumns.map { column in
            let value = text(row, column)
            return .init(column: column, value: secret.contains(column) && !value.isEmpty ? SecretMask.text : value)
        }
    }
}
