import OrderPressSupport

/// Refuses a build in which too many of the last run's valid orders are no longer valid orders: gone,
/// or now rejected. An emptied sheet, a wrong tab and a renamed column look exactly like that, and a
/// rejected row counts for nothing in any total, so "now rejected" is as much a loss as "gone".
package struct DeletionGuard: Sendable {
    package var maxDeletedFraction: Double

    /// `newRejectedRows` is how many of this run's rejected rows are new and tied to no order of the last
    /// run (see `LeftoverPairing`), malformed rows included: those could not be split into columns, so
    /// they are kept out of the snapshot (none of their cells is stored) and the change set cannot show them.
    /// `closedOrders`: the last run's orders that went with a round closing in this run. They leave both
    /// sides of the fraction, which is over the rounds still open: closing one group must never let another
    /// lose most of its orders unguarded.
    func check(_ changes: ChangeSet, previous: SnapshotIndex?, newRejectedRows: Int, closedOrders: Int = 0) throws(DataError) {
        let previousValid = (previous?.validCount ?? 0) - closedOrders
        guard previousValid > 0 else { return }
        // An order the diff could tie to a rejected row is no longer counted; one it could not (its row
        // changed past recognition) shows as deleted while a new rejected row appears: pair those up as well.
        let turnedRejected = changes.noLongerCounted.count
        let deletedValid = changes.deleted.count
        let nowRejected = turnedRejected + min(deletedValid, newRejectedRows)
        let lost = turnedRejected + deletedValid
        guard lost > 0, Double(lost) / Double(previousValid) > maxDeletedFraction else { return }
        let how = [(lost - nowRejected, "gone"), (nowRejected, "now rejected")].filter { $0.0 > 0 }
            .map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        let percent = Int((maxDeletedFraction * 100).rounded())
        throw DataError(
            message: "\(lost) of the last run's \(previousValid) orders\(closedOrders > 0 ? " in rounds still open" : "") are no longer valid orders (\(how)), more than \(percent)%; "
                + "nothing was published; if that is right, run again with --accept-deletions",
            refusal: .init(lost: lost, previous: previousValid))
    }
    package init(maxDeletedFraction: Double) {
        self.maxDeletedFraction = maxDeletedFraction
    }
}
