/// Something in the data worth the organiser's attention that did not stop a row from being used.
public struct DataWarning: Sendable, Equatable, Comparable, Codable {
    /// The sheet row, or nil for a warning about a whole source.
    public var row: Int?
    /// In English, for the terminal and `summary.json`.
    public var message: String
    /// Its code and values, for the Attention page in the site's language and `summary.json`'s `code`;
    /// nil for a warning made without one (older state).
    public var reason: Reason?
    /// The source it is about when that is not the orders sheet ("payments"), for `summary.json`; nil otherwise.
    public var source: String? = nil

    public init(row: Int?, _ reason: Reason) {
        self.row = row
        self.message = reason.english
        self.reason = reason
    }

    /// Equal when they say the same: the English message is made from the code and its values.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.row == rhs.row && lhs.message == rhs.message
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        ((lhs.row ?? 0), lhs.message) < ((rhs.row ?? 0), rhs.message)
    }
}
