import OrderPressSupport

/// Every data row's fingerprint (`SourceTable.rowFingerprint(_:)`), in sheet order: 16 bytes a row in
/// one flat array, so that a million rows' fingerprints take 16 MB and no dictionary of texts. A rerun
/// compares them with the last run's to tell the rows whose cells did not change.
package struct RowFingerprints: Sendable, Equatable {
    package private(set) var values: [Digest128]

    package init(_ values: [Digest128]) { self.values = values }

    /// The fingerprints of every data row of `table` (malformed rows, which keep no cells, have none).
    package init(_ table: SourceTable) {
        values = (0..<table.dataRowCount).map(table.rowFingerprint)
    }

    package var count: Int { values.count }

    package subscript(row: Int) -> Digest128 { values[row] }
}
