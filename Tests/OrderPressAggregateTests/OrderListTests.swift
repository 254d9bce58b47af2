import Foundation
import Testing

@testable import OrderPressAggregate
import OrderPressTestSupport

/// Groups and people hold their orders as positions in the one array of validated orders: they must
/// read exactly as the copies they replace did.
@Suite struct OrderListTests {
    static let orders = AggregatorTests.data.orders

    @Test func readsTheOrdersAtItsPositionsInTheirOrder() {
        let list = OrderList(Self.orders, positions: [1, 3, 4])
        #expect(list.count == 3)
        #expect(list.map(\.row) == [3, 5, 6])
        #expect(list[2] == Self.orders[4])
        #expect(Array(list) == [Self.orders[1], Self.orders[3], Self.orders[4]])
        #expect(OrderList(Self.orders, positions: []).isEmpty)
    }

    /// Equal orders are equal lists, whatever array they index; other orders or another order are not.
    @Test func listsAreEqualWhenTheirOrdersAre() {
        let picked = OrderList(Self.orders, positions: [0, 2])
        #expect(picked == OrderList([Self.orders[0], Self.orders[2]]))
        #expect(picked == [Self.orders[0], Self.orders[2]])
        #expect(picked != OrderList(Self.orders, positions: [2, 0]))
        #expect(picked != OrderList(Self.orders, positions: [0]))
        #expect(picked != OrderList(Self.orders, positions: [0, 1]))
    }

    /// Every group's and every person's orders are those of the sheet for that group or person, in
    /// sheet order, and their totals are the exact sums, on a sheet split over two cores.
    @Test func summariesByPositionHoldTheSameOrdersAndTotalsAsTheSheet() {
        let data = LargeAggregationTests.data
        let aggregation = Aggregator.aggregate(data, rates: LargeAggregationTests.rates, displayCurrencies: ["TWD", "USD"], baseCurrency: "TWD")
        for summary in aggregation.groups {
            let orders = data.orders.filter { $0.group == summary.group.name }
            #expect(Array(summary.orders) == orders)
            #expect(summary.items == orders.reduce(0) { $0 + $1.quantity })
            #expect(summary.paid == orders.filter(\.paid).reduce(Decimal(0)) { $0 + $1.unitPrice * Decimal($1.quantity) })
        }
        for person in aggregation.people {
            let orders = data.orders.filter { $0.personKey.text == person.key }
            #expect(Array(person.orders) == orders)
            var totals: [String: Decimal] = [:]
            for order in orders { totals[order.currency, default: 0] += order.unitPrice * Decimal(order.quantity) }
            #expect(person.totals == totals)
        }
        #expect(aggregation.groups.reduce(0) { $0 + $1.orders.count } == data.orders.count)
        #expect(aggregation.people.reduce(0) { $0 + $1.orders.count } == data.orders.count)
    }

    /// Exact values on the small sheet: who ordered what, and the sums.
    @Test func aSmallSheetsGroupsAndPeople() {
        let aggregation = Aggregator.aggregate(AggregatorTests.data)
        #expect(aggregation.groups.map { $0.orders.map(\.row) } == [[2, 3, 4, 5], [6], []])
        #expect(aggregation.people.map { $0.orders.map(\.row) } == [[2, 3, 6], [4, 5]])
        #expect(aggregation.people.map(\.totals) == [["TWD": 105, "USD": Decimal(string: "6.25")!], ["TWD": Decimal(string: "75.5")!]])
        #expect(aggregation.groups.map(\.total) == [Decimal(string: "180.5")!, Decimal(string: "6.25")!, 0])
    }
}
