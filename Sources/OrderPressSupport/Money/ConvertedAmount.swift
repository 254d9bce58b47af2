import Foundation

/// An exact amount converted into one display currency; nil when the rate table lacks a currency.
/// Lists of them follow `display_currencies`, so pages show the columns in the configured order.
public struct ConvertedAmount: Sendable, Equatable {
    public var currency: String
    public var amount: Decimal?
    /// `amount` rounded half-up to `digits` fraction digits, the currency's minor units: what pages
    /// and `summary.json` show. A converted amount has some 38 significant digits, and rounding one
    /// through Foundation is slow: the aggregate step rounds each distinct
    /// amount once instead of every page rounding it again.
    public private(set) var rounded: Decimal?
    public private(set) var digits: Int?

    public init(currency: String, amount: Decimal?) {
        self.currency = currency
        self.amount = amount
    }

    package init(currency: String, amount: Decimal?, rounded: Decimal?, digits: Int) {
        (self.currency, self.amount, self.rounded, self.digits) = (currency, amount, rounded, digits)
    }
}
