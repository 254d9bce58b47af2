/// The rule that identifies a row across runs: its id when no other row of the sheet uses it, else its
/// content, so that identical rows form a multiset. Paying is not a new order, so neither the `paid`
/// column nor the id itself is content.
struct RowIdentity {
    /// Positions in the row's values of the content columns, in column-name order, found once per table,
    /// each with what precedes its value: `content:` or the unit separator, then `<column>=`.
    private let content: [(prefix: [UInt8], position: Int)]

    init(columns: [String], idColumn: String, paidColumn: String) {
        content = columns.enumerated().filter { $0.element != idColumn && $0.element != paidColumn }
            .sorted { $0.element < $1.element }
            .enumerated().map { index, column in (Array(((index == 0 ? "" : "\u{1F}") + column.element + "=").utf8), column.offset) }
    }

    /// `id:<id>` or `content:<column>=<value>…` (the unit separator between columns); `idCount` is how
    /// many rows of the sheet use `id`. The identities in a state folder are in this form. Written into
    /// one String of the size worked out first: made by interpolating and joining, a Form's row (a
    /// dozen question titles) cost 17,000 instructions, every row of every run.
    func identity(id: String, idCount: Int, values: [String]) -> String {
        if !id.isEmpty, idCount == 1 { return "id:\(id)" }
        let start: StaticString = "content:"
        var size = start.utf8CodeUnitCount
        for column in content { size += column.prefix.count + values[column.position].utf8.count }
        return String(unsafeUninitializedCapacity: size) { buffer in
            var offset = 0
            func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
                UnsafeMutableRawPointer(buffer.baseAddress! + offset).copyMemory(from: base, byteCount: bytes.count)
                offset += bytes.count
            }
            put(UnsafeBufferPointer(start: start.utf8Start, count: start.utf8CodeUnitCount))
            for column in content {
                column.prefix.withUnsafeBufferPointer(put)
                Text.withUTF8(values[column.position], put)
            }
            return offset
        }
    }
}
