import Foundation

/// An exact amount converted into one display currency; nil when the rate table lacks a currency.
/// Lists of them follow `display_currencies`, so pages show the columns in the configured order.
public struct ConvertedAmount: Sendable, Equatable {
    public var currency: String
    public var amount: Decimal?
}
