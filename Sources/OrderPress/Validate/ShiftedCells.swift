import Foundation

/// Finds CSV rows whose cells sit one column off: two breaks that cancel out (a stray comma and a
/// truncated line, or an unquoted line break and a stray comma) leave a row with the header's number of
/// fields whose cells are shifted, so that an edit code lands in a shown column (`note`, `group`), and the
/// Attention page shows it with the row's values or a warning quotes it. Nothing in the bytes tells such
/// a row from a real one; the typed columns do: its price, quantity, currency, time or paid cell fails,
/// and read one column over, every one of them reads.
///
/// Only rows that are rejected or warned about are looked at (a few, so no cost on a clean sheet), and
/// only in CSV (a JSON row names each cell's column). A row found shifted is treated as one whose
/// fields do not fit the header: rejected with none of its values shown, published or stored.
struct ShiftedCells {
    /// A column whose cells have a type to check.
    enum Kind {
        case price, quantity, currency, time, paid
    }

    /// The typed columns the sheet has, by position among its cells, in sheet order.
    private let typed: [(column: Int, kind: Kind)]
    private let width: Int
    private let headers: [String]
    private let isKnownCurrency: (String) -> Bool
    private var offsets: ZoneOffsets

    init(table: SourceTable, columns: Configuration.OrderColumns, timeZone: TimeZone, isKnownCurrency: @escaping (String) -> Bool) {
        let index = table.columnIndex()
        let kinds: [(String, Kind)] = [
            (columns.price, .price), (columns.quantity, .quantity), (columns.currency, .currency), (columns.time, .time), (columns.paid, .paid),
        ]
        // A secret column is never read for its type: its text is never looked at but to hash it.
        let secret = Set(columns.secret)
        typed = kinds.compactMap { name, kind in secret.contains(name) ? nil : index[name].map { ($0, kind) } }.sorted { $0.column < $1.column }
        width = table.headers.count
        headers = table.headers
        self.isKnownCurrency = isKnownCurrency
        offsets = ZoneOffsets(timeZone)
    }

    /// Whether `text` reads as a cell of `kind`.
    private mutating func reads(_ text: String, as kind: Kind) -> Bool {
        switch kind {
        case .price: if case .success = PriceText.parse(text) { return true } else { return false }
        case .quantity: return QuantityText.parse(text) != nil
        case .currency: return text.isEmpty || isKnownCurrency(text.uppercased())
        case .time: return text.isEmpty || Timestamp.parse(text, offsets: &offsets) != nil
        case .paid:
            let folded = text.lowercased()
            return PaidText.paid.contains(folded) || PaidText.unpaid.contains(folded)
        }
    }

    /// The reason to reject data row `row` (0-based) of `table` as shifted, naming the column where the
    /// shift begins; nil when its cells read best where they are.
    ///
    /// A shift by one from column `p` on reads each typed column `j ≥ p` from cell `j + 1` (a stray comma
    /// before it) or `j - 1` (one missing), a cell beyond the row reading as empty (a truncated line). The
    /// row is shifted when some such reading makes every typed column read while at least one of them that
    /// does not read where it is reads, from a cell that is not empty, one column over.
    mutating func reason(row: Int, in table: SourceTable) -> String? {
        guard !typed.isEmpty else { return nil }
        var cells: [String] = []
        cells.reserveCapacity(width)
        for column in 0..<width { cells.append(Text.normalize(table.cell(row, column))) }
        let readsInPlace = typed.map { reads(cells[$0.column], as: $0.kind) }
        guard readsInPlace.contains(false) else { return nil }
        for step in [1, -1] {
            for (first, entry) in typed.enumerated() {
                var fixed = false
                var all = true
                for (index, (column, kind)) in typed.enumerated() {
                    guard index >= first else {
                        if !readsInPlace[index] { all = false }
                        continue
                    }
                    let source = column + step
                    let text = source >= 0 && source < width ? cells[source] : ""
                    guard reads(text, as: kind) else {
                        all = false
                        break
                    }
                    if !readsInPlace[index], !text.isEmpty { fixed = true }
                }
                guard all, fixed else { continue }
                return "its cells look shifted by one column from column '\(headers[entry.column])' on, or earlier (a comma \(step == 1 ? "too many" : "missing") before it, or a line broken or cut short); none of its cells is shown; fix the row in the sheet"
            }
        }
        return nil
    }
}
