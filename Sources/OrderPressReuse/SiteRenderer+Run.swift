import Foundation
import OrderPressOutput
import OrderPressRender
import OrderPressSupport

extension SiteRenderer {
    /// Renders the site into `sink` (the publish session): plans it and has the reuse layer run the plan
    /// (`PlanRunner.run(_:into:)`), keeping what `record` (the last build's, as the session offers it)
    /// shows would come out the same. `digestTable`: each order's digest, made beside the aggregation
    /// (`OrderDigestTable`); nil makes them from the orders.
    package func render(
        _ input: SiteInput, digestTable: OrderDigestTable? = nil, into sink: some PageSink,
        reusing record: some PublishedFiles = NothingPublished()
    ) throws(OutputError) {
        try render(SiteContext(input, limits: limits), digestTable: digestTable, into: sink, reusing: record)
    }

    package func render(
        _ context: SiteContext, digestTable: OrderDigestTable? = nil, into sink: some PageSink,
        reusing record: some PublishedFiles = NothingPublished()
    ) throws(OutputError) {
        let plan = plan(context)
        // The pages are listed on a thread of their own while the keys are made on both cores: listing
        // them (every group's and person's page planned) is one core's work, which the keys waited for.
        let pages = Background { plan.pages() }
        let runner = PlanRunner(keys: PageKeys(context, templates: templates, digestTable: digestTable), record: record)
        try runner.run(plan, pages: pages.value, into: sink)
    }
}
