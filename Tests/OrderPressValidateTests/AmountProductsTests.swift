import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
import OrderPressTestSupport

/// `AmountProducts` gives every order the very amount `Order.amount` gives it, value and form (its exact
/// text), however many orders share a price and quantity, and whatever forms equal prices take ("5.5", "5.50").
@Suite struct AmountProductsTests {
    static let prices = ["35", "5.5", "5.50", "5.500", "0.1", "0.10", "1e2", "100", "-3.25", "0", "0.000", "18446744073709551615", "99999999999999999999.99"]

    static func order(price: String, quantity: Int) -> Order {
        Order(
            row: 2, id: nil, group: "g", person: "p", personKey: "p", item: "i", options: [], quantity: quantity,
            unitPrice: Decimal(string: price, locale: Locale(identifier: "en_US_POSIX"))!, currency: "TWD", time: nil, timeText: "",
            note: "")
    }

    static let orders = Generator<[Order], Shrink.None<[Order]>> { rng in
        (0..<Int.random(in: 1...40, using: &rng)).map { _ in
            order(price: prices.randomElement(using: &rng)!, quantity: [1, 2, 3, 12, -1, 0, 1_000_000].randomElement(using: &rng)!)
        }
    }

    @Test func aProductFoundIsTheProductMade() async {
        await propertyCheck(count: 300, input: Self.orders) { orders in
            var products = AmountProducts()
            for order in orders {
                let amount = products.amount(of: order)
                #expect(amount == order.amount)
                #expect(DecimalText.exact(amount) == DecimalText.exact(order.amount), "\(order.unitPrice) × \(order.quantity)")
            }
        }
    }

    /// Equal prices in other forms are other keys: each product keeps its own form, asked first or again.
    @Test func equalPricesOfOtherFormsAreKeptApart() {
        let forms = ["5.5", "5.50", "5.500"]
        var products = AmountProducts()
        for form in forms + forms.reversed() {
            let order = Self.order(price: form, quantity: 2)
            #expect(DecimalText.exact(products.amount(of: order)) == DecimalText.exact(order.amount), "\(form)")
        }
    }
}
