import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressAggregate
import OrderPressTestSupport

/// Validated orders aggregated: exact sums at the bounds, and one person however their name is written.
@Suite struct ValidatedAggregationTests {
    /// A hundred thousand rows at the largest quantity and price sum exactly, in every total (a million
    /// would need 28 of Decimal's 38 digits and 10^10 of Int's 9.2 × 10^18; this one is fast enough to run).
    @Test func sumsOfTheLargestOrdersNeitherOverflowNorRound() {
        let order = Order(
            row: 2, id: nil, group: "G", person: "Amy", personKey: "amy", item: "tea", options: [], quantity: 10_000,
            unitPrice: Decimal(string: "999999999999.999999")!, currency: "TWD", time: nil, timeText: "", note: "")
        let data = ValidatedData(
            groups: [Group(name: "G", organizer: "", shop: "", currency: "TWD", deadline: "")],
            orders: Array(repeating: order, count: 100_000), rejected: [], warnings: [], rowsRead: 100_000)
        let aggregation = Aggregator.aggregate(data)
        let total = "999999999999999999000"
        #expect(aggregation.groups[0].items == 1_000_000_000)
        #expect(DecimalText.exact(aggregation.groups[0].total) == total)
        #expect(aggregation.groups[0].shopSheet.map(\.quantity) == [1_000_000_000])
        #expect(aggregation.grandTotals.mapValues(DecimalText.exact) == ["TWD": total])
        #expect(aggregation.people.map { $0.totals.mapValues(DecimalText.exact) } == [["TWD": total]])
    }

    @Test func aNameWithInvisibleCharactersIsTheSamePerson() throws {
        let data = try ValidatorFixtures.validate([ValidatorFixtures.row(person: "Amy"), ValidatorFixtures.row(id: "2", person: "A\u{200B}my\u{202E}"), ValidatorFixtures.row(id: "3", person: "\u{FEFF}amy")])
        #expect(Set(data.orders.map(\.personKey)) == ["amy"])
        #expect(Aggregator.aggregate(data).people.count == 1)
    }
}
