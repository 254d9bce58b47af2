import OrderPressValidate

/// Some of the validated orders, in sheet order, held as positions in the one array of all orders
/// (`ValidatedData.orders`) rather than as copies: a group's and a person's orders would otherwise
/// be two more copies of every order (hundreds of MB at a million orders).
/// Reads like an array of `Order`; two lists are equal when they hold equal orders in the same order.
public struct OrderList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    /// Shared with `ValidatedData.orders` and every other list: one reference, not a copy.
    private let all: [Order]
    /// Positions in `all`, ascending; 32 bits, since a sheet holds at most 10 million cells.
    package let positions: [UInt32]
    /// Which orders `all` is (`ValidatedData.$orders`): a list made of any other array has one of its own.
    package let generation: OrdersGeneration

    /// The orders of `all` at `positions` (each below `all.count`), in that order; `generation`: the
    /// generation of `all` when it is `ValidatedData.orders`.
    package init(_ all: [Order], positions: [UInt32], generation: OrdersGeneration = .next()) {
        precondition(positions.allSatisfy { Int($0) < all.count }, "an order position must be in the array")
        self.all = all
        self.positions = positions
        self.generation = generation
    }

    /// A list of exactly these orders.
    public init(_ orders: [Order]) {
        self.init(orders, positions: (0..<orders.count).map { UInt32($0) })
    }

    public init(arrayLiteral orders: Order...) {
        self.init(orders)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { positions.count }
    public subscript(index: Int) -> Order { all[Int(positions[index])] }

    /// The order at `index`, read where it is stored (see `Array.withOrder(at:_:)`).
    package func withOrder<Result>(at index: Int, _ body: (UnsafePointer<Order>) -> Result) -> Result {
        all.withOrder(at: Int(positions[index]), body)
    }

    /// Whether `positions` are places in the orders of generation `orders` (`ValidatedData.$orders`), so
    /// that whatever is known per order of those, by position, holds for these.
    package func isPositioned(in orders: OrdersGeneration) -> Bool {
        generation == orders
    }

    public static func == (left: OrderList, right: OrderList) -> Bool {
        left.count == right.count && left.elementsEqual(right)
    }
}

extension Array where Element == Order {
    /// The order at `position`, read where it is stored: an `Order` holds nine strings and arrays, and
    /// `orders[position]`, or handing a closure the order itself, copies it, retaining and releasing each
    /// (a visible share of a full build when the pages took their orders that way, a million times
    /// over in the aggregation). Through a pointer only the fields read are copied.
    package func withOrder<Result>(at position: Int, _ body: (UnsafePointer<Order>) -> Result) -> Result {
        withUnsafeBufferPointer { body($0.baseAddress! + position) }
    }
}
