import OrderPressConfig
import OrderPressFetch
import OrderPressSupport

/// The mapped columns of the orders sheet, located once per table, so that each row's cells are read
/// and normalised once, in one pass, whatever reads them afterwards (the checks, the diff's values, the
/// secret cells, a rejected row's shown values).
struct RowReader {
    package let columns: Configuration.OrderColumns
    package let secret: Set<String>
    /// The mapped columns the sheet has, in configuration order, each once.
    let displayColumns: [String]
    /// Where each of `displayColumns` is among the non-secret values or among the secrets.
    private let places: [Place]
    /// The sheet columns of the non-secret values and of the secrets, in configuration order.
    private let valuePositions: [Int], secretPositions: [Int]
    private let slots: [String: Place]
    /// Cells per row in the table.
    private let width: Int

    package enum Place {
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
        width = table.headers.count
        valuePositions = displayColumns.filter { !secret.contains($0) }.map { index[$0]! }
        secretPositions = displayColumns.filter { secret.contains($0) }.map { index[$0]! }
        slots = Dictionary(zip(displayColumns, places), uniquingKeysWith: { first, _ in first })
    }

    /// Where `column` is among a row's values or secrets; nil when the sheet lacks it.
    package func place(_ column: String) -> Place? { slots[column] }

    /// The normalised text of every display column of data row `row` of the table whose cells `cells` are,
    /// as the non-secret values and the secrets, each in configuration order: the only place cells are
    /// read. Each array is made at its size at once, straight from the cells (a third array of all the
    /// row's texts, split afterwards, was made and freed for every row). The cells, not a `SourceTable`:
    /// one handed to each row was copied (five arrays retained, then released) for every one. Each text
    /// is made from the cell's bytes here, a long one that repeats (a group's name in each of its orders)
    /// made and normalised once (`repeated`).
    package func read(_ cells: CellStore.View, row: Int, repeated: inout RepeatedTexts) -> (values: [String], secrets: [SecretValue]) {
        let start = row * width
        func text(_ position: Int) -> String {
            let cell = cells[start + position]
            return cell.isEmpty ? "" : repeated.normalText(cell.baseAddress!, count: cell.count)
        }
        return (valuePositions.map { text($0) }, secretPositions.map { SecretValue(text($0)) })
    }

    /// What a rejected row shows: every display column, secrets masked.
    func shownValues(values: [String], secrets: [SecretValue]) -> [RejectedRow.Cell] {
        zip(displayColumns, places).map { column, place in
            switch place {
            // A time cell is shown as pages show times, never as a raw Sheets serial.
            case .value(let index) where column == columns.time:
                return .init(column: column, value: SheetSerial.shown(values[index]) ?? values[index])
            case .value(let index): return .init(column: column, value: values[index])
            case .secret(let index): return .init(column: column, value: secrets[index].text.isEmpty ? "" : SecretMask.text)
            }
        }
    }
}
