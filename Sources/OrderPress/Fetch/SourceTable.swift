/// A sheet as a source gave it: header names and every data row, each cell as text.
public struct SourceTable: Sendable, Equatable {
    /// The configuration table it came from ("orders", "groups"), for messages.
    public var name: String
    /// Normalised header names (`Text.normalize`), so that an invisible character cannot hide a column from its mapping.
    public var headers: [String]
    public var rows: [Row]
    /// CSV rows whose number of fields differs from the header's. Their cells cannot be matched to columns
    /// (one stray comma moves a secret into a published column), so none is kept: only where they were.
    public var malformed: [MalformedRow]

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
    }

    public init(name: String, headers: [String], rows: [Row], malformed: [MalformedRow] = []) {
        self.name = name
        self.headers = headers
        self.rows = rows
        self.malformed = malformed
    }

    /// Data rows read, malformed ones included.
    var rowCount: Int { rows.count + malformed.count }

    /// Index of each header, for looking up mapped columns once rather than per row. A repeated
    /// header name reads its first column only.
    func columnIndex() -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, header) in headers.enumerated() where index[header] == nil {
            index[header] = position
        }
        return index
    }
}
