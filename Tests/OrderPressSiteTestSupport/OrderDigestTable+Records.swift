import OrderPressDiff
import OrderPressReuse
import OrderPressValidate

extension OrderDigestTable {
    /// `recordDigests(_:records:digests:)` of records all made afresh.
    package static func recordDigests(_ data: ValidatedData, records: [RowRecord], digests: [RecordDigest]) -> [RecordDigest] {
        recordDigests(data, records: SnapshotRecords(records), digests: digests)
    }
}
