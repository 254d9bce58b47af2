import Foundation
import OrderPressSupport

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

    /// The order the groups source writes dates in (`date_order`, or what its deadlines prove): how
    /// `deadline` reads. Nil: only what the text itself proves.
    public var dateOrder: DateOrder?
    /// Why the fee or the discount cell, which could not be read, counts as 0: said where the money is
    /// (the group's total, every share line), not only on the Attention page. Nil when read or empty.
    public var feeNotCounted: Reason?
    public var discountNotCounted: Reason?

    /// The deadline as a moment, a date alone being the end of that day; nil when it does not read as a
    /// time or its day and month are not settled.
    package func deadlineTime(timeZone: TimeZone) -> Date? {
        deadline.isEmpty ? nil : Timestamp.read(deadline, order: dateOrder, timeZone: timeZone, endOfDay: true).date
    }

    /// The deadline as pages show times (a date alone as its date: no time nobody wrote); nil when it is to
    /// be shown as written.
    package func deadlineShown(timeZone: TimeZone) -> String? {
        guard !deadline.isEmpty, case .time(let date, let dateOnly, _) = Timestamp.read(deadline, order: dateOrder, timeZone: timeZone, endOfDay: true)
        else { return nil }
        let shown = Timestamp.display(date, timeZone: timeZone)
        return dateOnly ? String(shown.prefix(10)) : shown
    }

    /// The organiser as a person is identified (`Order.personKey`): empty without one.
    package var organizerKey: PersonKey { PersonKey(organizer) }
}
