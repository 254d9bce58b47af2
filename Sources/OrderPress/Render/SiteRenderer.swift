import Foundation
import Mustache

/// Renders every page to Markdown through the templates and to HTML through cmark-gfm,
/// plus the charts, the stylesheet, `summary.json` and `orders.csv`.
public struct SiteRenderer: Sendable {
    let templates: TemplateSet
    /// How long a page's lists may grow; smaller in tests, to paginate a small site.
    var limits = PageLimits.standard

    /// Loads the templates: the built-in ones, overridden by any file in `overrides`.
    public init(templateOverrides overrides: URL?) throws(ConfigurationError) {
        templates = try TemplateSet.load(overrides: overrides)
    }

    public func render(
        configuration: Configuration, data: ValidatedData, aggregation: Aggregation, rates: RateTable?,
        history: [HistoryEntry], now: Date, siteID: UUID
    ) -> RenderedSite {
        let context = SiteContext(
            configuration: configuration, data: data, aggregation: aggregation, rates: rates, history: history, now: now,
            siteID: siteID, limits: limits)
        let list = PageKind.all.flatMap { $0.pages(context) }
        let pages = ConcurrentResults<(markdown: OutputFile, html: OutputFile)>(count: list.count)
        let builder = PageBuilder(context: context)
        DispatchQueue.concurrentPerform(iterations: list.count) { index in
            pages[index] = renderPage(list[index], builder: builder, context: context)
        }

        var markdown = pages.values.map(\.markdown)
        var site = pages.values.map(\.html)
        for summary in aggregation.groups where !summary.orders.isEmpty {
            let chart = chart(for: summary, context: context)
            markdown.append(chart)
            site.append(chart)
        }
        site.append(OutputFile(path: "style.css", contents: Data(templates.stylesheet.utf8)))
        site.append(OutputFile(path: "feed.xml", contents: AtomFeed(context: context).xml()))
        site.append(OutputFile(path: "summary.json", contents: SummaryDocument(context).encoded()))
        site.append(OutputFile(path: "orders.csv", contents: OrdersCSV.render(data.orders, timeZone: configuration.timeZone)))
        return RenderedSite(
            markdown: markdown.sorted { $0.path < $1.path }, site: site.sorted { $0.path < $1.path })
    }

    private func renderPage(_ page: PageKind.Page, builder: PageBuilder, context: SiteContext)
        -> (markdown: OutputFile, html: OutputFile)
    {
        let (model, template, path, title) = (page.model(builder), page.template, page.path, page.title)
        // Templates reach every label by key: `{{labels.total}}`.
        var values = TemplateContext.make(model) as? [String: Any] ?? [:]
        values["labels"] = context.markdownLabels
        let markdown = templates.pages.render(values, withTemplate: template) ?? ""
        let root = path.contains("/") ? "../" : ""
        let layout = PageModels.Layout(
            language: context.configuration.language, labels: context.labels.plain,
            feedTitle: context.labels.text("feed_title", ["title": context.configuration.title]),
            pageTitle: path == "index" ? title : "\(title) · \(context.configuration.title)",
            siteTitle: context.configuration.title, root: root, attentionCount: context.attentionCount,
            dataAsOf: context.labels.text("data_as_of", ["time": context.dataAsOfText]), body: CMark.site.html(from: markdown))
        let html = templates.layout.render(layout)
        return (
            OutputFile(path: "\(path).md", contents: Data(markdown.utf8)),
            OutputFile(path: "\(path).html", contents: Data(html.utf8))
        )
    }

    private func chart(for summary: GroupSummary, context: SiteContext) -> OutputFile {
        let chart = BarChart(
            title: context.labels.text("chart_title", ["group": summary.group.name, "currency": summary.currency]),
            bars: summary.people.prefix(context.limits.chartBars).map {
                .init(
                    label: $0.name, value: $0.total,
                    valueText: "\(context.money.display($0.total, summary.currency)) \(summary.currency)")
            },
            // One bar per person would make a chart of a huge group megabytes tall.
            more: summary.people.count > context.limits.chartBars
                ? context.labels.text("more_people", ["count": String(summary.people.count - context.limits.chartBars)]) : nil)
        return OutputFile(
            path: "groups/\(context.groupSlugs[summary.group.name]!).svg", contents: Data(chart.svg().utf8))
    }
}

/// Fixed-size storage that concurrent workers fill, each at its own index.
private final class ConcurrentResults<Value>: @unchecked Sendable {
    private var storage: [Value?]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    subscript(index: Int) -> Value {
        get { lock.withLock { storage[index]! } }
        set { lock.withLock { storage[index] = newValue } }
    }

    var values: [Value] { lock.withLock { storage.map { $0! } } }
}
