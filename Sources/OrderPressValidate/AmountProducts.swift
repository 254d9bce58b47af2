import Foundation
import OrderPressSupport

/// Orders' amounts (quantity × unit price) as the diff's rows state them, each distinct product worked
/// out once: Foundation's Decimal multiplication is costly, and was done for every order of more
/// than one, and a sheet's orders pick from a few prices and quantities. Keyed by the price's stored
/// form (`RawDecimal`: equal keys are the same Decimal, value and form), so a product found is the very
/// Decimal `Order.amount` would give. One per range of rows, on its own thread.
struct AmountProducts {
    private struct Key: Hashable {
        var price: RawDecimal
        var quantity: Int
    }

    private var known: [Key: Decimal] = [:]

    /// `order.amount`.
    mutating func amount(of order: borrowing Order) -> Decimal {
        guard order.quantity != 1, let price = RawDecimal(order.unitPrice) else { return order.amount }
        let key = Key(price: price, quantity: order.quantity)
        if let amount = known[key] { return amount }
        let amount = order.amount
        known[key] = amount
        return amount
    }
}
