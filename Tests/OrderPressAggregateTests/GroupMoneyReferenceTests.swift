import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressAggregate
import OrderPressTestSupport

/// Fees, discounts and the settled organiser through the whole aggregate step, against a computation
/// written another way: dictionaries keyed by person key, Foundation's `NSDecimalRound` for the fee in
/// minor units, and the one-unit-at-a-time split of `MoneySharesTests`. Exact amounts throughout; every
/// person's parts sum to the group's; ties go to the first in name order.
@Suite struct GroupMoneyReferenceTests {
    static let people = ["Amy", "amy", "Ben", "陳小明", "Zoë", "Carol"]
    static let organizers = ["", "AMY", "Ben", "陳小明", "Nobody"]
    static let amounts = ["0", "60", "7.5", "0.01", "12.34", "x", "-5"]
    static let prices = ["35", "5.75", "0", "120.5", "1,200"]
    static let currencies = ["TWD", "USD", "JPY"]
    static let money = MoneyFormat(minorUnitOverrides: ["TWD": 0])

    struct Sheet: Sendable, CustomStringConvertible {
        /// Per group: organiser, currency, fee, discount (indices into the tables above).
        var groups: [[Int]]
        /// Per order: group, person, price, quantity, paid.
        var orders: [[Int]]
        var settled: Bool
        var description: String { "groups \(groups) orders \(orders) settled \(settled)" }
    }

    static let sheets = Generator<Sheet, Shrink.None<Sheet>> { rng in
        let groups = (0..<Int.random(in: 1...3, using: &rng)).map { _ in (0..<4).map { _ in Int.random(in: 0...100, using: &rng) } }
        let orders = (0..<Int.random(in: 0...25, using: &rng)).map { _ in (0..<5).map { _ in Int.random(in: 0...100, using: &rng) } }
        return Sheet(groups: groups, orders: orders, settled: Bool.random(using: &rng))
    }

    /// The sheet as rows, validated as a build validates them (a groups sheet with fee and discount columns).
    static func data(_ sheet: Sheet) throws -> ValidatedData {
        let groupRows = sheet.groups.enumerated().map { index, spec in
            ["G\(index)", organizers[spec[0] % organizers.count], "", currencies[spec[1] % currencies.count], "", "Pay me",
             amounts[spec[2] % amounts.count], amounts[spec[3] % amounts.count]]
        }
        let groups = TestSupport.table(
            ["group", "organizer", "shop", "currency", "deadline", "payment", "fee", "discount"], groupRows, name: "groups")
        let orderRows = sheet.orders.map { spec in
            ["G\(spec[0] % sheet.groups.count)", people[spec[1] % people.count], "tea", prices[spec[2] % prices.count],
             String(1 + spec[3] % 3), spec[4] % 2 == 0 ? "TRUE" : ""]
        }
        let orders = TestSupport.table(["group", "orderer", "drink", "price", "quantity", "paid"], orderRows)
        let configuration = try TestSupport.configuration(
            TestSupport.minimalTOML + "\n[groups]\npath = \"groups.csv\"\n[minor_units]\nTWD = 0\n")
        return try Validator(configuration: configuration).validate(orders: orders, groups: groups)
    }

    @Test func sharesAndOutstandingAreTheReferences() async {
        await propertyCheck(count: 300, input: Self.sheets) { sheet in
            let data = try! Self.data(sheet)
            let aggregation = Aggregator.aggregate(data, money: Self.money, organizerSettled: sheet.settled)
            Self.expectReference(aggregation, data: data, settled: sheet.settled)
        }
    }

