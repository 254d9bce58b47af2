/// Refuses a build in which too many of the last run's valid orders are no longer valid orders: gone,
/// or now rejected. An emptied sheet, a wrong tab and a renamed column look exactly like that, and a
/// rejected row counts for nothing in any total, so "now rejected" is as much a loss as "gone".
struct DeletionGuard: Sendable {
    var maxDeletedFraction: Double

    /// `malformedRows` is how many rows of this run could not be split into columns: they are rejected
    /// but kept out of the snapshot (none of their cells is stored), so the change set cannot show them.
    func check(_ changes: ChangeSet, previous: SnapshotIndex?, malformedRows: Int) throws(DataError) {
        let previousValid = previous?.validCount ?? 0
        guard previousValid > 0 else { return }
        // A valid order matched to a rejected row (same id) is now rejected; without an id its content
        // changed, so it shows as deleted while a new rejected row appears: pair those up as well.
        let turnedRejected = changes.changed.count { !$0.before.rejected && $0.after.rejected }
        let deletedValid = changes.deleted.count { !$0.rejected }
        let newRejected = changes.added.count(where: \.rejected) + malformedRows
        let nowRejected = turnedRejected + min(deletedValid, newRejected)
        let lost = turnedRejected + deletedValid
        guard lost > 0, Double(lost) / Double(previousValid) > maxDeletedFraction else { return }
        let how = [(lost - nowRejected, "gone"), (nowRejected, "now rejected")].filter { $0.0 > 0 }
            .map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        let percent = Int((maxDeletedFraction * 100).rounded())
        throw DataError(
            message: "\(lost) of the last run's \(previousValid) orders are no longer valid orders (\(how)), more than \(percent)%; "
                + "nothing was published; if that is right, run again with --accept-deletions")
    }
}
