import Foundation
import Testing

@testable import OrderPressConfig
@testable import OrderPressValidate
@testable import OrderPressAggregate
@testable import OrderPressRender
import OrderPressTestSupport

/// `orders.csv`'s paid state: ticked in the sheet, or placed by the organiser the aggregation found
/// settled in that order's group (`GroupSummary.settledOrganizer`).
@Suite struct OrdersCSVPaymentsTests {
    static func data(tracksPayments: Bool = true) -> ValidatedData {
        let groups = [
            Group(name: "Tea", organizer: "Amy", shop: "", currency: "TWD", deadline: ""),
            Group(name: "Lunch", organizer: "Ben", shop: "", currency: "TWD", deadline: ""),
            Group(name: "Cake", organizer: "", shop: "", currency: "TWD", deadline: ""),
        ]
        var orders = [
            AggregatorFixtures.order(2, "Tea", "Amy", "紅茶", [], 1, "35"),  // Tea's organiser: settled
            AggregatorFixtures.order(3, "Tea", "Ben", "紅茶", [], 1, "35"),  // organises Lunch, not Tea
            AggregatorFixtures.order(4, "Lunch", "Amy", "便當", [], 1, "100"),  // Amy does not organise Lunch
            AggregatorFixtures.order(5, "Lunch", "Cy", "便當", [], 1, "100"),  // ticked
            AggregatorFixtures.order(6, "Tea", "AMY", "綠茶", [], 1, "30"),  // the organiser, however written
            AggregatorFixtures.order(7, "Cake", "Amy", "蛋糕", [], 1, "80"),  // a group without an organiser
            AggregatorFixtures.order(8, "Lunch", "Ben", "便當", [], 1, "100"),  // Lunch's organiser
        ]
        orders[3].paid = true
        var data = ValidatedData(groups: groups, orders: orders, rejected: [], warnings: [], rowsRead: orders.count)
        data.tracksPayments = tracksPayments
        return data
    }

    static func states(_ data: ValidatedData, organizerSettled: Bool) throws -> [Bool?]? {
        let configuration = try ConfigurationLoader.load(from: TestSupport.sampleConfig)
        let context = SiteContext(
            configuration: configuration, data: data, aggregation: Aggregator.aggregate(data, organizerSettled: organizerSettled), rates: nil,
            history: [], now: GoldenSite.now, siteID: GoldenSite.siteID)
        guard let state = OrdersCSVPayments(context).state else { return nil }
        return data.orders.indices.map { position in data.orders.withOrder(at: position) { state(position, $0) } }
    }

    @Test(arguments: [
        (true, [true, false, false, true, true, false, true]),
        (false, [false, false, false, true, false, false, false]),
    ])
    func anOrderIsPaidWhenTickedOrItsGroupsSettledOrganiserPlacedIt(organizerSettled: Bool, paid: [Bool]) throws {
        #expect(try Self.states(Self.data(), organizerSettled: organizerSettled) == paid)
    }

    @Test func theAggregationNamesEachGroupsSettledOrganiser() {
        #expect(Aggregator.aggregate(Self.data()).groups.map(\.settledOrganizer) == ["amy", "ben", nil])
        #expect(Aggregator.aggregate(Self.data(), organizerSettled: false).groups.map(\.settledOrganizer) == [nil, nil, nil])
    }

    @Test func withoutAPaidColumnTheCellsStayEmpty() throws {
        #expect(try Self.states(Self.data(tracksPayments: false), organizerSettled: true) == nil)
    }
}
