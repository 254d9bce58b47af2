import Foundation
import OrderPressSupport

/// What the cells of one page (`PageCell`) share while it is written: the money format with the minor
/// units of the page's few currencies looked up once, the texts of the prices already written, the time
/// zone and the late mark. One per page, made by `PageBuilder` with its model; never shared by two
/// threads.
final class PageFormat {
    package let context: SiteContext
    /// The label after the time of an order made after its group's deadline.
    let lateMark: String
    /// Minor units by currency, for the few currencies of a page.
    private var minorUnits: [(currency: String, digits: Int)] = []
    /// Prices already written on this page: a group page shows the same few prices on line after line,
    /// and each costs a `Decimal` multiplication and `DecimalText.fixed`.
    private var prices: [AmountKey: String] = [:]

    init(_ context: SiteContext, lateMark: String) {
        self.context = context
        self.lateMark = lateMark
    }

    func digits(_ currency: String) -> Int {
        if let known = minorUnits.first(where: { $0.currency == currency }) { return known.digits }
        let digits = context.money.minorUnits(currency)
        minorUnits.append((currency, digits))
        return digits
    }

    /// `value()` as `MoneyFormat.display` writes it, remembered on this page: `price` × `quantity`,
    /// multiplied or not as `value` does (`multiplied`), which with the minor units decides the text.
    func writePrice(
        _ price: Decimal, times quantity: Int, multiplied: Bool, _ currency: String, into page: inout PageBytes, _ value: () -> Decimal
    ) {
        let digits = digits(currency)
        let key = AmountKey(price, quantity: quantity, multiplied: multiplied, digits: digits)
        if let key, let text = prices[key] { return page.write(text) }
        let text = context.money.display(multiplied ? value() : price, digits: digits)
        if let key { prices[key] = text }
        page.write(text)
    }

    /// An amount that is not a price, as `MoneyFormat.display` writes it: written, not remembered.
    package func write(_ amount: Decimal, _ currency: String, into page: inout PageBytes) {
        page.write(context.money.display(amount, digits: digits(currency)))
    }

    /// A converted amount as `MoneyFormat.display` writes it, or "n/a".
    package func write(_ converted: ConvertedAmount, into page: inout PageBytes) {
        page.write(context.money.display(optional: converted, digits: digits(converted.currency)) ?? "n/a")
    }

    /// A price's bits, how many and whether multiplied, and the minor units: equal keys are equal
    /// texts, since equal bits are equal `Decimal`s. Equal amounts may differ in bits (35 and 35.0):
    /// a look-up can miss, never mistake.
    private struct AmountKey: Hashable {
        let low: UInt64
        let high: UInt64
        let rest: UInt32
        let quantity: Int
        let multiplied: Bool
        let digits: Int

        /// Nil where `Decimal` is not the 20 bytes read here.
        init?(_ price: Decimal, quantity: Int, multiplied: Bool, digits: Int) {
            guard MemoryLayout<Decimal>.size == 20 else { return nil }
            (low, high, rest) = withUnsafeBytes(of: price) {
                ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                 $0.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
            }
            (self.quantity, self.multiplied, self.digits) = (quantity, multiplied, digits)
        }
    }
}
