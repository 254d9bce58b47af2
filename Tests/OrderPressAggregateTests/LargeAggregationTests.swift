import Foundation
import Testing

@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressAggregate
import OrderPressTestSupport

/// Sheets large enough that validation and aggregation split their work over two cores: the result is
/// still in sheet order, exact, and the same from run to run.
@Suite struct LargeAggregationTests {
    static let groupCount = 300
    static let personCount = 2_500

    static let data: ValidatedData = {
        let groups = (0..<groupCount).map { Group(name: "團購 \($0)", organizer: "", shop: "", currency: $0 % 10 == 0 ? "USD" : "TWD", deadline: "") }
        let orders = (0..<6_000).map { index in
            let group = groups[index * 7 % groupCount]
            let person = "陳小明 \(index * 13 % personCount)"
            return Order(
                row: index + 2, id: nil, group: group.name, person: person, personKey: PersonKey(person), item: "紅茶", options: ["L"],
                quantity: 1 + index % 3, unitPrice: Decimal(string: group.currency == "USD" ? "6.25" : "35")!, currency: group.currency,
                time: nil, timeText: "", note: "", paid: index % 2 == 0)
        }
        return ValidatedData(groups: groups, orders: orders, rejected: [], warnings: [], rowsRead: orders.count)
    }()

    static let rates = RateTable(base: "USD", rates: ["TWD": Decimal(string: "32.125")!], asOf: nil, source: "json")

    @Test func groupsAndPeopleAreExactAndInOrderWhenSplitOverCores() {
        let aggregation = Aggregator.aggregate(Self.data, rates: Self.rates, displayCurrencies: ["TWD", "USD"], baseCurrency: "TWD")
        #expect(aggregation.groups.map(\.group.name) == Self.data.groups.map(\.name))
        for summary in aggregation.groups {
            let orders = Self.data.orders.filter { $0.group == summary.group.name }
            var total: Decimal = 0
            for order in orders { total += order.unitPrice * Decimal(order.quantity) }
            #expect(summary.total == total)
            #expect(summary.converted.first { $0.currency == summary.currency }?.amount == total)
            #expect(summary.people.map(\.key) == Set(orders.map(\.personKey.text)).sorted())
        }
        #expect(aggregation.people.map(\.key) == Set(Self.data.orders.map(\.personKey.text)).sorted())
        #expect(aggregation.people.allSatisfy { person in person.convertedByGroup.count == person.totalsByGroup.count })
        #expect(aggregation == Aggregator.aggregate(Self.data, rates: Self.rates, displayCurrencies: ["TWD", "USD"], baseCurrency: "TWD"))
    }

    /// 45,000 rows: two chunks of validation. Rows, rejections and warnings come out in sheet order.
    @Test func validationSplitOverCoresKeepsSheetOrder() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let rows = (0..<45_000).map { index in
            ValidatorFixtures.row(id: "\(index)", price: index % 1000 == 7 ? "x" : "35", time: index % 1000 == 9 ? "soon" : "2026-11-21 09:15")
        }
        let sheet = try Validator(configuration: configuration)
            .validateSheet(orders: TestSupport.table(ValidatorFixtures.headers, rows), groups: nil)
        let (data, secrets) = (sheet.data, sheet.secrets)
        #expect(sheet.rows.map(\.row) == Array(2..<45_002))
        let rejectedRows: [Int] = (0..<45).map { $0 * 1000 + 9 }
        let timeRows: [Int?] = (0..<45).map { $0 * 1000 + 11 }
        #expect(data.rejected.map(\.row) == rejectedRows)
        #expect(data.warnings.filter { $0.message.hasPrefix("time") }.map(\.row) == timeRows)
        #expect(data.orders.count == 45_000 - 45)
        let codes: [[String]] = secrets.rows.map { $0.map(\.text) }
        #expect(codes == Array(repeating: ["s3cr3tC0de"], count: 45_000))
    }
}
