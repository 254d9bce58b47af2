/// A table's cells as UTF-8 bytes in one buffer, cell after cell, with where each one ends: one allocation
/// for all the texts and eight bytes a cell, where a `String` a cell took sixteen and a heap object for
/// every text longer than fifteen bytes (docs/benchmarks.md). A cell is read as a `String` made on
/// demand (`text`) or as its bytes in place (`withUTF8`, `withView`).
package struct CellStore: Sendable, Equatable {
    /// Every cell's bytes, one after the other.
    package private(set) var bytes: [UInt8] = []
    /// Where each cell's bytes end in `bytes`; a cell starts where the one before it ends.
    package private(set) var ends: [Int] = []

    package init() {}

    package init(_ texts: some Sequence<String>) {
        for text in texts { append(text) }
    }

    /// The number of cells.
    package var count: Int { ends.count }

    /// The bytes of cell `index` in `bytes`.
    @inline(__always)
    package func range(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// Cell `index` as a `String`.
    package func text(_ index: Int) -> String {
        withUTF8(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Cell `index`'s bytes, lent to `body`.
    package func withUTF8<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = range(index)
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The cells lent to `body` as a view that reads them without bounds checks on the arrays: for a
    /// loop over many cells.
    package func withView<R>(_ body: (View) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { bytes in try ends.withUnsafeBufferPointer { ends in try body(View(bytes: bytes, ends: ends)) } }
    }

    /// The store's cells lent in place; valid only inside `withView`.
    package struct View {
        let bytes: UnsafeBufferPointer<UInt8>
        let ends: UnsafeBufferPointer<Int>

        /// The number of cells.
        package var count: Int { ends.count }

        /// The bytes of cell `index`.
        @inline(__always)
        package subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
            let start = index == 0 ? 0 : ends[index - 1]
            return UnsafeBufferPointer(start: bytes.baseAddress.map { $0 + start }, count: ends[index] - start)
        }

        /// Cell `index` as a `String`.
        @inline(__always)
        package func text(_ index: Int) -> String { String(decoding: self[index], as: UTF8.self) }

        /// The bytes of cells `cells`, which lie one after the other.
        @inline(__always)
        package func bytes(_ cells: Range<Int>) -> UnsafeBufferPointer<UInt8> {
            let start = cells.lowerBound == 0 ? 0 : ends[cells.lowerBound - 1]
            let end = cells.isEmpty ? start : ends[cells.upperBound - 1]
            return UnsafeBufferPointer(start: bytes.baseAddress.map { $0 + start }, count: end - start)
        }
    }

    /// Room for `cells` more cells holding `bytes` more bytes, so that a large table is not copied as it grows.
    package mutating func reserveCapacity(cells: Int, bytes: Int) {
        ends.reserveCapacity(ends.count + cells)
        self.bytes.reserveCapacity(self.bytes.count + bytes)
    }

    /// Adds a cell of these bytes.
    @inline(__always)
    package mutating func append(_ cell: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: cell)
        ends.append(Self.end(bytes.count))
    }

    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Adds `count` empty cells.
    package mutating func appendEmpty(count: Int = 1) {
        ends.append(contentsOf: repeatElement(Self.end(bytes.count), count: count))
    }

    /// Adds cells `range` of `other`, in order: their bytes copied at once.
    package mutating func append(_ other: CellStore, cells range: Range<Int>) {
        guard !range.isEmpty else { return }
        let first = other.range(range.lowerBound).lowerBound, last = other.range(range.upperBound - 1).upperBound
        let shift = bytes.count - first
        bytes.append(contentsOf: other.bytes[first..<last])
        ends.append(contentsOf: other.ends[range].lazy.map { $0 + shift })
    }

    /// Drops the last `count` cells and their bytes.
    package mutating func removeLast(_ count: Int) {
        guard count > 0 else { return }
        ends.removeLast(count)
        bytes.removeLast(bytes.count - (ends.last ?? 0))
    }

    /// A cell's end as stored: a whole word, not four bytes, so that no sheet, however its numbers'
    /// exponents grow its cells (`JSONNumberText`), stops the build on a table of more than 4 GiB of text.
    @inline(__always)
    private static func end(_ offset: Int) -> Int { offset }
}
