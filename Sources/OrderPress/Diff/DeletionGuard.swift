/// Refuses a build in which too many of the last run's rows vanished: an emptied or wrong sheet
/// looks exactly like that.
struct DeletionGuard: Sendable {
    var maxDeletedFraction: Double

    func check(_ changes: ChangeSet, previousRows: Int) throws(DataError) {
        guard previousRows > 0, !changes.deleted.isEmpty else { return }
        let fraction = Double(changes.deleted.count) / Double(previousRows)
        guard fraction > maxDeletedFraction else { return }
        let percent = Int((maxDeletedFraction * 100).rounded())
        throw DataError(
            message: "\(changes.deleted.count) of the last run's \(previousRows) orders are gone (more than \(percent)%); "
                + "nothing was published. If that is right, run again with --accept-deletions")
    }
}
