import Foundation

@testable import OrderPressCatalogue
@testable import OrderPressOutput
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressAggregate
@testable import OrderPressDiff
@testable import OrderPressRender
@testable import OrderPressReuse

extension SiteRenderer {
    /// Renders the whole site into memory through the render the pipeline runs (`render(_:into:reusing:)`),
    /// with nothing to reuse.
    package func render(
        configuration: Configuration, data: ValidatedData, aggregation: Aggregation, rates: RateTable?,
        history: [HistoryEntry], now: Date, siteID: UUID, archives: [RoundArchive] = []
    ) -> RenderedSite {
        let collector = CollectedSite()
        // A collector never throws.
        try? render(
            SiteInput(
                configuration: configuration, data: data, aggregation: aggregation, rates: rates, history: history, now: now,
                siteID: siteID, archives: archives, labels: Labels(site: configuration)),
            into: collector)
        return collector.site
    }
}
