import Foundation

/// One settle-up the organiser recorded in the `[payments]` source: who paid how much, in which currency,
/// and optionally which group's organiser was paid. It pays off debts carried from finished rounds
/// (`PaymentLedger`), never the orders of a round still open.
public struct Payment: Sendable, Equatable {
    /// The payments sheet's row (the header is row 1).
    public var row: Int
    /// The name as written (normalised); people are matched by `personKey`.
    public var person: String
    public var personKey: PersonKey
    /// Exact, never negative.
    public var amount: Decimal
    /// The row's currency, or its group's when the groups source knows the group; nil when neither says:
    /// the ledger then takes the named group's carried debts' currency, else `base_currency`.
    public var currency: String?
    /// The group whose organiser was paid; nil when the row names none.
    public var group: String?
    /// The time as written; shown, never used to order payments.
    public var time: String?
}
