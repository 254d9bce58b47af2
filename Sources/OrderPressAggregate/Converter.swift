import Foundation
import OrderPressFetch
import OrderPressSupport

/// Converts exact amounts between currencies through a rate table; the aggregate step converts every
/// total once, and pages only format what it found.
public struct Converter: Sendable {
    public let rates: RateTable?
    /// Cross rates looked up once: an aggregation converts thousands of totals with a handful of them.
    private let factors: [Pair: RateTable.CrossRate?]

    private struct Pair: Hashable {
        var from: String
        var to: String
    }

    /// Rounds each converted amount to its currency's minor units.
    package let money: MoneyFormat

    public init(rates: RateTable?, money: MoneyFormat = MoneyFormat(minorUnitOverrides: [:])) {
        self.rates = rates
        self.money = money
        factors = [:]
    }

    /// With the factors between every two of `currencies` computed up front.
    package init(rates: RateTable?, money: MoneyFormat, precomputing currencies: Set<String>) {
        self.rates = rates
        self.money = money
        var factors: [Pair: RateTable.CrossRate?] = [:]
        for from in currencies {
            for to in currencies where to != from {
                factors[Pair(from: from, to: to)] = .some(rates?.crossRate(from: from, to: to))
            }
        }
        self.factors = factors
    }

    /// The exact sum of `amounts` (by currency) in `currency`, or nil when a rate is missing.
    public func convert(_ amounts: [String: Decimal], to currency: String) -> Decimal? {
        var sum: Decimal = 0
        for (from, amount) in Self.inOrder(amounts) {
            guard let converted = convert(amount, from: from, to: currency) else { return nil }
            sum += converted
        }
        return sum
    }

    public func convert(_ amount: Decimal, from: String, to: String) -> Decimal? {
        if from == to { return amount }
        return crossRate(from: from, to: to)?.convert(amount)
    }

    /// The cross rate from `from` to `to`; nil when a rate is missing.
    func crossRate(from: String, to: String) -> RateTable.CrossRate? {
        factors[Pair(from: from, to: to)] ?? rates?.crossRate(from: from, to: to)
    }

    /// The exact sum of `amounts` in each of `currencies`, in that order, and its rounding to the
    /// currency's minor units.
    public func converted(_ amounts: [String: Decimal], into currencies: [String]) -> [ConvertedAmount] {
        currencies.map { rounding(convert(amounts, to: $0), in: $0) }
    }

    /// The amounts by currency code. A sum of 38-digit conversions rounds its last digit differently in
    /// another order, and a dictionary's order changes from process to process: summed in this one,
    /// the same totals make the same exact sums on every run.
    static func inOrder(_ amounts: [String: Decimal]) -> [(key: String, value: Decimal)] {
        amounts.count < 2 ? Array(amounts) : amounts.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// `exact` and its rounding to the minor units of `currency`.
    private func rounding(_ exact: Decimal?, in currency: String) -> ConvertedAmount {
        let digits = money.minorUnits(currency)
        return ConvertedAmount(
            currency: currency, amount: exact, rounded: exact.map { MoneyFormat.rounded($0, digits: digits) }, digits: digits)
    }
}
