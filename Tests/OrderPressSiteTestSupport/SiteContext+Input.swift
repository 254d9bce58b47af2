import Foundation

@testable import OrderPressCatalogue
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressAggregate
@testable import OrderPressDiff
@testable import OrderPressRender

extension SiteContext {
    /// The context render makes of these inputs, the site's words made from `configuration`.
    package init(
        configuration: Configuration, data: ValidatedData, aggregation: Aggregation, rates: RateTable?,
        history: [HistoryEntry], now: Date, siteID: UUID, archives: [RoundArchive] = [], limits: PageLimits = .standard
    ) {
        self.init(
            SiteInput(
                configuration: configuration, data: data, aggregation: aggregation, rates: rates, history: history, now: now,
                siteID: siteID, archives: archives, labels: Labels(site: configuration)),
            limits: limits)
    }
}
