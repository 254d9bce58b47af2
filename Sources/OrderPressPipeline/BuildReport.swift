import Foundation
import OrderPressDiff
import OrderPressNotify
import OrderPressPublish
import OrderPressSupport

/// What a build did, for the summary line and for tests.
public struct BuildReport: Sendable {
    public var rowsRead: Int
    public var orders: Int
    public var rejected: Int
    /// Rows skipped as blank (`BlankRows`): said in the summary line only.
    public var blankRows = 0
    /// Amounts read with their currency's sign (`¥300`): said in the summary line only.
    public var amountsWithSign = 0
    public var changes: ChangeSet
    /// What a person must act on (deletions, newly rejected rows): what `--quiet` prints.
    public var news = News()
    public var warnings: [DataWarning]
    /// Things that went wrong after publishing without failing the build (a git commit, say).
    public var problems: [String]
    public var written: [URL]
    public var unchanged: Int
    public var removed: [URL]
    /// HTTP requests sent to the sources, retries included.
    public var requests: Int
    public var dryRun: Bool
    /// Seconds spent in each step, in step order.
    public var timings: [(step: Step, seconds: Double)]

    /// "37 orders, 5 rejected, 1 warning · 12 files written, 30 unchanged, 0 removed · 3 deleted · 3 requests · 0.21 s".
    public var summaryLine: String {
        let verb = dryRun ? "would be written" : "written"
        let removedVerb = dryRun ? "would be removed" : "removed"
        let seconds = timings.reduce(0) { $0 + $1.seconds }
        let changed = changes.isEmpty ? "no changes" : changes.summary
        let blank = (blankRows == 0 ? "" : ", \(Counted.text(blankRows, "blank row")) skipped") + Self.signed(amountsWithSign)
        return "\(Counted.text(orders, "order")), \(rejected) rejected, \(Counted.text(warnings.count, "warning"))\(blank) · "
            + "\(Counted.text(written.count, "file")) \(verb), \(unchanged) unchanged, \(removed.count) \(removedVerb) · \(changed) · "
            + "\(Counted.text(requests, "request")) · "
            + String(format: "%.2f s", locale: Locale(identifier: "en_US_POSIX"), seconds)
    }
}

extension BuildReport {
    /// A rerun that found its inputs unchanged: the last build's figures, every file left as it is.
    package init(unchanged last: LastBuild, files: Int, requests: Int, dryRun: Bool, timings: [(step: Step, seconds: Double)]) {
        self.init(
            rowsRead: last.rowsRead, orders: last.orders, rejected: last.rejected,
            changes: ChangeSet(firstRun: false, deleted: [], added: [], changed: []), warnings: last.warnings, problems: [],
            written: [], unchanged: files, removed: [], requests: requests, dryRun: dryRun, timings: timings)
        blankRows = last.blankRows ?? 0
        amountsWithSign = last.amountsWithSign ?? 0
    }
}

extension BuildReport {
    /// A build that published (or, on a dry run, would have): what the diff handed on and what publishing did.
    /// `orders`: how many orders there were before render let them go.
    package init(
        _ diffed: DiffResult, orders: Int, published: PublishReport, problems: [String], requests: Int, dryRun: Bool,
        timings: [(step: Step, seconds: Double)]
    ) {
        let data = diffed.data
        self.init(
            rowsRead: data.rowsRead, orders: orders, rejected: data.rejected.count,
            changes: diffed.changes, warnings: data.warnings, problems: problems,
            written: published.written, unchanged: published.unchanged, removed: published.removed,
            requests: requests, dryRun: dryRun, timings: timings)
        blankRows = data.blankRows
        amountsWithSign = data.amountsWithSign
        news = diffed.news
    }
}

extension BuildReport {
    /// ", 3 amounts read with their currency sign": how the summary lines of `build` and `check` count them.
    public static func signed(_ count: Int) -> String {
        count == 0 ? "" : ", \(Counted.text(count, "amount")) read with \(count == 1 ? "its" : "their") currency sign"
    }
}
