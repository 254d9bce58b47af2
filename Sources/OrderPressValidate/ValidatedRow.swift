import Foundation

/// One row as validation read it, valid or rejected: what the diff compares with the last snapshot
/// (with the row's `SecretCells`), so that the diff never goes back to the sheet or the column mapping.
public struct ValidatedRow: Sendable, Equatable {
    /// The sheet row (header = row 1).
    public var row: Int
    public var id: String?
    /// What identifies the row across runs: `id:<id>` when the id occurs exactly once in the sheet,
    /// else `content:` and its normalised content, so that identical rows form a multiset.
    package var identity: Identity
    /// Values of `ValidatedData.columns`, in that order.
    public var values: [String]
    public var rejected: Bool
    /// The order as it reads (best effort for a rejected row).
    public var group: String
    public var person: String
    public var item: String
    public var options: [String]
    public var quantity: Int
    /// Exact amount in `currency`; nil for a rejected row.
    public var amount: Decimal?
    /// The order's currency; for a rejected row the currency cell as written.
    public var currency: String
}
