import OrderPressFetch
import OrderPressSupport

/// Rows a sheet has but nobody filled in: every mapped cell empty, or holding only an unticked checkbox
/// (`FALSE`), as Insert › Checkbox leaves on every unused row of its range. They are not orders and not
/// rejected rows: they are left out before validation and only counted ("N blank rows skipped").
///
/// Only mapped cells count: a column the configuration does not name is not read at all. A Form's
/// timestamp, when mapped (to `time`), counts like any cell: a Form row always has one, so a Form row is
/// never blank — a submission with every answer empty is a rejected row that names its missing fields,
/// not a row that silently vanishes.
enum BlankRows {
    /// `table` without its blank rows (the same table when it has none), and how many there were.
    /// `columns`: the mapped column names. Cheap for a filled row: its first non-empty cell ends the look.
    static func skipping(_ table: SourceTable, columns: [String]) -> (table: SourceTable, skipped: Int) {
        let index = table.columnIndex()
        var seen = Set<Int>()
        let positions = columns.compactMap { index[$0] }.filter { seen.insert($0).inserted }
        guard !positions.isEmpty else { return (table, 0) }
        let width = table.headers.count
        var blank: [Bool]? = nil
        var skipped = 0
        table.withCells { cells in
            for row in 0..<table.dataRowCount where positions.allSatisfy({ isBlank(cells[row * width + $0]) }) {
                if blank == nil { blank = [Bool](repeating: false, count: table.dataRowCount) }
                blank![row] = true
                skipped += 1
            }
        }
        guard let blank else { return (table, 0) }
        var cells = CellStore()
        var numbers: [Int] = []
        cells.reserveCapacity(cells: (table.dataRowCount - skipped) * width, bytes: table.store.bytes.count)
        numbers.reserveCapacity(table.dataRowCount - skipped)
        for row in 0..<table.dataRowCount where !blank[row] {
            cells.append(table.store, cells: (row * width)..<((row + 1) * width))
            numbers.append(table.numbers[row])
        }
        return (SourceTable(name: table.name, headers: table.headers, store: cells, numbers: numbers, malformed: table.malformed), skipped)
    }

    /// An empty cell (after normalisation: spaces and invisible characters are nothing), or an unticked checkbox.
    static func isBlank(_ cell: String) -> Bool {
        var cell = cell
        return cell.withUTF8(isBlank)
    }

    /// `isBlank` of a cell's bytes.
    static func isBlank(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        // A filled cell usually starts with a letter, a digit or a CJK ideograph: no normalising needed to
        // say so. Only an `f` (FALSE), a space or an invisible character may start a blank one.
        guard let first = cell.first else { return true }
        let folded = first | 0x20
        let letterOrDigit = (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z"))
        if letterOrDigit, folded != UInt8(ascii: "f") { return false }
        if first >= 0xE4, first <= 0xE9 { return false }  // U+4000–U+9FFF
        let text = Text.normalize(String(decoding: cell, as: UTF8.self))
        return text.isEmpty || text.lowercased() == "false"
    }
}
