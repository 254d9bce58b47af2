import OrderPressFetch

extension SourceTable {
    /// The bytes of the cell of data row `row` in column `column`, lent to `body`.
    package func withUTF8<R>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withCells { try body($0[row * headers.count + column]) }
    }
}
