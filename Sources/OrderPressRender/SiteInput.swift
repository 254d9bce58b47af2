import Foundation
import OrderPressAggregate
import OrderPressCatalogue
import OrderPressConfig
import OrderPressDiff
import OrderPressFetch
import OrderPressValidate

/// Everything render makes the site from, as one value: what the steps before it handed on.
/// `SiteRenderer` makes a `SiteContext` of it, which holds it and reads its fields through it: a field
/// added here is the page builders' too.
package struct SiteInput: Sendable {
    package var configuration: Configuration
    /// The orders, groups and rejected rows (the diff's rows and secret cells are not here).
    package var data: ValidatedData
    package var aggregation: Aggregation
    package var rates: RateTable?
    /// Runs that changed something, newest first.
    package var history: [HistoryEntry]
    /// The build's time: whether the rates are stale.
    package var now: Date
    /// The site's random id from the state folder: the feed's id.
    package var siteID: UUID
    /// The finished rounds (`RoundArchive`), from the state: their pages, the index's list, carried debts.
    package var archives: [RoundArchive] = []
    /// What people still owe and paid beyond it, settled once after the diff.
    package var ledger: PaymentLedger
    /// The site's words (its language with `[labels]` applied), made once at the configure step.
    package var labels: Labels
    /// The pages' file names, made while the orders were aggregated; nil makes them from `data` alone.
    package var slugs: SiteSlugs? = nil
    /// The pages kept after their orders were deleted, made beside the slugs; nil makes them from `history`.
    package var tombstones: Tombstones? = nil
    package init(configuration: Configuration, data: ValidatedData, aggregation: Aggregation, rates: RateTable? = nil, history: [HistoryEntry], now: Date, siteID: UUID, archives: [RoundArchive] = [], ledger: PaymentLedger, labels: Labels, slugs: SiteSlugs? = nil, tombstones: Tombstones? = nil) {
        self.configuration = configuration
        self.data = data
        self.aggregation = aggregation
        self.rates = rates
        self.history = history
        self.now = now
        self.siteID = siteID
        self.archives = archives
        self.ledger = ledger
        self.labels = labels
        self.slugs = slugs
        self.tombstones = tombstones
    }
}
