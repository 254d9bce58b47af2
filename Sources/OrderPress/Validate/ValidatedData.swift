/// The result of validation: every row read is either an order or a rejected row.
public struct ValidatedData: Sendable, Equatable {
    public var groups: [Group]
    public var orders: [Order]
    public var rejected: [RejectedRow]
    public var warnings: [DataWarning]
    /// Data rows read from the orders source; always `orders.count + rejected.count`.
    public var rowsRead: Int
    /// The sheet has the mapped `paid` column, so pages show who paid and who still owes.
    public var tracksPayments = false
}
