import Foundation

/// Converts exact amounts between currencies through a rate table, and rounds them for display.
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

    public func minorUnits(_ currency: String) -> Int {
        Currency.minorUnits(currency, overrides: minorUnitOverrides)
    }

    /// The amount rounded half-up to the currency's minor units: "2.80", "432".
    public func display(_ amount: Decimal, _ currency: String) -> String {
        DecimalText.fixed(amount, digits: minorUnits(currency))
    }

    /// The converted amount for display, or "n/a" when a rate is missing.
    public func displayConverted(_ amounts: [String: Decimal], to currency: String) -> String {
        convert(amounts, to: currency).map { display($0, currency) } ?? "n/a"
    }
}
