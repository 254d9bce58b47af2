import Crypto
import Foundation
import Mustache

/// Renders every page to Markdown through the templates and to HTML through cmark-gfm,
/// plus the charts, the stylesheet, `summary.json` and `orders.csv`.
public struct SiteRenderer: Sendable {
    let templates: TemplateSet
    /// Off in tests that render through swift-mustache only, to compare with `BuiltInPages`.
    var usesBuiltInPages = true
    /// How long a page's lists may grow; smaller in tests, to paginate a small site.
    var limits = PageLimits.standard

    /// Loads the templates: the built-in ones, overridden by any file in `overrides`.
    public init(templateOverrides overrides: URL?) throws(ConfigurationError) {
        templates = try TemplateSet.load(overrides: overrides)
    }

    /// Renders the whole site into memory: for tests, and for callers that want every file at once.
    public func render(
        configuration: Configuration, data: ValidatedData, aggregation: Aggregation, rates: RateTable?,
        history: [HistoryEntry], now: Date, siteID: UUID
    ) -> RenderedSite {
        let collector = CollectedSite()
        // A collector never throws.
        try? render(
            configuration: configuration, data: data, aggregation: aggregation, rates: rates, history: history, now: now,
            siteID: siteID, into: collector)
        return collector.site
    }

    /// Renders the site into `sink` (the publish session), batch by batch.
    func render(
        configuration: Configuration, data: ValidatedData, aggregation: Aggregation, rates: RateTable?,
        history: [HistoryEntry], now: Date, siteID: UUID, slugs: SiteSlugs? = nil, into sink: some PageSink
    ) throws(OutputError) {
        let context = SiteContext(
            configuration: configuration, data: data, aggregation: aggregation, rates: rates, history: history, now: now,
            siteID: siteID, limits: limits, slugs: slugs)
        try render(context, into: sink)
    }

    /// Renders page after page, in batches of `batchSize` made in parallel, and hands each batch
    /// to `sink` as soon as it is made, so that the site is never all in memory. A page whose
    /// Markdown and layout inputs give the key its published HTML was made from is kept without
    /// running cmark-gfm again; a group page, chart or person page whose inputs' digest
    /// (`PageInputs`) is the one its published files were made from is not built at all.
    func render(_ context: SiteContext, into sink: some PageSink) throws(OutputError) {
        let inputs = PageInputs(context, templates: templates)
        let writer = BatchWriter(sink)
        // The whole-site files are made on a thread of their own while the pages render, rather
        // than after them with one core idle.
        let stylesheet = templates.stylesheet
        let exports = Background { Self.exportWholeSiteFiles(context, stylesheet: stylesheet, inputs: inputs, sink: sink, writer: writer) }
        let pages = PageKind.all.flatMap { $0.pages(context) }
        let builder = PageBuilder(context: context)
        let layoutKey = layoutKey(context)
        for start in stride(from: 0, to: pages.count, by: Self.batchSize) {
            let batch = pages[start..<min(start + Self.batchSize, pages.count)]
            let results = Parallel.map(batch.count) { index in
                renderPage(batch[batch.startIndex + index], builder: builder, inputs: inputs, layoutKey: layoutKey, sink: sink)
            }
            writer.submit(
                results.compactMap(\.markdown), in: .markdown, keeping: results.filter { $0.markdown == nil }.map { "\($0.path).md" })
            writer.submit(
                results.compactMap(\.html), in: .site, keeping: results.filter { $0.html == nil }.map { "\($0.path).html" })
        }
        let groups = context.aggregation.groups.filter { !$0.orders.isEmpty }
        for start in stride(from: 0, to: groups.count, by: Self.batchSize) {
            let slice = groups[start..<min(start + Self.batchSize, groups.count)]
            let charts = Parallel.map(slice.count) { index in
                chart(for: slice[slice.startIndex + index], context: context, inputs: inputs, sink: sink)
            }
            let kept = charts.filter { $0.file == nil }.map(\.path)
            writer.submit(charts.compactMap(\.file), in: .markdown, keeping: kept)
            writer.submit(charts.compactMap(\.file), in: .site, keeping: kept)
        }
        let exported = exports.value
        try writer.finish()
        if let exported { throw exported }
    }

    /// Pages rendered at once: enough to keep both cores busy, few enough to keep memory flat.
    static let batchSize = 256

    /// A page's Markdown file and HTML file, each nil when the published one is still current.
    private struct MadePage {
        var path: String
        var markdown: OutputFile?
        var html: OutputFile?
    }

