import Foundation

/// Converts exact amounts between currencies through a rate table; the aggregate step converts every
/// total once, and pages only format what it found.
public struct Converter: Sendable {
    public var rates: RateTable?

    public init(rates: RateTable?) {
        self.rates = rates
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
}
