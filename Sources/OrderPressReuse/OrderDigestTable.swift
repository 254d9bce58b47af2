import OrderPressDiff
import OrderPressSupport
import OrderPressValidate

/// Each order's digest for the pages' keys (`PageKeys`) and its group's place, in the order of the orders.
///
/// A build takes an order's digest from the diff: the digest of its record (`RecordDigest`), which
/// covers every cell of its row that validation reads (the values, the secrets hashed) and what
/// validation made of them (group, person, item, options, quantity, amount, currency). An order is
/// a function of that record, its sheet row and the settings in `PageKeys`' site digest (the time
/// zone, the binary), so the record's 16 bytes and the row identify it, with no hashing of its own.
/// Without records (a test rendering without a diff) every field of the order is hashed instead.
/// Either is made beside the aggregation (in `Pipeline.build`, on the slugs' thread) rather than at the
/// start of rendering, where a one-order rerun waited for them.
package struct OrderDigestTable: Sendable {
    /// What the digests were made from; part of every page's key, so that the two never meet.
    enum Source: Int, Sendable {
        case fields = 1
        case records = 2
    }

    /// Which orders were digested (`ValidatedData.$orders`): the digests hold for those, and no others.
    package let generation: OrdersGeneration
    /// `size` bytes an order: 16 of its digest, then its sheet row (four bytes, little-endian).
    package let digests: [UInt8]
    /// Each order's group, as its place in `data.groups` (-1 for none).
    let groups: [Int32]
    let source: Source

    static let size = 20
    /// The part of an entry the pages' keys take: no group or person page shows an order's sheet row
    /// (summary tables carry none), so a row deleted or inserted above others, which renumbers every row
    /// after it, keeps their pages. `orders.csv`, which shows the row, takes the whole entry.
    static let digestSize = 16

    /// From the diff's records when there is one for every order (`records` in the order of `orders`);
    /// else from the orders' fields. On both cores when `parallel`; on the calling thread alone
    /// otherwise (beside other work).
    /// `generation`: the orders' (`ValidatedData.$orders`); without, the table holds for no orders.
    package init(_ orders: [Order], generation: OrdersGeneration = .next(), records: [RecordDigest] = [], places: GroupPlaces, parallel: Bool) {
        self.generation = generation
        let fromRecords = !orders.isEmpty && records.count == orders.count
        source = fromRecords ? .records : .fields
        let chunk = { (range: Range<Int>) -> ([UInt8], [Int32]) in
            var digests: [UInt8] = []
            digests.reserveCapacity(range.count * Self.size)
            var groups: [Int32] = []
            groups.reserveCapacity(range.count)
            // One buffer for the chunk: a million orders are a million digests.
            var fields = PageKeys.Fields()
            orders.withUnsafeBufferPointer { orders in
                for index in range {
                    if fromRecords {
                        Self.append(records[index], row: orders[index].row, to: &digests)
                    } else {
                        Self.append(orders[index], fields: &fields, to: &digests)
                    }
                    groups.append(places.place(orders[index].group).map(Int32.init) ?? -1)
                }
            }
            return (digests, groups)
        }
        let chunks = parallel ? Parallel.chunks(count: orders.count, minimumChunk: 5_000, chunk) : [chunk(0..<orders.count)]
        digests = chunks.count == 1 ? chunks[0].0 : chunks.flatMap(\.0)
        groups = chunks.count == 1 ? chunks[0].1 : chunks.flatMap(\.1)
    }

    /// The valid rows' record digests (`digests`, the diff's, one a record of `records`, which are made of
    /// the sheet's rows in its order) in the order of `data`'s orders: each valid row made the order at its
    /// place among the valid rows. Checked by sheet row, and given up (empty) on any mismatch, when the
    /// orders' fields are digested instead.
    package static func recordDigests(_ data: ValidatedData, records: SnapshotRecords, digests: [RecordDigest]) -> [RecordDigest] {
        guard records.count == digests.count else { return [] }
        var result: [RecordDigest] = []
        result.reserveCapacity(data.orders.count)
        for index in records.indices where !records.rejected(index) {
            guard result.count < data.orders.count, data.orders[result.count].row == records.row(index) else { return [] }
            result.append(digests[index])
        }
        return result.count == data.orders.count ? result : []
    }

    /// Whether these are the digests of the orders of generation `orders` (`ValidatedData.$orders`).
    func hold(for orders: OrdersGeneration) -> Bool {
        generation == orders
    }

    /// An order's entry made from its fields; `fields` is scratch space.
    static func append(_ order: borrowing Order, fields: inout PageKeys.Fields, to digests: inout [UInt8]) {
        fields.reset()
        PageKeys.add(order, to: &fields)
        fields.appendDigest(16, to: &digests)
        append(row: order.row, to: &digests)
    }

    private static func append(_ record: RecordDigest, row: Int, to digests: inout [UInt8]) {
        record.value.withBytes { digests += $0 }
        append(row: row, to: &digests)
    }

    private static func append(row: Int, to digests: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: row).littleEndian) { digests += $0 }
    }
}
