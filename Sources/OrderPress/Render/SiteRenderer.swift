import Foundation
import Mustache

/// Renders every page to Markdown through the templates and to HTML through cmark-gfm,
/// plus the charts, the stylesheet, `summary.json` and `orders.csv`.
public struct SiteRenderer: Sendable {
    let templates: TemplateSet
    /// Off in tests that render through swift-mustache only, to compare with the compiled templates (`GeneratedPages`).
    var usesBuiltInPages = true
    /// How long a page's lists may grow; smaller in tests, to paginate a small site.
    var limits = PageLimits.standard

    /// Loads the templates: the built-in ones, overridden by any file in `overrides`.
    public init(templateOverrides overrides: URL?) throws(ConfigurationError) {
        templates = try TemplateSet.load(overrides: overrides)
    }

    /// Renders the site into `sink` (the publish session), batch by batch, keeping what `record` (the
    /// last build's, as the session offers it) shows would come out the same.
    func render(_ input: SiteInput, into sink: some PageSink, reusing record: some PublishedFiles = NothingPublished()) throws(OutputError) {
        try render(SiteContext(input, limits: limits), digestTable: input.digestTable, into: sink, reusing: record)
    }

    /// Plans page after page and has the reuse layer (`PlanRunner`) make what it must, in batches of
    /// `batchSize` made in parallel, and hands each batch to `sink` as soon as it is made, so that the
    /// site is never all in memory.
    func render(
        _ context: SiteContext, digestTable: OrderDigestTable? = nil, into sink: some PageSink,
        reusing record: some PublishedFiles = NothingPublished()
    ) throws(OutputError) {
        let runner = PlanRunner(keys: PageKeys(context, templates: templates, digestTable: digestTable), record: record)
        let writer = BatchWriter(sink)
        // The whole-site files are made on a thread of their own while the pages render, rather
        // than after them with one core idle.
        let stylesheet = templates.stylesheet
        let exports = Background { Self.exportWholeSiteFiles(context, stylesheet: stylesheet, runner: runner, sink: sink, writer: writer) }
        let pages = PageKind.all.flatMap { $0.pages(context) }
        let builder = PageBuilder(context: context)
        for start in stride(from: 0, to: pages.count, by: Self.batchSize) {
            let batch = pages[start..<min(start + Self.batchSize, pages.count)]
            let results = Parallel.map(batch.count) { index in
                renderPage(batch[batch.startIndex + index], builder: builder, runner: runner)
            }
            writer.submit(results.compactMap(\.markdown), in: .markdown, keeping: results.filter { $0.markdown == nil }.map(\.markdownPath))
            writer.submit(results.compactMap(\.html), in: .site, keeping: results.filter { $0.html == nil }.map(\.htmlPath))
        }
        let groups = context.aggregation.groups.filter { !$0.orders.isEmpty }
        for start in stride(from: 0, to: groups.count, by: Self.batchSize) {
            let slice = groups[start..<min(start + Self.batchSize, groups.count)]
            let charts = Parallel.map(slice.count) { index in
                let chart = chart(for: slice[slice.startIndex + index], context: context)
                return (chart.path, runner.run(chart))
            }
            let kept = charts.filter { $0.1 == nil }.map(\.0)
            writer.submit(charts.compactMap(\.1), in: .markdown, keeping: kept)
            writer.submit(charts.compactMap(\.1), in: .site, keeping: kept)
        }
        let exported = exports.value
        try writer.finish()
        if let exported { throw exported }
    }

    /// Pages rendered at once: enough to keep both cores busy, few enough to keep memory flat.
    static let batchSize = 256

