/// A row that cannot be used, with every reason, kept for the Attention page.
public struct RejectedRow: Sendable, Equatable {
    public var row: Int
    /// The mapped columns' values in configuration order; secrets masked as `•••`.
    public var values: [Cell]
    public var reasons: [String]

    public struct Cell: Sendable, Equatable {
        public var column: String
        public var value: String
    }
}
