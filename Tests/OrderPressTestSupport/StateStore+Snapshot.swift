@testable import OrderPressSupport
@testable import OrderPressDiff

extension StateStore {
    /// The last snapshot with every record read, or nil before the first build (a build reads them on
    /// demand, `loadPrevious`).
    package func loadSnapshot() throws(DataError) -> Snapshot? {
        guard let index = try contents().snapshot else { return nil }
        var snapshot = index.header
        snapshot.rows = try records(at: Array(index.records.indices))
        return snapshot
    }
}