    static func expectReference(_ aggregation: Aggregation, data: ValidatedData, settled: Bool) {
        var grandTotals: [String: Decimal] = [:]
        var grandOutstanding: [String: Decimal] = [:]
        // By person key: totals and what is owed, per currency and per group.
        var totals: [String: [String: Decimal]] = [:]
        var owedByCurrency: [String: [String: Decimal]] = [:]
        var owedByGroup: [String: [String: Decimal]] = [:]
        for (summary, group) in zip(aggregation.groups, data.groups) {
            let orders = data.orders.filter { $0.group == group.name }
            let keys = Array(Set(orders.map(\.personKey.text))).sorted()
            let digits = money.minorUnits(group.currency)
            func units(_ amount: Decimal) -> Int {
                var input = amount * pow(10, digits)
                var rounded = Decimal()
                NSDecimalRound(&rounded, &input, 0, .plain)
                return NSDecimalNumber(decimal: rounded).intValue
            }
            func amount(_ units: Int) -> Decimal { Decimal(units) / pow(10, digits) }
            let subtotals = keys.map { key in orders.filter { $0.personKey.text == key }.reduce(Decimal(0)) { $0 + $1.amount } }
            let paidOrders = keys.map { key in orders.filter { $0.personKey.text == key && $0.paid }.reduce(Decimal(0)) { $0 + $1.amount } }
            let feeParts = MoneySharesTests.oneUnitAtATime(keys.isEmpty ? 0 : units(group.fee), weights: keys.map { _ in 1 }).map(amount)
            let discountParts = MoneySharesTests.oneUnitAtATime(
                keys.isEmpty ? 0 : units(group.discount),
                weights: subtotals.map { NSDecimalNumber(decimal: $0 * 1_000_000).intValue }
            ).map(amount)
            let organizer = settled ? PersonKey(group.organizer).text : ""

            #expect(summary.people.map(\.key) == keys)
            #expect(summary.people.map(\.feeShare) == (keys.isEmpty ? [] : feeParts))
            #expect(summary.people.map(\.discountShare) == (keys.isEmpty ? [] : discountParts))
            #expect(summary.fee == feeParts.reduce(0, +) && summary.discount == discountParts.reduce(0, +))
            if !keys.isEmpty {
                #expect(summary.fee == amount(units(group.fee)) && summary.discount == amount(units(group.discount)))
            }
            var groupTotal: Decimal = 0
            var groupPaid: Decimal = 0
            for (index, key) in keys.enumerated() {
                let total = subtotals[index] + feeParts[index] - discountParts[index]
                let isOrganizer = key == organizer
                let paid = isOrganizer ? total : paidOrders[index]
                let person = summary.people[index]
                #expect(person.total == total && person.paid == paid && person.outstanding == total - paid, "\(key) in \(group.name)")
                #expect(person.settled == isOrganizer)
                groupTotal += total
                groupPaid += paid
                totals[key, default: [:]][group.currency, default: 0] += total
                owedByCurrency[key, default: [:]][group.currency, default: 0] += total - paid
                // Nobody is asked to pay themselves, settled or not.
                if key != PersonKey(group.organizer).text, total - paid > 0 { owedByGroup[key, default: [:]][group.name] = total - paid }
            }
            #expect(summary.total == groupTotal && summary.paid == groupPaid && summary.outstanding == groupTotal - groupPaid)
            if !orders.isEmpty { grandTotals[group.currency, default: 0] += groupTotal }
            grandOutstanding[group.currency, default: 0] += groupTotal - groupPaid
        }
        #expect(aggregation.grandTotals == grandTotals)
        #expect(aggregation.grandOutstanding == grandOutstanding)
        #expect(aggregation.people.map(\.key) == totals.keys.sorted())
        for person in aggregation.people {
            #expect(person.totals == totals[person.key], "\(person.key)")
            #expect(person.outstanding == owedByCurrency[person.key], "\(person.key)")
            #expect(person.outstandingByGroup == (owedByGroup[person.key] ?? [:]), "\(person.key)")
        }
    }

    /// The organiser's own orders count as paid: nobody owes themselves, on any page.
    @Test func theOrganizerOwesNobody() throws {
        let sheet = Sheet(groups: [[1, 0, 1, 0]], orders: [[0, 0, 0, 0, 1], [0, 1, 1, 0, 1], [0, 2, 0, 0, 1]], settled: true)
        let data = try Self.data(sheet)
        let aggregation = Aggregator.aggregate(data, money: Self.money)
        let amy = try #require(aggregation.people.first { $0.key == "amy" })
        #expect(amy.outstandingByGroup.isEmpty)
        #expect(amy.outstanding == ["TWD": 0])
        #expect(aggregation.groups[0].outstanding == aggregation.groups[0].people.first { $0.key == "ben" }!.outstanding)
        // Off: her orders are unpaid like anyone's (the group still expects them), yet she is not asked to pay herself.
        let unsettled = Aggregator.aggregate(data, money: Self.money, organizerSettled: false)
        let unsettledAmy = try #require(unsettled.people.first { $0.key == "amy" })
        let amyOwes = Decimal(string: "70.75")!
        #expect(unsettledAmy.outstanding == ["TWD": amyOwes])
        #expect(unsettledAmy.outstandingByGroup.isEmpty)
        #expect(unsettled.groups[0].outstanding == amyOwes + Decimal(65))
    }

    /// A fee or discount that is not a non-negative number is a warning naming the groups row and the
    /// value, and counts as 0; an empty cell is nothing.
    @Test func aBadFeeOrDiscountIsAWarningAndCountsAsZero() throws {
        // Organiser "", TWD, fee "-5", discount "x"; then fee and discount "0". Warnings come sorted.
        let data = try Self.data(Sheet(groups: [[0, 0, 6, 5], [0, 0, 0, 0]], orders: [[0, 0, 0, 0, 0]], settled: true))
        #expect(data.warnings.map(\.message) == [
            "groups row 2: discount 'x' is not a number and counts as 0",
            "groups row 2: fee '-5' must not be negative and counts as 0",
        ])
        // Each with its code and values, for summary.json and the page's text in the site's language.
        #expect(data.warnings.map { $0.reason?.code } == [.groupAmountInvalid, .groupAmountInvalid])
        #expect(data.warnings.map { $0.reason?.values ?? [:] } == [
            ["row": "2", "column": "discount", "value": "x"], ["row": "2", "column": "fee", "value": "-5"],
        ])
        #expect(data.groups.map(\.fee) == [0, 0] && data.groups.map(\.discount) == [0, 0])
        #expect(data.groups.map(\.payment) == ["Pay me", "Pay me"])
    }
}
