import Foundation

@testable import OrderPressCatalogue
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressAggregate
@testable import OrderPressDiff
@testable import OrderPressRender

extension SiteInput {
    /// Render's input for a site built without a diff step: the payment ledger settled here from
    /// `archives` and the payments, as the diff step settles it.
    package init(
        configuration: Configuration, data: ValidatedData, aggregation: Aggregation, rates: RateTable? = nil, history: [HistoryEntry],
        now: Date, siteID: UUID, archives: [RoundArchive] = [], labels: Labels
    ) {
        self.init(
            configuration: configuration, data: data, aggregation: aggregation, rates: rates, history: history, now: now, siteID: siteID,
            archives: archives, ledger: PaymentLedger(archives: archives, payments: data.payments, configuration: configuration, now: now),
            labels: labels)
    }
}
