import Foundation

/// A group order: one shop, one organiser, one currency.
public struct Group: Sendable, Equatable {
    public var name: String
    public var organizer: String
    public var shop: String
    public var currency: String
    public var deadline: String
    /// How to pay the organiser ("LINE Pay: …", an account), as the groups sheet writes it; user text.
    public var payment: String = ""
    /// A delivery or packaging fee, shared equally among the group's people (`MoneyShares`); never negative.
    public var fee: Decimal = 0
    /// A discount, shared in proportion to each person's subtotal; never negative.
    public var discount: Decimal = 0

    /// The organiser as a person is identified (`Order.personKey`): empty without one.
    var organizerKey: PersonKey { PersonKey(organizer) }
}
