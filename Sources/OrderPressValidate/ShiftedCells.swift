import Foundation
import OrderPressConfig
import OrderPressFetch
import OrderPressSupport

/// Finds CSV rows whose cells sit one column off: two breaks that cancel out (a stray comma and a
/// truncated line, or an unquoted line break and a stray comma) leave a row with the header's number of
/// fields whose cells are shifted, so that an edit code lands in a shown column (`note`, `group`), and the
/// Attention page shows it with the row's values or a warning quotes it. Nothing in the bytes tells such
/// a row from a real one; the typed columns do: its price, quantity, currency, time or paid cell fails,
/// and read one column over, every one of them reads.
///
/// A shift can also leave every typed column but one reading, and that one (`paid`, say) holding the edit
/// code of the column beside it, which its warning would quote. So a cell beside a secret column that has
/// the shape of that column's cells in the other rows (`Shape`: length and kinds of characters) and none
/// of its own column's, and is six bytes long at least, is taken for a shifted secret too.
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
    /// The secret columns, each with the shown (mapped, not secret) columns beside it.
    private let secretNeighbours: [(secret: Int, neighbours: [Int])]
    /// The shapes of the cells of the secret columns and of their neighbours in the rows not suspected,
    /// made at the first row that needs them; and of each secret column, the kinds of characters its cells
    /// hold and their shortest and longest length (codes of 8 to 11 characters: one shape of each length).
    private var shapes: [Int: Set<Shape>]?
    private var secretKinds: [Int: (kinds: Set<UInt8>, lengths: ClosedRange<Int>)] = [:]

    /// The orders source's `decimal_separator`: a price is read as the row's own check reads it.
    private let separator: DecimalSeparator

    init(
        table: SourceTable, columns: Configuration.OrderColumns, timeZone: TimeZone, separator: DecimalSeparator = .point,
        isKnownCurrency: @escaping (String) -> Bool
    ) {
        self.separator = separator
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
        let shown = Set(columns.mapped.filter { !secret.contains($0) }.compactMap { index[$0] })
        secretNeighbours = columns.secret.compactMap { index[$0] }.map { column in
            (column, [column - 1, column + 1].filter(shown.contains))
        }
    }

    /// What a cell looks like, without what it says: its length in UTF-8 bytes and which kinds of
    /// characters it holds (upper case, lower case, digits, anything else).
    struct Shape: Hashable {
        var length: Int
        var kinds: UInt8

        init(_ text: String) {
            length = text.utf8.count
            var kinds: UInt8 = 0
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): kinds |= 1
                case UInt8(ascii: "a")...UInt8(ascii: "z"): kinds |= 2
                case UInt8(ascii: "0")...UInt8(ascii: "9"): kinds |= 4
                default: kinds |= 8
                }
            }
            self.kinds = kinds
        }
    }

    /// The reason to reject data row `row` as shifted (`reason(row:in:)`), or as holding beside a secret
    /// column a cell shaped like that column's and unlike its own; `suspects` are the rows looked at, left
    /// out of the shapes.
    mutating func reason(row: Int, in table: SourceTable, suspects: Set<Int>) -> Reason? {
        if let reason = reason(row: row, in: table) { return reason }
        guard secretNeighbours.contains(where: { !$0.neighbours.isEmpty }) else { return nil }
        if shapes == nil {
            var found: [Int: Set<Shape>] = [:]
            let columns = Set(secretNeighbours.flatMap { [$0.secret] + $0.neighbours })
            for other in 0..<table.dataRowCount where !suspects.contains(other) {
                for column in columns {
                    let text = table.cell(other, column)
                    if !text.isEmpty { found[column, default: []].insert(Shape(Text.normalize(text))) }
                }
            }
            shapes = found
            for (secret, _) in secretNeighbours {
                guard let shapes = found[secret], let shortest = shapes.map(\.length).min(), let longest = shapes.map(\.length).max() else { continue }
                secretKinds[secret] = (Set(shapes.map(\.kinds)), shortest...longest)
            }
        }
        for (secret, neighbours) in secretNeighbours {
            guard let secretShapes = secretKinds[secret] else { continue }
            for column in neighbours {
                let text = Text.normalize(table.cell(row, column))
                // Six bytes at least: a short cell ("1200", "TRUE") is too often shaped like a short code.
                guard text.utf8.count >= 6 else { continue }
                let shape = Shape(text)
                if secretShapes.kinds.contains(shape.kinds), secretShapes.lengths.contains(shape.length), !(shapes?[column]?.contains(shape) ?? false) {
                    return Reason(
                        .rowSecretShape, ["column": headers[column], "secret": headers[secret]])
                }
            }
        }
        return nil
    }

    /// Whether `text` reads as a cell of `kind`.
    private mutating func reads(_ text: String, as kind: Kind) -> Bool {
        switch kind {
        case .price: if case .success = PriceText.parse(text, separator: separator) { return true } else { return false }
        case .quantity: return QuantityText.parse(text) != nil
        case .currency: return text.isEmpty || isKnownCurrency(text.uppercased())
        // A date whose day and month are not settled is still a time's cell.
        case .time: return text.isEmpty || Timestamp.read(text, order: nil, offsets: &offsets) != .unreadable
        case .paid:
            let folded = text.lowercased()
            return PaidText.paid.contains(folded) || PaidText.unpaid.contains(folded)
        }
    }

    /// Whether `text`, which does not read as a cell of `kind`, holds a value of another kind: not nothing,
    /// and not a price as a person types one into its own cell — with its currency (`35 元`, `NT$ 35`,
    /// `$35`), negative or too long, digits with stray separators (`1,2`), or without a Latin letter or digit
    /// at all (`三十五`, `問店家`, `?`); nor a quantity typed with its unit (`2杯`). A Google Form's
    /// response tab has the quantity just before the price and a free-text note after it: read one column
    /// over, its `35 元` row would read (the quantity's `1` as the price, the empty note as `paid`), and a
    /// typo would be hidden as a shifted row.
    static func isForeign(_ text: String, to kind: Kind) -> Bool {
        guard !text.isEmpty else { return false }
        if kind == .quantity { return QuantityText.unitTyped(text) == nil }
        guard kind == .price else { return true }
        switch PriceText.parse(text) {
        case .failure(.formatted), .failure(.negative), .failure(.tooLong): return false
        default:
            let scalars = NumericText.folded(text).unicodeScalars
            let digits = scalars.contains { ("0"..."9").contains($0) }
            let letters = scalars.contains { $0.isASCII && $0.properties.isAlphabetic }
            return letters || (digits && !scalars.allSatisfy { ("0"..."9").contains($0) || $0 == "," || $0 == "." || $0 == " " })
        }
    }

    /// The reason to reject data row `row` (0-based) of `table` as shifted, naming the column where the
    /// shift begins; nil when its cells read best where they are.
    ///
    /// A shift by one from column `p` on reads each typed column `j ≥ p` from cell `j + 1` (a stray comma
    /// before it) or `j - 1` (one missing; or column `p`'s own cell lost, which then reads as empty), a cell
    /// beyond the row reading as empty (a truncated line). The
    /// row is shifted when some such reading makes every typed column read, one of them that does not read
    /// where it is now reading a cell that is not empty, and one of them that does not read holds a value
    /// of the wrong kind (`isForeign`: not just nothing, a forgotten price beside a quantity is a forgotten
    /// price; nor a price typed with its currency or in words).
    mutating func reason(row: Int, in table: SourceTable) -> Reason? {
        guard !typed.isEmpty else { return nil }
        var cells: [String] = []
        cells.reserveCapacity(width)
        for column in 0..<width { cells.append(Text.normalize(table.cell(row, column))) }
        let readsInPlace = typed.map { reads(cells[$0.column], as: $0.kind) }
        guard readsInPlace.contains(false) else { return nil }
        // A cell too many before column `p`, a cell lost before it, or the cell of column `p` itself lost.
        for (step, lost) in [(1, false), (-1, false), (-1, true)] {
            for (first, entry) in typed.enumerated() {
                var fixed = false
                var moved = false
                var all = true
                for (index, (column, kind)) in typed.enumerated() {
                    guard index >= first else {
                        if !readsInPlace[index] { all = false }
                        continue
                    }
                    let source = column + step
                    let text = source >= 0 && source < width && !(lost && index == first) ? cells[source] : ""
                    guard reads(text, as: kind) else {
                        all = false
                        break
                    }
                    if !readsInPlace[index] {
                        if !text.isEmpty { fixed = true }
                        if Self.isForeign(cells[column], to: kind) { moved = true }
                    }
                }
                guard all, fixed, moved else { continue }
                return Reason(
                    step == 1 ? .rowShiftedExtra : .rowShiftedMissing, ["column": headers[entry.column]])
            }
        }
        return nil
    }
}
