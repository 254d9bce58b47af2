import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressAggregate
import OrderPressTestSupport

@Suite struct AggregatorTests {

    static let data = ValidatedData(
        groups: [
            Group(name: "Tea", organizer: "", shop: "", currency: "TWD", deadline: ""),
            Group(name: "Boba", organizer: "", shop: "", currency: "USD", deadline: ""),
            Group(name: "Empty", organizer: "", shop: "", currency: "TWD", deadline: ""),
        ],
        orders: [
            AggregatorFixtures.order(2, "Tea", "Amy", "熟成紅茶", ["L", "半糖", "少冰"], 1, "35"),
            AggregatorFixtures.order(3, "Tea", "amy", "熟成紅茶", ["L", "半糖", "少冰"], 2, "35"),
            AggregatorFixtures.order(4, "Tea", "Ben", "熟成紅茶", ["M", "無糖"], 1, "30"),
            AggregatorFixtures.order(5, "Tea", "Ben", "冬瓜檸檬", ["L"], 1, "45.5"),
            AggregatorFixtures.order(6, "Boba", "Amy", "Milk tea", [], 1, "6.25", "USD"),
        ],
        rejected: [], warnings: [], rowsRead: 5)

    @Test func sumsTheShopSheetAndPeople() {
        let aggregation = Aggregator.aggregate(Self.data)
        let tea = aggregation.groups[0]
        #expect(tea.shopSheet == [
            ShopLine(item: "冬瓜檸檬", options: ["L"], quantity: 1, unitPrice: Decimal(string: "45.5")!),
            ShopLine(item: "熟成紅茶", options: ["L", "半糖", "少冰"], quantity: 3, unitPrice: 35),
            ShopLine(item: "熟成紅茶", options: ["M", "無糖"], quantity: 1, unitPrice: 30),
        ])
        #expect(tea.shopSheet.map(\.lineTotal) == [Decimal(string: "45.5")!, 105, 30])
        #expect(tea.total == Decimal(string: "180.5")!)
        #expect(tea.items == 5)
        #expect(tea.people == [
            PersonTotal(key: "amy", name: "Amy", orders: 2, total: 105),
            PersonTotal(key: "ben", name: "Ben", orders: 2, total: Decimal(string: "75.5")!),
        ])
        #expect(aggregation.groups[2].orders.isEmpty)
        #expect(aggregation.groups[2].total == 0)
        #expect(aggregation.people.map(\.name) == ["Amy", "Ben"])
        #expect(aggregation.people[0].totals == ["TWD": 105, "USD": Decimal(string: "6.25")!])
        #expect(aggregation.grandTotals == ["TWD": Decimal(string: "180.5")!, "USD": Decimal(string: "6.25")!])
    }

    @Test func theSameItemAtAnotherPriceIsItsOwnShopLine() {
        var data = Self.data
        data.orders.append(AggregatorFixtures.order(7, "Tea", "Cat", "熟成紅茶", ["M", "無糖"], 2, "25"))
        let sheet = Aggregator.aggregate(data).groups[0].shopSheet
        #expect(sheet.map(\.text) == ["1 × 冬瓜檸檬 L", "3 × 熟成紅茶 L 半糖 少冰", "2 × 熟成紅茶 M 無糖", "1 × 熟成紅茶 M 無糖"])
        #expect(sheet.map(\.lineTotal) == [Decimal(string: "45.5")!, 105, 50, 30])
    }

    @Test func paidAndOutstandingPerPersonPerGroupAndAcrossGroups() {
        var data = Self.data
        data.tracksPayments = true
        // Amy paid her first tea (35); Ben paid his 45.5; Amy's boba (6.25 USD) is unpaid.
        data.orders[0].paid = true
        data.orders[3].paid = true
        let aggregation = Aggregator.aggregate(data)
        #expect(aggregation.tracksPayments)
        let tea = aggregation.groups[0]
        #expect(tea.paid == Decimal(string: "80.5")!)
        #expect(tea.outstanding == 100)  // 180.5 − 80.5
        #expect(tea.people.map(\.paid) == [35, Decimal(string: "45.5")!])
        #expect(tea.people.map(\.outstanding) == [70, 30])
        #expect(aggregation.groups[1].outstanding == Decimal(string: "6.25")!)
        #expect(aggregation.groups[2].outstanding == 0)
        let amy = aggregation.people[0]
        #expect(amy.outstanding == ["TWD": 70, "USD": Decimal(string: "6.25")!])
        #expect(amy.outstandingByGroup == ["Tea": 70, "Boba": Decimal(string: "6.25")!])
        let ben = aggregation.people[1]
        #expect(ben.outstanding == ["TWD": 30])
        #expect(ben.outstandingByGroup == ["Tea": 30])
    }

    /// Every converted total comes from the aggregate step, exact, in the order of the display currencies.
    @Test func convertsEveryTotalOnceExactly() {
        let rates = RateTable(base: "USD", rates: ["TWD": Decimal(string: "32.125")!], asOf: nil, source: "rter")
        let aggregation = Aggregator.aggregate(Self.data, rates: rates, displayCurrencies: ["USD", "KRW"], baseCurrency: "TWD")
        let converter = Converter(rates: rates)
        let tea = aggregation.groups[0]
        #expect(tea.converted.map(\.currency) == ["USD", "KRW"])
        #expect(tea.converted[0].amount == converter.convert(tea.total, from: "TWD", to: "USD"))
        #expect(tea.converted[0].amount.map { DecimalText.fixed($0, digits: 2) } == "5.62")  // 180.5 TWD
        #expect(tea.converted[1].amount == nil)  // no KRW rate: n/a, never 0
        #expect(tea.people.map { $0.converted[0].amount } == tea.people.map { converter.convert($0.total, from: "TWD", to: "USD") })
        let amy = aggregation.people[0]
        #expect(amy.totalsByGroup == ["Tea": 105, "Boba": Decimal(string: "6.25")!])
        #expect(amy.converted[0].amount == converter.convert(["TWD": 105, "USD": Decimal(string: "6.25")!], to: "USD"))
        #expect(amy.convertedByGroup["Boba"]?[0].amount == Decimal(string: "6.25")!)
        #expect(aggregation.grandOutstanding == aggregation.grandTotals)
        #expect(aggregation.baseUnit.map(\.currency) == ["USD", "KRW"])
        #expect(Aggregator.aggregate(Self.data).groups[0].converted == [])
    }

    /// Each converted amount comes rounded to its currency's minor units (overrides included), once
    /// per distinct amount, and a page formats the rounding it was made for, or else the exact amount.
    @Test(arguments: [([:], "5.62"), (["USD": 0], "6"), (["USD": 3, "TWD": 1], "5.619")])
    func roundsEveryConvertedAmountToItsMinorUnits(overrides: [String: Int], teaInUSD: String) {
        let rates = RateTable(base: "USD", rates: ["TWD": Decimal(string: "32.125")!], asOf: nil, source: "rter")
        let money = MoneyFormat(minorUnitOverrides: overrides)
        let aggregation = Aggregator.aggregate(
            Self.data, rates: rates, displayCurrencies: ["USD", "TWD"], baseCurrency: "TWD", money: money)
        var amounts: [ConvertedAmount] = aggregation.convertedGrandTotals + aggregation.baseUnit
        for group in aggregation.groups { amounts += group.converted + group.people.flatMap(\.converted) }
        for person in aggregation.people {
            amounts += person.converted + person.convertedOutstanding
            amounts += person.convertedByGroup.values.flatMap { $0 }
        }
        #expect(amounts.count == 29)
        for amount in amounts {
            let digits = money.minorUnits(amount.currency)
            #expect(amount.digits == digits)
            #expect(amount.rounded == amount.amount.map { DecimalFixtures.foundation($0, digits) })
            #expect(money.display(amount) == amount.amount.map { DecimalText.fixed($0, digits: digits) } ?? "n/a")
            let other = MoneyFormat(minorUnitOverrides: [amount.currency: digits + 1])
            #expect(other.display(amount) == amount.amount.map { DecimalText.fixed($0, digits: digits + 1) } ?? "n/a")
        }
        #expect(money.display(aggregation.groups[0].converted[0]) == teaInUSD)  // 180.5 TWD
    }
}