    private func renderPage(
        _ page: PageKind.Page, builder: PageBuilder, inputs: PageInputs, layoutKey: String, sink: some PageSink
    ) -> MadePage {
        let context = builder.context
        let (template, path, title) = (page.template, page.path, page.title)
        let pageTitle = path == "index" ? title : "\(title) · \(context.configuration.title)"
        // The HTML is made from the Markdown, the page's title and place, and what every page
        // shares; for a page kind with a digest of its inputs, that digest stands for the Markdown.
        let pageInputs = page.inputs?(inputs)
        func key(_ content: Data) -> String {
            var hash = SHA256()
            for part in [layoutKey, path, pageTitle] { hash.update(data: Data(part.utf8)); hash.update(data: [0]) }
            hash.update(data: content)
            return Hex.lowercase(hash.finalize())
        }
        let inputsKey = pageInputs.map { key(Data($0.utf8)) }
        if let pageInputs, sink.publishedKey(of: "\(path).md", in: .markdown) == pageInputs,
            sink.publishedKey(of: "\(path).html", in: .site) == inputsKey
        {
            return MadePage(path: path, markdown: nil, html: nil)
        }
        let markdown = markdown(page.model(builder), template: template, builder: builder)
        let htmlKey = inputsKey ?? key(markdown)
        let markdownFile = OutputFile(path: "\(path).md", contents: markdown, key: pageInputs)
        if sink.publishedKey(of: "\(path).html", in: .site) == htmlKey {
            return MadePage(path: path, markdown: markdownFile, html: nil)
        }
        let body = CMark.site.html(from: markdown)
        let nested = path.contains("/")
        let html =
            builtIn("layout")
            ? (nested ? builder.builtIn.nestedLayout : builder.builtIn.topLayout).html(title: pageTitle, body: body)
            : Data(
                templates.layout.render(
                    context.layoutModel(root: nested ? "../" : "", pageTitle: pageTitle, body: String(decoding: body, as: UTF8.self))
                ).utf8)
        return MadePage(path: path, markdown: markdownFile, html: OutputFile(path: "\(path).html", contents: html, key: htmlKey))
    }

    /// What every page's HTML depends on besides its own Markdown: the program, the templates,
    /// the language and labels, and the lines every page carries. Hashed once, here, rather than
    /// with every page's key.
    private func layoutKey(_ context: SiteContext) -> String {
        let labels = context.labels.plain.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        let parts = [
            Version.current, Version.executableStamp, templates.identity, context.configuration.language,
            context.configuration.title, context.attentionCount ?? "", context.dataAsOfText,
            context.configuration.indexable ? "indexable" : "noindex",
        ] + labels
        return Hex.lowercase(SHA256.hash(data: Data(parts.joined(separator: "\u{0}").utf8)))
    }

    private func builtIn(_ template: String) -> Bool { usesBuiltInPages && templates.builtIn.contains(template) }

    private func markdown(_ model: Any, template: String, builder: PageBuilder) -> Data {
        let context = builder.context
        var model = model
        let builtIn = builtIn(template)
        if let pending = model as? PageModels.Pending {
            switch pending {
            case .group(let summary):
                if builtIn { return BuiltInPages.group(summary, builder: builder) }
                model = builder.groupPage(summary)
            case .person(let person):
                if builtIn { return BuiltInPages.person(person, builder: builder) }
                model = builder.personPage(person)
            case .groupOrders(let summary, let page):
                if builtIn { return BuiltInPages.groupOrders(summary, page: page, builder: builder) }
                model = builder.groupOrdersPage(summary, page: page)
            case .personOrders(let person, let page):
                if builtIn { return BuiltInPages.personOrders(person, page: page, builder: builder) }
                model = builder.personOrdersPage(person, page: page)
            }
        }
        if builtIn {
            switch model {
            case let page as PageModels.IndexPage: return BuiltInPages.index(page, labels: context.markdownLabels)
            case let page as PageModels.GroupListPage: return BuiltInPages.groups(page, labels: context.markdownLabels)
            case let page as PageModels.PeopleListPage: return BuiltInPages.people(page, labels: context.markdownLabels)
            default: break
            }
        }
        // Templates reach every label by key: `{{labels.total}}`.
        var values = TemplateContext.make(model) as? [String: Any] ?? [:]
        values["labels"] = context.markdownLabels
        return Data((templates.pages.render(values, withTemplate: template) ?? "").utf8)
    }

    /// A group's chart, or nil when the published one was made from the same inputs.
    private func chart(
        for summary: GroupSummary, context: SiteContext, inputs: PageInputs, sink: some PageSink
    ) -> (path: String, file: OutputFile?) {
        let path = "groups/\(context.groupSlugs[summary.group.name]!).svg"
        let key = inputs.chart(summary)
        if sink.publishedKey(of: path, in: .markdown) == key, sink.publishedKey(of: path, in: .site) == key {
            return (path, nil)
        }
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
        return (path, OutputFile(path: path, contents: Data(chart.svg()), key: key))
    }
}

extension SiteRenderer {
    /// `style.css`, `feed.xml`, `summary.json` and `orders.csv`, made while the pages render. The two
    /// large files are made straight into the files they are published from (`publishStreamed`):
    /// `summary.json` alone is 320 MB at a million orders. Returns what kept one from being published.
    fileprivate static func exportWholeSiteFiles<Sink: PageSink>(
        _ context: SiteContext, stylesheet: String, inputs: PageInputs, sink: Sink, writer: BatchWriter<Sink>
    ) -> OutputError? {
        writer.submit(
            [
                OutputFile(path: "style.css", contents: Data(stylesheet.utf8)),
                OutputFile(path: "feed.xml", contents: AtomFeed(context: context).xml()),
            ], in: .site)
        do throws(OutputError) {
            try sink.publishStreamed(SummaryDocument.fileName, in: .site) { stream in
                SummaryDocument.write(
                    context, inputs: inputs, published: sink.publishedPieces(of: SummaryDocument.fileName, in: .site), into: stream)
            }
            try sink.publishStreamed(OrdersCSV.fileName, in: .site) { stream in
                OrdersCSV.write(
                    context.data.orders, timeZone: context.configuration.timeZone, inputs: inputs,
                    published: sink.publishedPieces(of: OrdersCSV.fileName, in: .site), into: stream)
            }
            return nil
        } catch {
            return error
        }
    }
}
