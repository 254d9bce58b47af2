import OrderPressSupport

/// What the site shows of validation: every row read is either an order or a rejected row. The rows as
/// the diff compares them and the secret cells are not here but beside it in `ValidatedSheet`, which
/// the diff consumes.
public struct ValidatedData: Sendable, Equatable {
    public var groups: [Group]
    /// `$orders`: which orders these are (`OrdersGeneration`), for what is known of them by position.
    @Generational public var orders: [Order]
    public var rejected: [RejectedRow]
    public var warnings: [DataWarning]
    /// Data rows read from the orders source; always `orders.count + rejected.count`.
    public var rowsRead: Int
    /// The sheet has the mapped `paid` column, so pages show who paid and who still owes.
    public var tracksPayments = false
    /// Rows whose field count differs from the header's: rejected, and carrying no values at all, since
    /// any of their cells could be a secret.
    public var malformedRows = 0
    /// Rows with every mapped cell empty or an unticked checkbox (`BlankRows`): skipped, in no count but this.
    public var blankRows = 0
    /// Prices, fees and discounts read with their currency's sign or code (`¥300`, `4.50 USD`): said once in
    /// the summary line, not warned about row by row.
    public var amountsWithSign = 0
    /// The settle-ups read from the `[payments]` source, in sheet order; none without one.
    public var payments: [Payment] = []
    /// The people whose rows write their name more than one way: the spelling shown, the spellings merged.
    public var spellings = PersonSpellings()
}
