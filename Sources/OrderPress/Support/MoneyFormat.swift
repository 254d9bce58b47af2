import Foundation

/// The one place an exact amount is rounded for display: half-up to its currency's minor units.
public struct MoneyFormat: Sendable {
    public var minorUnitOverrides: [String: Int]

    public init(minorUnitOverrides: [String: Int]) {
        self.minorUnitOverrides = minorUnitOverrides
    }

    public func minorUnits(_ currency: String) -> Int {
        Currency.minorUnits(currency, overrides: minorUnitOverrides)
    }

    /// "2.80", "432".
    public func display(_ amount: Decimal, _ currency: String) -> String {
        DecimalText.fixed(amount, digits: minorUnits(currency))
    }

    /// A converted amount, or "n/a" when a rate was missing.
    public func display(_ converted: ConvertedAmount) -> String {
        display(optional: converted) ?? "n/a"
    }

    /// A converted amount, or nil when a rate was missing (`summary.json` writes null).
    public func display(optional converted: ConvertedAmount) -> String? {
        display(optional: converted, digits: minorUnits(converted.currency))
    }

    /// The same, with the minor units of its currency already looked up.
    func display(optional converted: ConvertedAmount, digits: Int) -> String? {
        Self.shown(converted, digits: digits).map { DecimalText.fixed($0, digits: digits) }
    }

    /// The amount `display(optional:digits:)` writes: the rounding made with the conversion when it
    /// was made to these digits (it then writes the same text with no rounding left to do).
    static func shown(_ converted: ConvertedAmount, digits: Int) -> Decimal? {
        converted.digits == digits ? converted.rounded ?? converted.amount : converted.amount
    }
}