@Suite struct ConverterTests {
    static let rates = RateTable(
        base: "USD", rates: ["TWD": Decimal(string: "32.125")!, "JPY": Decimal(string: "154.32")!], asOf: nil, source: "rter")
    static let converter = Converter(rates: rates)
    /// Pages round through `MoneyFormat` only, once per exact total.
    static let format = MoneyFormat(minorUnitOverrides: ["TWD": 0])

    static func displayConverted(_ amounts: [String: Decimal], to currency: String, with converter: Converter = converter) -> String {
        format.display(ConvertedAmount(currency: currency, amount: converter.convert(amounts, to: currency)))
    }

    @Test(arguments: [
        ("90", "TWD", "USD", "2.80"),
        ("90", "TWD", "JPY", "432"),
        ("6.25", "USD", "JPY", "965"),  // exactly 964.5: half-up, not to even
        ("55.50", "USD", "TWD", "1783"),
        ("2210", "TWD", "USD", "68.79"),
        ("100", "TWD", "TWD", "100"),
    ])
    func convertsThroughCrossRatesAndRoundsOnce(amount: String, from: String, to: String, expected: String) {
        #expect(Self.displayConverted([from: Decimal(string: amount)!], to: to) == expected)
    }

    @Test func sumsExactAmountsBeforeRounding() {
        // 0.5 TWD is 0.0156 USD: three lines rounded one by one would make 0.06, the exact sum makes 0.05.
        let exact = Self.converter.convert(["TWD": Decimal(string: "1.5")!], to: "USD")!
        #expect(DecimalText.fixed(exact, digits: 2) == "0.05")
        let perLine = (0..<3).map { _ in Self.format.display(Self.converter.convert(Decimal(string: "0.5")!, from: "TWD", to: "USD")!, "USD") }
        #expect(perLine == ["0.02", "0.02", "0.02"])  // 0.06 if summed after rounding
        #expect(Self.displayConverted(["TWD": 125, "USD": Decimal(string: "10.25")!], to: "JPY") == "2182")
    }

