import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressAggregate
import OrderPressTestSupport

/// A conversion whose exact result has a finite decimal expansion is shown as that result rounded
/// half-up once (issue 36, item 15): the oracle here works in 64-bit integers, not through `Converter`.
@Suite struct ConversionExactnessTests {
    /// 12,150 JPY at USDJPY 155.52 is exactly 78.125 USD.
    @Test func halfACentAwayIsRoundedUp() {
        let rates = RateTable(base: "USD", rates: ["JPY": Decimal(string: "155.52")!], asOf: nil, source: "rter")
        let converter = Converter(rates: rates)
        let converted = converter.converted(["JPY": 12_150], into: ["USD"])[0]
        #expect(converted.amount == Decimal(string: "78.125")!)
        #expect(converted.rounded == Decimal(string: "78.13")!)
        // The aggregate step's cache converts the same way.
        let data = Self.oneOrder(price: 12_150, currency: "JPY")
        let aggregation = Aggregator.aggregate(data, rates: rates, displayCurrencies: ["USD"], baseCurrency: "JPY")
        #expect(aggregation.groups[0].converted[0].rounded == Decimal(string: "78.13")!)
        #expect(aggregation.convertedGrandTotals[0].rounded == Decimal(string: "78.13")!)
    }

    static func oneOrder(price: Decimal, currency: String) -> ValidatedData {
        let order = Order(
            row: 2, id: nil, group: "Tea", person: "Amy", personKey: "amy", item: "tea", options: [], quantity: 1, unitPrice: price,
            currency: currency, time: nil, timeText: "", note: "", paid: false)
        let group = Group(name: "Tea", organizer: "", shop: "", currency: currency, deadline: "")
        return ValidatedData(groups: [group], orders: [order], rejected: [], warnings: [], rowsRead: 1, tracksPayments: false)
    }

    /// An amount `k·u / 100` in AAA, rates `(2^i·5^j·u) / 100` AAA and `t / 10^4` BBB per base unit:
    /// the exact amount in BBB is `k·t / (2^i·5^j·10^4)`, a finite decimal, whatever `u` is.
    struct Case: Sendable, CustomStringConvertible {
        var k: Int, u: Int, i: Int, j: Int, t: Int, digits: Int
        var amount: Decimal { Decimal(k * u) / 100 }
        var fromRate: Decimal { Decimal(Self.pow(2, i) * Self.pow(5, j) * u) / 100 }
        var toRate: Decimal { Decimal(t) / 10_000 }
        /// The exact result times 10^digits, rounded half-up, in integers.
        var expectedUnits: Int {
            let numerator = k * t * Self.pow(10, digits)
            let denominator = Self.pow(2, i) * Self.pow(5, j) * 10_000
            return (2 * numerator + denominator) / (2 * denominator)
        }
        var expected: Decimal { Decimal(sign: .plus, exponent: -digits, significand: Decimal(expectedUnits)) }
        var description: String { "\(amount) AAA at \(fromRate) → \(toRate) BBB, \(digits) digits" }

        static func pow(_ base: Int, _ exponent: Int) -> Int { (0..<exponent).reduce(1) { value, _ in value * base } }
    }

    static let cases = Gen.int(in: 1...1_000_000).array(of: 6).map { values in
        Case(
            k: values[0], u: values[1] % 999 + 1, i: values[2] % 9, j: values[3] % 7, t: values[4] % 2_000_000 + 1,
            digits: [0, 2, 3][values[5] % 3])
    }

    @Test func everyExactConversionIsRoundedHalfUpOnce() async {
        await propertyCheck(count: 500, input: Self.cases) { test in
            let rates = RateTable(base: "USD", rates: ["AAA": test.fromRate, "BBB": test.toRate], asOf: nil, source: "json")
            let money = MoneyFormat(minorUnitOverrides: ["BBB": test.digits])
            let converted = Converter(rates: rates, money: money).converted(["AAA": test.amount], into: ["BBB"])[0]
            #expect(converted.rounded == test.expected, "\(test)")
            let aggregation = Aggregator.aggregate(
                Self.oneOrder(price: test.amount, currency: "AAA"), rates: rates, displayCurrencies: ["BBB"], baseCurrency: "AAA", money: money)
            #expect(aggregation.groups[0].people[0].converted[0].rounded == test.expected, "\(test)")
        }
    }
}
