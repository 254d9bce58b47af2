@testable import OrderPressSupport
@testable import OrderPressDiff
@testable import OrderPressValidate

extension Differ {
    /// `compare(taking:previous:keepSecrets:)` on a copy of `sheet`, its secrets kept: the tests compare
    /// one sheet more than once, and the build alone hands over its only copy.
    package func compare(
        _ sheet: ValidatedSheet, previous: PreviousSnapshot?
    ) throws(DataError) -> (snapshot: Snapshot, digests: [RecordDigest], changes: ChangeSet, newRejected: Int) {
        var sheet = sheet
        let compared = try compare(taking: &sheet, previous: previous, keepSecrets: true)
        var snapshot = compared.header
        snapshot.rows = compared.records.all
        return (snapshot, compared.digests, compared.changes, compared.newRejected)
    }
}
