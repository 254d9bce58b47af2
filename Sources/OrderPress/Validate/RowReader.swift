/// The mapped columns of the orders sheet, located once per table, so that each row's cells are read
/// and normalised once, in one pass, whatever reads them afterwards (the checks, the diff's values, the
/// secret cells, a rejected row's shown values).
struct RowReader {
    let columns: Configuration.OrderColumns
    let secret: Set<String>
    /// The mapped columns the sheet has, in configuration order, each once.
    let displayColumns: [String]
    /// The sheet column of each of `displayColumns`.
    private let positions: [Int]
    /// Where each of `displayColumns` is among the non-secret values or among the secrets.
    private let places: [Place]
    /// Where the non-secret values and the secrets are among a row's `mapped` texts, in order.
    private let valueSlots: [Int], secretSlots: [Int]
    private let slots: [String: Int]

    enum Place {
        case value(Int), secret(Int)
    }

    init(table: SourceTable, columns: Configuration.OrderColumns) {
        let index = table.columnIndex()
        let secret = Set(columns.secret)
        var seen = Set<String>()
        let displayColumns = columns.mapped.filter { index[$0] != nil && seen.insert($0).inserted }
        var places: [Place] = []
        var values = 0
        var secrets = 0
        for column in displayColumns {
            if secret.contains(column) {
                places.append(.secret(secrets))
                secrets += 1
            } else {
                places.append(.value(values))
                values += 1
            }
        }
        self.columns = columns
        self.secret = secret
        self.displayColumns = displayColumns
        self.places = places
        positions = displayColumns.map { index[$0]! }
        valueSlots = displayColumns.indices.filter { !secret.contains(displayColumns[$0]) }
        secretSlots = displayColumns.indices.filter { secret.contains(displayColumns[$0]) }
        slots = Dictionary(displayColumns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Where `column` is in a row's `mapped` texts; nil when the sheet lacks it.
    func slot(_ column: String) -> Int? { slots[column] }

    /// The normalised text of every display column of data row `row`: the only place cells are read.
    func mapped(_ table: SourceTable, row: Int) -> [String] {
        // The cells read in place: a closure over `table` copied it (five arrays retained, then released) for every row.
        let start = row * table.headers.count
        return table.cells.withUnsafeBufferPointer { cells in positions.map { Text.normalize(cells[start + $0]) } }
    }

    /// The non-secret values and the secrets of a row's `mapped` texts, each in configuration order.
    func split(_ mapped: [String]) -> (values: [String], secrets: [SecretValue]) {
        // Each array made at its size at once: appending grew them, for every row.
        (valueSlots.map { mapped[$0] }, secretSlots.map { SecretValue(mapped[$0]) })
    }

    /// What a rejected row shows: every display column, secrets masked.
    func shownValues(values: [String], secrets: [SecretValue]) -> [RejectedRow.Cell] {
        zip(displayColumns, places).map { column, place in
            switch place {
            case .value(let index): return .init(column: column, value: values[index])
            case .secret(let index): return .init(column: column, value: secrets[index].text.isEmpty ? "" : SecretMask.text)
            }
        }
    }
}
