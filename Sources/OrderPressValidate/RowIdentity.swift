import OrderPressSupport

/// The rule that identifies a row across runs: its id when no other row of the sheet uses it, else its
/// content, so that identical rows form a multiset. Paying is not a new order, so neither the `paid`
/// column nor the id itself is content.
package struct RowIdentity: Sendable {
    /// A content column: where its value is among the row's values, and what precedes the value
    /// (`content:` or the unit separator, then `<column>=`).
    private struct Part: Sendable {
        var prefix: [UInt8]
        var position: Int
    }

    /// The content columns in column-name order, found once per table.
    private let content: [Part]

    package init(columns: [String], idColumn: String, paidColumn: String) {
        content = columns.enumerated().filter { $0.element != idColumn && $0.element != paidColumn }
            .sorted { $0.element < $1.element }
            .enumerated().map { index, column in Part(prefix: Array(((index == 0 ? "" : "\u{1F}") + column.element + "=").utf8), position: column.offset) }
    }

    private static let start: StaticString = "content:"

    /// The bytes of a row's content identity, written at the size worked out first on the stack (a heap block past
    /// a few kilobytes): made by interpolating and joining, a Form's row (a dozen question titles) was
    /// slow to make; kept as a String, every row's (the titles again in each) hundreds of MB at a
    /// million rows (docs/benchmarks.md). Records make it when it is stored (`Identity`).
    func withContent<Result>(of values: [String], _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var size = Self.start.utf8CodeUnitCount
        for part in content { size += part.prefix.count + values[part.position].utf8.count }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { buffer in
            var offset = 0
            func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
                UnsafeMutableRawPointer(buffer.baseAddress! + offset).copyMemory(from: base, byteCount: bytes.count)
                offset += bytes.count
            }
            put(UnsafeBufferPointer(start: Self.start.utf8Start, count: Self.start.utf8CodeUnitCount))
            for part in content {
                part.prefix.withUnsafeBufferPointer(put)
                Text.withUTF8(values[part.position], put)
            }
            return body(UnsafeBufferPointer(rebasing: buffer[..<offset]))
        }
    }

    /// How many bytes `withContent(of:_:)` gives, without making them.
    func contentSize(of values: [String]) -> Int {
        content.reduce(Self.start.utf8CodeUnitCount) { $0 + $1.prefix.count + values[$1.position].utf8.count }
    }
}
