/// Each order's digest for `PageInputs` (the first 16 bytes of the SHA-256 of all its fields) and its
/// group's place, in the order of the orders. They depend on the validated orders alone, so a build
/// makes them beside the aggregation (in `SiteSlugs`, on its own thread, while the aggregation leaves a
/// core idle) rather than at the start of rendering, where a one-order rerun waited for them.
struct OrderDigests: Sendable {
    /// The orders digested: the digests hold for this array, the same storage, and no other.
    private let orders: [Order]
    /// `size` bytes an order.
    let digests: [UInt8]
    /// Each order's group, as its place in `data.groups` (-1 for none).
    let groups: [Int32]

    static let size = 16

    /// On both cores when `parallel`; on the calling thread alone otherwise (beside other work).
    init(_ orders: [Order], places: GroupPlaces, parallel: Bool) {
        self.orders = orders
        let chunk = { (range: Range<Int>) -> ([UInt8], [Int32]) in
            var digests: [UInt8] = []
            digests.reserveCapacity(range.count * Self.size)
            var groups: [Int32] = []
            groups.reserveCapacity(range.count)
            // One buffer for the chunk: a million orders are a million digests.
            var fields = PageInputs.Fields()
            orders.withUnsafeBufferPointer { orders in
                for index in range {
                    fields.clear()
                    PageInputs.add(orders[index], to: &fields)
                    fields.appendDigest(Self.size, to: &digests)
                    groups.append(places.place(orders[index].group).map(Int32.init) ?? -1)
                }
            }
            return (digests, groups)
        }
        let chunks = parallel ? Parallel.chunks(count: orders.count, minimumChunk: 5_000, chunk) : [chunk(0..<orders.count)]
        digests = chunks.count == 1 ? chunks[0].0 : chunks.flatMap(\.0)
        groups = chunks.count == 1 ? chunks[0].1 : chunks.flatMap(\.1)
    }

    /// Whether these are the digests of `orders` (the same array, not a copy of equal orders).
    func hold(for orders: [Order]) -> Bool {
        OrderList(self.orders, positions: []).isPositioned(in: orders)
    }
}
