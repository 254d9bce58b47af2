import Foundation

/// Which array of orders a value was made from: `ValidatedData.orders` gets a new generation whenever it
/// is set or changed (`Generational`), and what is known per order by position (`OrderList`'s positions,
/// the reuse layer's `OrderDigestTable`) carries the generation of the orders it was made from. Equal
/// generations: the same orders, so that what is known of one by position holds for the other. Never
/// published or saved: it means something within one process only.
public struct OrdersGeneration: Hashable, Sendable {
    private let value: UInt64

    /// A generation no other value has had in this process.
    package static func next() -> OrdersGeneration {
        counter.lock.withLock {
            counter.last += 1
            return OrdersGeneration(value: counter.last)
        }
    }

    private final class Counter: @unchecked Sendable {
        let lock = NSLock()
        var last: UInt64 = 0
    }

    private static let counter = Counter()
}
