import Foundation

/// "3 × 熟成紅茶 L 半糖 少冰", at one unit price.
public struct ShopLine: Sendable, Equatable {
    public var item: String
    public var options: [String]
    public var quantity: Int
    /// Identical items at different prices are separate lines, so each line's total is checkable.
    public var unitPrice: Decimal = 0

    public var lineTotal: Decimal { unitPrice * Decimal(quantity) }

    /// The line as the organiser reads it out.
    public var text: String { (["\(quantity) ×", item] + options).joined(separator: " ") }
    package init(item: String, options: [String], quantity: Int, unitPrice: Decimal = 0) {
        self.item = item
        self.options = options
        self.quantity = quantity
        self.unitPrice = unitPrice
    }
}
