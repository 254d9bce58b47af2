import Foundation

/// Converts exact amounts between currencies through a rate table; the aggregate step converts every
/// total once, and pages only format what it found.
public struct Converter: Sendable {
    public var rates: RateTable?
    public var minorUnitOverrides: [String: Int]

    public init(rates: RateTable?, minorUnitOverrides: [String: Int]) {
        self.rates = rates
        self.minorUnitOverrides = minorUnitOverrides
    }

    /// The exact sum of `amounts` (by currency) in `currency`, or nil when a rate is missing.
    public func convert(_ amounts: [String: Decimal], to currency: String) -> Decimal? {
        var sum: Decimal = 0
        for (from, amount) in amounts {
            guard let converted = convert(amount, from: from, to: currency) else { return nil }
            sum += converted
        }
        return sum
    }

    public func convert(_ amount: Decimal, from: String, to: String) -> Decimal? {
        if from == to { return amount }
        guard let factor = rates?.factor(from: from, to: to) else { return nil }
        return amount * factor
    }

    /// The exact sum of `amounts` in each of `currencies`, in that order.
    public func converted(_ amounts: [String: Decimal], into currencies: [String]) -> [ConvertedAmount] {
        currencies.map { ConvertedAmount(currency: $0, amount: convert(amounts, to: $0)) }
    }

    private var format: MoneyFormat { MoneyFormat(minorUnitOverrides: minorUnitOverrides) }

    public func minorUnits(_ currency: String) -> Int { format.minorUnits(currency) }

    /// The amount rounded for display: see `MoneyFormat`.
    public func display(_ amount: Decimal, _ currency: String) -> String { format.display(amount, currency) }

    /// The converted amount for display, or "n/a" when a rate is missing.
    public func displayConverted(_ amounts: [String: Decimal], to currency: String) -> String {
        format.display(ConvertedAmount(currency: currency, amount: convert(amounts, to: currency)))
    }
}
