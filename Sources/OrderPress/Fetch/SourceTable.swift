/// A sheet as a source gave it: header names and every data row, each cell as text.
public struct SourceTable: Sendable, Equatable {
    /// The configuration table it came from ("orders", "groups"), for messages.
    public var name: String
    public var headers: [String]
    public var rows: [Row]

    /// One data row. `number` is the sheet row: the header is row 1, the first data row is row 2.
    public struct Row: Sendable, Equatable {
        public var number: Int
        /// Cells in the order of `headers`; "" for an empty or missing cell.
        public var cells: [String]
    }

    public init(name: String, headers: [String], rows: [Row]) {
        self.name = name
        self.headers = headers
        self.rows = rows
    }

    /// Index of each header, for looking up mapped columns once rather than per row.
    func columnIndex() -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, header) in headers.enumerated() where index[header] == nil {
            index[header] = position
        }
        return index
    }
}
