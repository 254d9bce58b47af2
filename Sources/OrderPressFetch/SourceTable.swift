import Crypto
import OrderPressSupport

/// A sheet as a source gave it: header names and every data row, each cell as text.
public struct SourceTable: Sendable, Equatable {
    /// The configuration table it came from ("orders", "groups"), for messages.
    public var name: String
    /// Normalised header names (`Text.normalize`), so that an invisible character cannot hide a column from its mapping.
    public var headers: [String]
    /// Every row's cells, row after row, `headers.count` per row, as bytes in one buffer (`CellStore`):
    /// read through `cell(_:_:)`, `withUTF8(_:_:_:)` or `withCells(_:)`.
    package private(set) var store: CellStore
    /// The sheet row of each data row, in order: the header is row 1, the first data row is row 2.
    package private(set) var numbers: [Int]
    /// CSV rows whose number of fields differs from the header's. Their cells cannot be matched to columns
    /// (one stray comma moves a secret into a published column), so none is kept: only where they were.
    public var malformed: [MalformedRow]
    /// Whether the rows came from CSV, where a stray or missing comma can shift a row's cells by a column
    /// (`ShiftedCells`); a JSON row names each cell's column.
    public var fromCSV = false
    /// The headers in the sheet's own order, where `headers` are not in it: a JSON body's keys are
    /// sorted, so this is its first row object's keys as written (`JSONKeyOrder`); nil for CSV, whose
    /// header row is in order already, and when unknown. Only `orderpress restore` reads it.
    public var sheetOrder: [String]? = nil

    /// One data row. `number` is the sheet row: the header is row 1, the first data row is row 2.
    public struct Row: Sendable, Equatable {
        public var number: Int
        /// Cells in the order of `headers`; "" for an empty or missing cell.
        public var cells: [String]
    }

    /// A row that could not be split into the sheet's columns; deliberately without its cells.
    public struct MalformedRow: Sendable, Equatable {
        public var number: Int
        public var fieldCount: Int
        /// The lines of a CSV file the row spans when a quoted cell of it swallows what look like whole
        /// rows (`CSVSyntax.Swallowed`): nil for a row whose number of fields is wrong.
        public var swallowedLines: ClosedRange<Int>? = nil

        /// Why its cells are not matched to columns, for a sheet whose header has `headerCount` fields.
        package func reason(headerCount: Int) -> String {
            if let lines = swallowedLines {
                return "reads as one row across lines \(lines.lowerBound)–\(lines.upperBound) of the file: a quoted cell holds line breaks followed by what look like whole rows, so a quote is probably stray or missing; fix the quotes (orders on those lines are not counted until then)"
            }
            return "has \(Counted.text(fieldCount, "field")) but the header has \(headerCount); its cells cannot be matched to columns"
        }
    }

    /// A row with fewer cells than headers reads "" in the rest, as a missing cell does; cells beyond the headers are dropped.
    public init(name: String, headers: [String], rows: [Row], malformed: [MalformedRow] = []) {
        var store = CellStore()
        for row in rows {
            for cell in row.cells.prefix(headers.count) { store.append(cell) }
            store.appendEmpty(count: max(0, headers.count - row.cells.count))
        }
        self.init(name: name, headers: headers, store: store, numbers: rows.map(\.number), malformed: malformed)
    }

    /// `cells` row after row, `headers.count` per row, one row per entry of `numbers`.
    package init(name: String, headers: [String], cells: [String], numbers: [Int], malformed: [MalformedRow] = []) {
        self.init(name: name, headers: headers, store: CellStore(cells), numbers: numbers, malformed: malformed)
    }

    /// `store`'s cells row after row, `headers.count` per row, one row per entry of `numbers`.
    package init(name: String, headers: [String], store: CellStore, numbers: [Int], malformed: [MalformedRow] = []) {
        precondition(store.count == headers.count * numbers.count, "a row must have one cell per header")
        self.name = name
        self.headers = headers
        self.store = store
        self.numbers = numbers
        self.malformed = malformed
    }

    /// The data rows as values; the pipeline reads cells in place (`cell(_:_:)`), this is for small tables and tests.
    public var rows: [Row] {
        get { numbers.indices.map { row in Row(number: numbers[row], cells: (0..<headers.count).map { cell(row, $0) }) } }
        set { self = SourceTable(name: name, headers: headers, rows: newValue, malformed: malformed) }
    }

    /// Data rows whose cells were kept (malformed ones excluded).
    package var dataRowCount: Int { numbers.count }

    /// The cell of data row `row` (0-based, in sheet order) in column `column`.
    package func cell(_ row: Int, _ column: Int) -> String { store.text(row * headers.count + column) }

    /// Every cell lent to `body`, for a loop over many rows: data row `row`'s cell in column `column` is
    /// the view's `row * headers.count + column`.
    package func withCells<R>(_ body: (CellStore.View) throws -> R) rethrows -> R {
        try store.withView(body)
    }

    /// How row fingerprints are made (`rowFingerprint(_:)`): part of what a snapshot's records were made
    /// under (`RowContext`), so that a state written by a version that made them otherwise keeps no record
    /// by a fingerprint of its own kind and has every record made again.
    package static let fingerprintScheme = "rows: count, lengths, bytes"

    /// The fingerprint of data row `row` (0-based): the first 16 bytes of the SHA-256 of the number of its
    /// cells, each cell's length in UTF-8 bytes (in the order of `headers`) and then the cells' bytes as
    /// they lie in the store, one after the other. The lengths first, each prefix-free (LEB128), so that no
    /// two different rows share an encoding (`["ab", ""]` is not `["a", "b"]`). The one place that reads a
    /// row's cells for it: a change of how cells are stored changes only this. The row's bytes are hashed
    /// in place, not copied: a copy a cell at a time cost more than the hash itself.
    package func rowFingerprint(_ row: Int) -> Digest128 {
        store.withView { Self.rowFingerprint(row, width: headers.count, in: $0) }
    }

    /// `rowFingerprint(_:)` of a table of `width` headers whose cells are lent already (`withCells(_:)`):
    /// without the table, which a loop capturing it copied for every row.
    package static func rowFingerprint(_ row: Int, width: Int, in cells: CellStore.View) -> Digest128 {
        // At most ten bytes a number, the count and every length.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10 * (width + 1)) { lengths in
            var used = 0
            func add(_ number: Int) {
                var rest = UInt64(number)
                while rest >= 0x80 {
                    lengths[used] = UInt8(truncatingIfNeeded: rest) | 0x80
                    rest >>= 7
                    used += 1
                }
                lengths[used] = UInt8(rest)
                used += 1
            }
            add(width)
            for column in 0..<width { add(cells[row * width + column].count) }
            var hash = SHA256()
            hash.update(bufferPointer: UnsafeRawBufferPointer(start: lengths.baseAddress, count: used))
            if width > 0 { hash.update(bufferPointer: UnsafeRawBufferPointer(cells.bytes(row * width..<(row + 1) * width))) }
            return Digest128(hash.finalize())
        }
    }

    /// Data rows read, malformed ones included.
    package var rowCount: Int { numbers.count + malformed.count }

    /// Index of each header, for looking up mapped columns once rather than per row. A repeated
    /// header name reads its first column only.
    package func columnIndex() -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, header) in headers.enumerated() where index[header] == nil {
            index[header] = position
        }
        return index
    }
}