    @Test func missingRateIsNotAvailableNeverZero() {
        #expect(Self.displayConverted(["KRW": 1000], to: "USD") == "n/a")
        #expect(Self.displayConverted(["TWD": 1, "KRW": 1000], to: "USD") == "n/a")
        let none = Converter(rates: nil)
        #expect(Self.displayConverted(["TWD": 1], to: "USD", with: none) == "n/a")
        #expect(MoneyFormat(minorUnitOverrides: [:]).display(ConvertedAmount(currency: "TWD", amount: none.convert(["TWD": 1], to: "TWD"))) == "1.00")
    }

    /// 1 JPY, 0.38 USD and 35 TWD in TWD: added in another order, the exact sum ends in other digits
    /// (…35406 or …354069). The sum is the one in currency order, whatever order the dictionary
    /// holds the amounts in (its capacity alone changes that order).
    @Test func sumsInTheSameOrderWhateverTheDictionarysOrder() throws {
        let amounts: [(String, Decimal)] = [("JPY", 1), ("USD", Decimal(string: "0.38")!), ("TWD", 35)]
        let parts = amounts.map { Self.converter.convert($0.1, from: $0.0, to: "TWD")! }
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        let sums = Set(orders.map { order in order.dropFirst().reduce(parts[order[0]]) { $0 + parts[$1] } })
        try #require(sums.count > 1, "this case must depend on the order of addition")
        let inCurrencyOrder = parts[0] + parts[2] + parts[1]  // JPY, TWD, USD
        var seen: Set<[String]> = []
        // Each capacity orders the keys by the process's random hash seed: with five, all five came out in
        // the same order once in a helper's few runs; with twelve that needs eleven coincidences.
        for capacity in [0, 3, 8, 16, 32, 64, 128, 256, 512, 1000, 2048, 4096] {
            var dictionary = [String: Decimal](minimumCapacity: capacity)
            for (currency, amount) in amounts { dictionary[currency] = amount }
            seen.insert(dictionary.map(\.key))
            #expect(Self.converter.convert(dictionary, to: "TWD") == inCurrencyOrder)
            #expect(Self.converter.converted(dictionary, into: ["TWD"]).first?.amount == inCurrencyOrder)
        }
        try #require(seen.count > 1, "the dictionaries must hold the amounts in more than one order")
    }

    @Test(arguments: [("USD", 2), ("JPY", 0), ("KWD", 3), ("TWD", 0), ("EUR", 2), ("CLF", 4)])
    func usesISOMinorUnitsWithOverrides(currency: String, digits: Int) {
        #expect(Self.format.minorUnits(currency) == digits)
    }
}