    /// A page as the runner makes it: its Markdown through the template (compiled, when built in), its
    /// HTML through cmark-gfm and the layout.
    private func renderPage<Record>(_ page: PageKind.Page, builder: PageBuilder, runner: PlanRunner<Record>) -> PlanRunner<Record>.MadePage {
        let context = builder.context
        let (template, path, title) = (page.template, page.path, page.title)
        let pageTitle = path == "index" ? title : "\(title) · \(context.configuration.title)"
        return runner.run(
            page: path, title: pageTitle, dependsOn: page.dependsOn,
            markdown: { markdown(page.model(builder), template: template, builder: builder) },
            html: { markdown in
                let body = CMark.site.html(from: markdown)
                // Folders deep: pages are at most one down, but a round's archive (`archive/<group>/<date>`) is two.
                let depth = path.utf8.lazy.filter { $0 == UInt8(ascii: "/") }.count
                return builtIn("layout") && depth < 2
                    ? (depth == 1 ? builder.builtIn.nestedLayout : builder.builtIn.topLayout).html(title: pageTitle, body: body)
                    : Data(
                        templates.layout.render(
                            context.layoutModel(
                                root: String(repeating: "../", count: depth), pageTitle: pageTitle,
                                body: String(decoding: body, as: UTF8.self))
                        ).utf8)
            })
    }

    private func builtIn(_ template: String) -> Bool { usesBuiltInPages && templates.builtIn.contains(template) }

    private func markdown(_ model: any PageModel, template: String, builder: PageBuilder) -> Data {
        let context = builder.context
        if builtIn(template) {
            return model.markdown(labels: builder.builtIn.labels)
        }
        // Templates reach every label by key: `{{labels.total}}`.
        var values = TemplateContext.make(model) as? [String: Any] ?? [:]
        values["labels"] = context.markdownLabels
        return Data((templates.pages.render(values, withTemplate: template) ?? "").utf8)
    }

    /// A group's chart: the same SVG beside its page in both trees, made from what its page shows of
    /// its people's totals.
    private func chart(for summary: GroupSummary, context: SiteContext) -> PlannedFile {
        // What the chart reads, not the whole context: a closure holding that copied all of it for each
        // group, kept or not.
        let (labels, money, bars) = (context.labels, context.money, context.limits.chartBars)
        return PlannedFile(path: "groups/\(context.groupSlugs[summary.group.name]!).svg", trees: OutputTree.allCases, dependsOn: .chart(summary)) {
            let chart = BarChart(
                title: labels.text("chart_title", ["group": summary.group.name, "currency": summary.currency]),
                bars: summary.people.prefix(bars).map {
                    .init(
                        label: $0.name, value: $0.total,
                        valueText: "\(money.display($0.total, summary.currency)) \(summary.currency)")
                },
                // One bar per person would make a chart of a huge group megabytes tall.
                more: summary.people.count > bars
                    ? labels.text("more_people", ["count": String(summary.people.count - bars)]) : nil)
            return Data(chart.svg())
        }
    }
}

extension SiteRenderer {
    /// `style.css`, `feed.xml`, `summary.json` and `orders.csv`, made while the pages render. The two
    /// large files are made straight into the files they are published from (`publishStreamed`):
    /// `summary.json` alone is hundreds of MB at a million orders. Returns what kept one from being published.
    fileprivate static func exportWholeSiteFiles<Sink: PageSink, Record>(
        _ context: SiteContext, stylesheet: String, runner: PlanRunner<Record>, sink: Sink, writer: BatchWriter<Sink>
    ) -> OutputError? {
        writer.submit(
            [
                OutputFile(path: "style.css", contents: Data(stylesheet.utf8)),
                OutputFile(path: "feed.xml", contents: AtomFeed(context: context).xml()),
            ], in: .site)
        do throws(OutputError) {
            try sink.publishStreamed(SummaryDocument.fileName, in: .site) { stream in
                SummaryDocument.write(
                    context, inputs: runner.keys, published: runner.publishedPieces(of: SummaryDocument.fileName, in: .site), into: stream)
            }
            try sink.publishStreamed(OrdersCSV.fileName, in: .site) { stream in
                OrdersCSV.write(
                    context.data.orders, timeZone: context.configuration.timeZone, paid: OrdersCSVPayments(context).state,
                    inputs: runner.keys, published: runner.publishedPieces(of: OrdersCSV.fileName, in: .site), into: stream)
            }
            return nil
        } catch {
            return error
        }
    }
}
