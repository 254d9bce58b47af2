import Foundation
import PropertyBased
import Testing

@testable import OrderPressAggregate
import OrderPressTestSupport

/// The aggregate step's conversions, remembered by millionths and currency numbers
/// (`ConversionCache`), against converting afresh through `Converter.converted(_:into:)`, to the
/// last digit of the exact amount: rates whose cross factors have 38 digits (so that a sum of
/// conversions depends on the order it is added in), a currency without a rate, equal amounts
/// in several forms, amounts finer than millionths or beyond 64 bits of them.
@Suite struct ConversionCacheTests {
    static let codes = ["USD", "TWD", "JPY", "KRW"]
    static let display = ["USD", "TWD", "JPY", "KRW"]
    static let converter = Converter(
        rates: ConverterTests.rates, money: ConverterTests.format, precomputing: Set(codes))

    /// `text` summed as the aggregation sums an order's amount.
    static func sum(_ text: String) -> ExactSum {
        sum(Decimal(string: text)!)
    }

    static func sum(_ amount: Decimal) -> ExactSum {
        var sum = ExactSum()
        sum.add(micros: ExactSum.micros(of: amount)) { amount }
        return sum
    }

    /// Amounts that repeat in equal and different forms (35, 35.0, 35.000000), and a few that are no
    /// whole number of millionths or too large for 64 bits of them.
    static func amount(_ seed: Int) -> Decimal {
        switch seed % 11 {
        case 9: return Decimal(string: "0.0000001")! * Decimal(seed)
        case 10: return Decimal(string: "99999999999999.5")! + Decimal(seed)
        default:
            let base = Decimal(seed % 8 * 5 + 1) / 4
            return Decimal(
                sign: seed % 7 == 0 ? .minus : .plus, exponent: base.exponent - [0, 1, 6][seed % 3],
                significand: base.significand * [1, 10, 1_000_000][seed % 3])
        }
    }

    @Test func rememberedConversionsAreFreshOnes() async {
        let table = ConversionCache.Table(converter: Self.converter, first: ["TWD", "JPY"], others: ["USD", ""], display: Self.display)
        let lists = Gen.int(in: 0...60).array(of: 1...4).array(of: 1...40)
        await propertyCheck(count: 100, input: lists) { lists in
            var cache = ConversionCache(table)
            for seeds in lists {
                // Each currency once, its amounts summed as the aggregation sums them.
                var sums: [String: ExactSum] = [:]
                for (index, seed) in seeds.enumerated() {
                    let amount = Self.amount(seed)
                    sums[Self.codes[(seed + index) % Self.codes.count], default: ExactSum()].add(micros: ExactSum.micros(of: amount)) { amount }
                }
                let fresh = Self.converter.converted(sums.mapValues(\.value), into: Self.display)
                let parts = sums.map { (table.number($0.key), $0.value) }
                #expect(cache.converted(parts) == fresh, "\(sums.mapValues(\.value))")
                if let (currency, single) = sums.first, sums.count == 1 {
                    #expect(cache.converted(single, in: table.number(currency)) == fresh, "\(single.value)")
                }
            }
        }
    }

    /// 1 JPY, 0.38 USD and 35 TWD in TWD: added in another order, the exact sum ends in other digits.
    /// The cache adds them in the order of their codes, whatever order the parts come in.
    @Test(arguments: [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
    func sumsInTheOrderOfTheCodesWhateverTheOrderOfTheParts(order: [Int]) throws {
        let amounts: [(String, Decimal)] = [("JPY", 1), ("USD", Decimal(string: "0.38")!), ("TWD", 35)]
        let parts = amounts.map { ConverterTests.converter.convert($0.1, from: $0.0, to: "TWD")! }
        try #require(parts[0] + parts[1] + parts[2] != parts[0] + parts[2] + parts[1], "this case must depend on the order of addition")
        let table = ConversionCache.Table(converter: ConverterTests.converter, first: ["TWD", "USD", "JPY"], others: [], display: ["TWD"])
        var cache = ConversionCache(table)
        let given = order.map { (table.number(amounts[$0].0), Self.sum(amounts[$0].1)) }
        #expect(cache.converted(given).first?.amount == parts[0] + parts[2] + parts[1])  // JPY, TWD, USD
    }

    /// A currency no rate table names (a group's currency left empty): every conversion is n/a.
    @Test func aCurrencyWithoutARateConvertsToNothing() {
        let table = ConversionCache.Table(converter: Self.converter, first: ["TWD"], others: [""], display: ["USD", "TWD"])
        var cache = ConversionCache(table)
        let converted = cache.converted(Self.sum("35"), in: table.number(""))
        #expect(converted == Self.converter.converted(["": 35], into: ["USD", "TWD"]))
        #expect(converted.map(\.amount) == [nil, nil])
    }
}
