import Foundation
import OrderPressAggregate
import OrderPressOutput

/// The site as render plans it, unmade: every page (`PageKind.Page`) and every group's chart
/// (`PlannedFile`), each with what it is made from (`Dependency`), and the whole-site files. The reuse
/// layer runs the plan (`PlanRunner.run(_:into:)`): it decides what is kept as published and what is
/// made, in batches, and calls back here to make a file.
package struct SitePlan: Sendable {
    package let context: SiteContext
    let renderer: SiteRenderer
    package let builder: PageBuilder
    /// The groups with a chart (those with orders), in the order of `aggregation.groups`.
    package let chartGroups: [GroupSummary]

    package var templates: TemplateSet { renderer.templates }

    /// Every page, in the order they are made.
    package func pages() -> [PageKind.Page] { PageKind.all.flatMap { $0.pages(context) } }

    /// A page's title as its HTML shows it.
    package func title(of page: PageKind.Page) -> String { renderer.title(of: page, context: context) }

    /// A page's Markdown.
    package func markdown(of page: PageKind.Page) -> Data { renderer.markdown(of: page, builder: builder) }

    /// The HTML of the page at `path` (without extension) titled `title`, from its Markdown.
    package func html(of path: String, title: String, markdown: Data) -> Data {
        renderer.html(of: path, title: title, markdown: markdown, builder: builder)
    }

    /// A group's chart: the same SVG beside its page in both trees.
    package func chart(for summary: GroupSummary) -> PlannedFile { renderer.chart(for: summary, context: context) }

    /// `style.css` and `feed.xml`: small, made every time (publish compares their bytes).
    package func smallWholeSiteFiles() -> [OutputFile] {
        [
            OutputFile(path: "style.css", contents: Data(templates.stylesheet.utf8)),
            OutputFile(path: "feed.xml", contents: AtomFeed(context: context).xml()),
        ]
    }

    /// Writes `summary.json` into `stream` in pieces keyed by `keys`, copying from `published` what it has.
    package func writeSummary<Keys: PieceKeys>(keys: Keys?, published: PublishedPieces?, into stream: ByteStream) -> FilePieces? {
        SummaryDocument.write(context, inputs: keys, published: published, into: stream)
    }

    /// Writes `orders.csv` into `stream` in pieces keyed by `keys`, copying from `published` what it has.
    package func writeOrdersCSV<Keys: PieceKeys>(keys: Keys?, published: PublishedPieces?, into stream: ByteStream) -> FilePieces? {
        OrdersCSV.write(
            context.data.orders, timeZone: context.configuration.timeZone, paid: OrdersCSVPayments(context).state,
            inputs: keys, published: published, into: stream)
    }
}
