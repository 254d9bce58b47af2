import Foundation
import OrderPressOutput
import OrderPressRender
import OrderPressSupport

extension PlanRunner {
    /// Pages made at once: enough to keep both cores busy, few enough to keep memory flat.
    static var batchSize: Int { 256 }

    /// Runs render's plan of the whole site into `sink` (the publish session): page after page, in
    /// batches of `batchSize` made in parallel, each batch handed to `sink` as soon as it is made, so that
    /// the site is never all in memory; then the charts. The whole-site files are made on a thread of
    /// their own meanwhile, `summary.json` and `orders.csv` in pieces keyed by `keys`. `pages`: the plan's
    /// pages, when listed already (`plan.pages()`).
    func run(_ plan: SitePlan, pages: [PageKind.Page]? = nil, into sink: some PageSink) throws(OutputError) {
        let writer = BatchWriter(sink)
        // The whole-site files are made on a thread of their own while the pages render, rather
        // than after them with one core idle.
        let exports = Background { exportWholeSiteFiles(plan, sink: sink, writer: writer) }
        let pages = pages ?? plan.pages()
        for start in stride(from: 0, to: pages.count, by: Self.batchSize) {
            let batch = pages[start..<min(start + Self.batchSize, pages.count)]
            let results = Parallel.map(batch.count) { index in
                let page = batch[batch.startIndex + index]
                return run(
                    page: page.path, title: plan.title(of: page), dependsOn: page.dependsOn,
                    markdown: { plan.markdown(of: page) },
                    html: { markdown in plan.html(of: page.path, title: plan.title(of: page), markdown: markdown) })
            }
            writer.submit(
                results.compactMap(\.markdown), in: .markdown,
                keeping: results.filter { $0.markdown == nil }.map { KeptFile(path: $0.markdownPath, index: $0.markdownIndex) })
            writer.submit(
                results.compactMap(\.html), in: .site, keeping: results.filter { $0.html == nil }.map { KeptFile(path: $0.htmlPath, index: $0.htmlIndex) })
        }
        let groups = plan.chartGroups
        for start in stride(from: 0, to: groups.count, by: Self.batchSize) {
            let slice = groups[start..<min(start + Self.batchSize, groups.count)]
            let charts = Parallel.map(slice.count) { index in
                let chart = plan.chart(for: slice[slice.startIndex + index])
                return (chart.path, made(chart))
            }
            let files = charts.compactMap { if case .made(let file) = $0.1 { file } else { nil } }
            for tree in OutputTree.allCases {
                let kept = charts.compactMap { path, made -> KeptFile? in
                    if case .kept(let indices) = made { KeptFile(path: path, index: indices[tree] ?? -1) } else { nil }
                }
                writer.submit(files, in: tree, keeping: kept)
            }
        }
        let exported = exports.value
        try writer.finish()
        if let exported { throw exported }
    }

    /// `style.css`, `feed.xml`, `summary.json` and `orders.csv`, made while the pages render. The two
    /// large files are made straight into the files they are published from (`publishStreamed`):
    /// `summary.json` alone is hundreds of MB at a million orders. Returns what kept one from being published.
    private func exportWholeSiteFiles<Sink: PageSink>(_ plan: SitePlan, sink: Sink, writer: BatchWriter<Sink>) -> OutputError? {
        writer.submit(plan.smallWholeSiteFiles(), in: .site)
        do throws(OutputError) {
            try sink.publishStreamed(SummaryDocument.fileName, in: .site) { stream in
                plan.writeSummary(keys: keys, published: publishedPieces(of: SummaryDocument.fileName, in: .site), into: stream)
            }
            try sink.publishStreamed(OrdersCSV.fileName, in: .site) { stream in
                plan.writeOrdersCSV(keys: keys, published: publishedPieces(of: OrdersCSV.fileName, in: .site), into: stream)
            }
            return nil
        } catch {
            return error
        }
    }
}
