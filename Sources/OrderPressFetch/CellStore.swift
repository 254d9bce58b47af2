/// A table's cells as UTF-8 bytes in one buffer, cell after cell, with where each one ends: one allocation
/// for all the texts and four bytes a cell, where a `String` a cell took sixteen and a heap object for
/// every text longer than fifteen bytes (docs/benchmarks.md). A cell is read as a `String` made on
/// demand (`text`) or as its bytes in place (`withUTF8`, `withView`).
package struct CellStore: Sendable, Equatable {
    /// Every cell's bytes, one after the other.
    package private(set) var bytes: [UInt8] = []
    /// Where each cell's bytes end in `bytes`, less the whole units of `1 << unitBits` that `wraps`
    /// counts: four bytes a cell, not a word, since the ends are held through validation, where a million
    /// rows' build peaks (docs/benchmarks.md); and still no limit on a table's text, however its numbers'
    /// exponents grow its cells (`JSONNumberText`).
    private var ends: [UInt32] = []
    /// For each whole unit of `1 << unitBits` bytes, the first cell ending at or past it, ascending: a
    /// cell's end is its entry of `ends` plus one unit for each entry here at or before it. Empty below
    /// 4 GiB of text.
    private var wraps: [Int] = []
    /// 32 but in tests, which wrap every few bytes.
    private let unitBits: Int

    package init() { unitBits = 32 }

    package init(_ texts: some Sequence<String>) {
        self.init()
        for text in texts { append(text) }
    }

    /// An empty store whose ends wrap every `1 << unitBits` bytes (tests).
    init(unitBits: Int) {
        precondition((1...32).contains(unitBits), "a unit fits the four bytes of an end")
        self.unitBits = unitBits
    }

    /// The number of cells.
    package var count: Int { ends.count }

    /// The bytes of cell `index` in `bytes`.
    @inline(__always)
    package func range(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : end(index - 1))..<end(index)
    }

    /// Where cell `index`'s bytes end in `bytes`.
    @inline(__always)
    func end(_ index: Int) -> Int {
        wraps.isEmpty ? Int(ends[index]) : wraps.withUnsafeBufferPointer { Self.end(index, ends[index], wraps: $0, unitBits: unitBits) }
    }

    /// The end stored as `stored` for cell `index`, with the units `wraps` adds before it.
    @inline(__always)
    static func end(_ index: Int, _ stored: UInt32, wraps: UnsafeBufferPointer<Int>, unitBits: Int) -> Int {
        var units = 0
        for wrap in wraps {
            guard wrap <= index else { break }
            units += 1
        }
        return Int(stored) + units << unitBits
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
        try bytes.withUnsafeBufferPointer { bytes in
            try ends.withUnsafeBufferPointer { ends in
                try wraps.withUnsafeBufferPointer { wraps in try body(View(bytes: bytes, ends: ends, wraps: wraps, unitBits: unitBits)) }
            }
        }
    }

    /// The store's cells lent in place; valid only inside `withView`.
    package struct View {
        let bytes: UnsafeBufferPointer<UInt8>
        let ends: UnsafeBufferPointer<UInt32>
        let wraps: UnsafeBufferPointer<Int>
        let unitBits: Int

        /// The number of cells.
        package var count: Int { ends.count }

        @inline(__always)
        func end(_ index: Int) -> Int {
            wraps.isEmpty ? Int(ends[index]) : CellStore.end(index, ends[index], wraps: wraps, unitBits: unitBits)
        }

        /// The bytes of cell `index`.
        @inline(__always)
        package subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
            let start = index == 0 ? 0 : end(index - 1)
            return UnsafeBufferPointer(start: bytes.baseAddress.map { $0 + start }, count: end(index) - start)
        }

        /// Cell `index` as a `String`.
        @inline(__always)
        package func text(_ index: Int) -> String { String(decoding: self[index], as: UTF8.self) }

        /// The bytes of cells `cells`, which lie one after the other.
        @inline(__always)
        package func bytes(_ cells: Range<Int>) -> UnsafeBufferPointer<UInt8> {
            let start = cells.lowerBound == 0 ? 0 : end(cells.lowerBound - 1)
            let end = cells.isEmpty ? start : end(cells.upperBound - 1)
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
        appendEnd(bytes.count)
    }

    /// Adds the end of a cell, `end` bytes into `bytes`.
    @inline(__always)
    private mutating func appendEnd(_ end: Int) {
        while end >> unitBits > wraps.count { wraps.append(ends.count) }
        ends.append(UInt32(truncatingIfNeeded: end & (1 << unitBits - 1)))
    }

    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Adds `count` empty cells.
    package mutating func appendEmpty(count: Int = 1) {
        guard count > 0 else { return }
        appendEnd(bytes.count)
        ends.append(contentsOf: repeatElement(ends.last!, count: count - 1))
    }

    /// Adds cells `range` of `other`, in order: their bytes copied at once.
    package mutating func append(_ other: CellStore, cells range: Range<Int>) {
        guard !range.isEmpty else { return }
        let first = other.range(range.lowerBound).lowerBound, last = other.range(range.upperBound - 1).upperBound
        let shift = bytes.count - first
        bytes.append(contentsOf: other.bytes[first..<last])
        if other.wraps.isEmpty, wraps.isEmpty, other.unitBits == unitBits, bytes.count >> unitBits == 0 {
            // No end reaches a unit: each is the other's, shifted (the usual case, a table's parts joined).
            ends.append(contentsOf: other.ends[range].lazy.map { UInt32(truncatingIfNeeded: Int($0) + shift) })
        } else {
            ends.reserveCapacity(ends.count + range.count)
            for index in range { appendEnd(other.end(index) + shift) }
        }
    }

    /// Drops the last `count` cells and their bytes.
    package mutating func removeLast(_ count: Int) {
        guard count > 0 else { return }
        ends.removeLast(count)
        while let wrap = wraps.last, wrap >= ends.count { wraps.removeLast() }
        bytes.removeLast(bytes.count - (ends.isEmpty ? 0 : end(ends.count - 1)))
    }
}
