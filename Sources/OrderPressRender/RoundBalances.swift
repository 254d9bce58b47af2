import Foundation
import OrderPressAggregate
import OrderPressDiff
import OrderPressSupport
import OrderPressValidate

/// What each person of a finished round (`RoundArchive`) ordered, paid and still owed when it closed: unpaid
/// orders plus their share of the group's fee, less their share of its discount, in the group currency's
/// minor units as the live group page shares them (`MoneyShares`, people in key order), the organiser
/// settled with `organizer_settled`. The archive page shows it; what is still owed is carried on the
/// person's page (`CarriedDebt`).
struct RoundBalances {
    package struct Person {
        package var name: String
        var totals: [String: Decimal] = [:]
        package var paid: [String: Decimal] = [:]
        var unpaid: [String: Decimal] = [:]
    }

    /// By person key (`PersonKey`, as orders are keyed).
    package var people: [String: Person] = [:]
    var totals: [String: Decimal] = [:]
    package var fee: Decimal = 0
    package var discount: Decimal = 0
    /// Whether the round's orders had a `paid` column: without one nobody is known to owe anything.
    var tracksPayments: Bool

    init(_ archive: RoundArchive, money: MoneyFormat, organizerSettled: Bool) {
        tracksPayments = archive.orders.contains { $0.paid != nil }
        for order in archive.orders {
            let amount = DecimalText.parse(order.amount) ?? 0
            totals[order.currency, default: 0] += amount
            let key = PersonKey(order.person).text
            var entry = people[key] ?? Person(name: order.person)
            entry.totals[order.currency, default: 0] += amount
            if order.paid == true { entry.paid[order.currency, default: 0] += amount } else { entry.unpaid[order.currency, default: 0] += amount }
            people[key] = entry
        }
        guard let currency = archive.currency, !people.isEmpty else { return }
        let keys = people.keys.sorted()
        let digits = money.minorUnits(currency)
        let feeUnits = MoneyShares.equal(MoneyShares.units(archive.fee.flatMap(DecimalText.parse) ?? 0, digits: digits) ?? 0, among: keys.count)
        let discountUnits = MoneyShares.proportional(
            MoneyShares.units(archive.discount.flatMap(DecimalText.parse) ?? 0, digits: digits) ?? 0,
            to: MoneyShares.weights(keys.map { people[$0]!.totals[currency] ?? 0 }))
        let organizer = organizerSettled ? PersonKey(archive.organizer).text : nil
        for (index, key) in keys.enumerated() where feeUnits[index] != 0 || discountUnits[index] != 0 {
            let part = MoneyShares.amount(units: feeUnits[index], digits: digits)
            let off = MoneyShares.amount(units: discountUnits[index], digits: digits)
            (fee, discount) = (fee + part, discount + off)
            // Like a ticked order: the organiser owes nobody, everyone else owes their part.
            people[key]!.totals[currency, default: 0] += part - off
            if key == organizer { people[key]!.paid[currency, default: 0] += part - off } else { people[key]!.unpaid[currency, default: 0] += part - off }
        }
        totals[currency, default: 0] += fee - discount
    }

    /// What `key` still owed when the round closed, per currency, only amounts above zero; none when the
    /// round did not track payments or `key` is its (settled) organiser.
    package func owed(by key: String) -> [String: Decimal] {
        guard tracksPayments, let person = people[key] else { return [:] }
        return person.unpaid.filter { $0.value > 0 }
    }
}
