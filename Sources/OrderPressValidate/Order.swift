import Foundation

/// One valid order line, normalised.
public struct Order: Sendable, Equatable {
    /// The sheet row it came from (header = row 1).
    public var row: Int
    public var id: String?
    public var group: String
    /// The person's name as first written.
    public var person: String
    /// Identifies the person (`PersonKey`): the name case-, width- and space-folded.
    public var personKey: PersonKey
    public var item: String
    /// The non-empty option values, in the configured column order.
    public var options: [String]
    public var quantity: Int
    public var unitPrice: Decimal
    public var currency: String
    public var time: Date?
    /// The time as the sheet wrote it (normalised), kept when it could not be read.
    public var timeText: String
    public var note: String
    /// From the `paid` column; false when the sheet has none.
    public var paid = false

    /// Quantity × unit price, exact. Most orders are of one: no costly Decimal multiplication for those.
    public var amount: Decimal { quantity == 1 ? unitPrice : unitPrice * Decimal(quantity) }
}
