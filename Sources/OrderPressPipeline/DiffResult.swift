import Foundation
import OrderPressDiff
import OrderPressNotify
import OrderPressRender
import OrderPressValidate

/// What the build's diff step hands on, each part for the steps that read it. The rows as the diff
/// compared them, the secret cells and the new snapshot's records are not here: the diff consumed the
/// first two, and the records are staged (`staged`), so that none of them is held while the site renders.
package struct DiffResult: Sendable {
    /// The orders, groups and rejected rows: what aggregate, render, the snapshot's record and the report read.
    var data: ValidatedData
    /// What changed since the last snapshot: the report, the git commit's message.
    var changes: ChangeSet
    /// Runs that changed something, newest first, this one included: render shows it, the snapshot step saves it.
    var history: [HistoryEntry]
    /// The site's random id from the state folder: the feed's id.
    var siteID: UUID
    /// The digests of the valid rows' records, in the order of `data.orders` (see
    /// `OrderDigestTable.recordDigests`): the reuse layer keys each order's pages by them.
    var orderDigests: [RecordDigest]
    /// The new snapshot's records, being written on a thread of their own for the snapshot step; nil on a dry run.
    var staged: StagedSnapshot?
    /// What a person must act on (deletions, newly rejected rows): for notify.
    var news: News
    /// The deletions of the last 30 days that tombstones list (render), and their text for the snapshot
    /// step when it differs from the state's (nil: unchanged).
    var deletions = RecentDeletions()
    var deletionsText: String? = nil
    /// The finished rounds (`RoundArchive`): those the state kept and those this run closed. Published with
    /// every build (render) and saved with the snapshot; not the sheet's, so not in `data`.
    var archives: [RoundArchive] = []
    /// The archives' debts settled by the payments (`PaymentLedger`), made once: tombstones keep debtors'
    /// pages, render shows debts and credit, and the credit is among `data.warnings`.
    var ledger = PaymentLedger.none
    /// Lets go of the orders (render holds them, and frees them with the aggregation once the pages are
    /// made: hundreds of MB at a million orders, not held while publishing ends), returning what the
    /// snapshot's record reads of them later: their number and `nextDeadline`, found now.
    mutating func handOverOrders(nextDeadline: (ValidatedData) -> Date?) -> (count: Int, nextDeadline: Date?) {
        let handedOver = (count: data.orders.count, nextDeadline: nextDeadline(data))
        data.orders = []
        return handedOver
    }
}
