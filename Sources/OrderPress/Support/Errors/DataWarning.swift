/// Something in the data worth the organiser's attention that did not stop a row from being used.
public struct DataWarning: Sendable, Equatable, Comparable, Codable {
    /// The sheet row, or nil for a warning about a whole source.
    public var row: Int?
    public var message: String

    public init(row: Int?, message: String) {
        self.row = row
        self.message = message
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        ((lhs.row ?? 0), lhs.message) < ((rhs.row ?? 0), rhs.message)
    }
}
