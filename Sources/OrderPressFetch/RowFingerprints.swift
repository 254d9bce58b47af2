import OrderPressSupport

/// Every data row's fingerprint (`SourceTable.rowFingerprint(_:)`), in sheet order: 16 bytes a row in
/// one flat array, so that a million rows' fingerprints take 16 MB and no dictionary of texts. A rerun
/// compares them with the last run's to tell the rows whose cells did not change.
package struct RowFingerprints: Sendable, Equatable {
    package private(set) var values: [Digest128]

    package init(_ values: [Digest128]) { self.values = values }

    /// The fingerprints of the data rows of `table` at `rows` (0-based), or of every one when nil (malformed
    /// rows, which keep no cells, have none), on every core.
    package init(_ table: SourceTable, rows: [Int]? = nil) {
        let count = rows?.count ?? table.dataRowCount
        values = [Digest128](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each range initialises only its own elements.
            nonisolated(unsafe) let buffer = buffer
            _ = Parallel.chunks(count: count, minimumChunk: 5_000) { range in
                for index in range { (buffer.baseAddress! + index).initialize(to: table.rowFingerprint(rows?[index] ?? index)) }
            }
            initialized = count
        }
    }

    package var count: Int { values.count }

    package subscript(row: Int) -> Digest128 { values[row] }
}
