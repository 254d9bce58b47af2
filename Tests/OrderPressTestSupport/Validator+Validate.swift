@testable import OrderPressSupport
@testable import OrderPressFetch
@testable import OrderPressValidate

extension Validator {
    /// The validate step's site data (`validateSheet(orders:groups:).data`, what the pipeline hands on).
    package func validate(orders: SourceTable, groups: SourceTable?) throws(DataError) -> ValidatedData {
        try validateSheet(orders: orders, groups: groups).data
    }

    /// The secret cells of the rows the validate step reads, read on their own: the reference the
    /// single pass of `validateSheet` is held to.
    package func secretCells(of sheet: SourceTable) -> SecretCells {
        let orders = BlankRows.skipping(sheet, columns: configuration.orderColumns.mapped).table
        let reader = RowReader(table: orders, columns: configuration.orderColumns)
        let columns = reader.displayColumns.filter { reader.secret.contains($0) }
        return SecretCells(columns: columns, rows: (0..<orders.dataRowCount).map { reader.read(orders, row: $0).secrets })
    }
}
