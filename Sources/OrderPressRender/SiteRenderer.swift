import Foundation
import Mustache
import OrderPressAggregate
import OrderPressConfig
import OrderPressOutput

/// Plans the site (`SitePlan`) and makes its files when the reuse layer asks: every page to Markdown
/// through the templates and to HTML through cmark-gfm, plus the charts, the stylesheet, `summary.json`
/// and `orders.csv`.
public struct SiteRenderer: Sendable {
    package let templates: TemplateSet
    /// Off in tests that render through swift-mustache only, to compare with the compiled templates (`GeneratedPages`).
    var usesBuiltInPages = true
    /// How long a page's lists may grow; smaller in tests, to paginate a small site.
    package var limits = PageLimits.standard

    /// Loads the templates: the built-in ones, overridden by any file in `overrides`.
    public init(templateOverrides overrides: URL?) throws(ConfigurationError) {
        templates = try TemplateSet.load(overrides: overrides)
    }

    /// Plans the site of `input` (`SitePlan`): the reuse layer runs the plan, keeping what the last build
    /// published where it would come out the same, and calls back here to make the rest.
    package func plan(_ input: SiteInput) -> SitePlan {
        plan(SiteContext(input, limits: limits))
    }

    package func plan(_ context: SiteContext) -> SitePlan {
        SitePlan(
            context: context, renderer: self, builder: PageBuilder(context: context),
            chartGroups: context.aggregation.groups.filter { !$0.orders.isEmpty })
    }

    /// A page's title as its HTML shows it: the site's title after the page's, but on the index.
    package func title(of page: PageKind.Page, context: SiteContext) -> String {
        page.path == "index" ? page.title : "\(page.title) · \(context.configuration.title)"
    }

    /// A page's Markdown through its template (compiled, when built in).
    package func markdown(of page: PageKind.Page, builder: PageBuilder) -> Data {
        markdown(page.model(builder), template: page.template, builder: builder)
    }

    /// A page's HTML from its Markdown, through cmark-gfm and the layout.
    package func html(of path: String, title pageTitle: String, markdown: Data, builder: PageBuilder) -> Data {
        let context = builder.context
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
    package func chart(for summary: GroupSummary, context: SiteContext) -> PlannedFile {
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
