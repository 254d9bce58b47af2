import OrderPressDiff
import OrderPressSupport
import OrderPressValidate

/// A run's news: the orders deleted since the last run and the rows newly rejected, deletions first,
/// each in sheet order (a first run has no deletions, but its rejected rows are news); and, made by the
/// command, a source that starts or stops failing, or a build the guard refused.
public struct News: Sendable, Equatable {
    public var items: [NewsItem]

    public init(items: [NewsItem] = []) { self.items = items }

    public var isEmpty: Bool { items.isEmpty }

    /// `rows` are this run's snapshot records (valid and rejected, sheet order); `previous` the last
    /// snapshot's index. A rejected row is news when no rejected row of the last snapshot had its
    /// identity: a row that stays rejected run after run is said once, when it first is. A deleted
    /// record that was itself rejected is not news: it was never counted. `money`: a deleted order's amount
    /// is written as the pages write it ("12.50 USD", not the exact "12.5").
    /// `text` puts each line in the site's language; `quantityColumn`, the column a rejected row's quantity is
    /// written in, so that a quantity the row was rejected for is said as written ("-1 × 紅茶", not "1 × 紅茶").
    package static func make(
        changes: ChangeSet, rows: [RowRecord], previous: SnapshotIndex?, rejected: [RejectedRow], money: MoneyFormat = MoneyFormat(minorUnitOverrides: [:]),
        text: NewsText? = nil, quantityColumn: String? = nil
    ) -> News {
        var items: [NewsItem] = []
        if previous != nil, !changes.firstRun {
            items = changes.deleted.filter { !$0.rejected }.sorted { $0.row < $1.row }.map { record in
                let item = NewsItem(
                    kind: .deleted, row: record.row, id: record.id, group: record.group, person: record.person, what: record.what,
                    amount: record.amount.map { "\(DecimalText.parse($0).map { money.display($0, record.currency) } ?? $0) \(record.currency)" },
                    reasons: [])
                return text?.localized(item) ?? item
            }
        }
        guard !rejected.isEmpty else { return News(items: items) }
        // On a first run every rejected row is news: nobody has been told of it yet.
        let known = Set((previous?.records ?? []).lazy.filter(\.rejected).map(\.identity))
        let byRow = Dictionary(rejected.map { ($0.row, $0) }, uniquingKeysWith: { first, _ in first })
        for record in rows where record.rejected && !known.contains(record.identityValue.key) {
            let row = byRow[record.row]
            var what = record.what
            if let quantityColumn, let written = row?.values.first(where: { $0.column == quantityColumn })?.value, !written.isEmpty,
                written != String(record.quantity), let cross = what.range(of: " × ")
            {
                what = written + what[cross.lowerBound...]
            }
            let item = NewsItem(
                kind: .rejected, row: record.row, id: record.id, group: record.group, person: record.person, what: what,
                amount: nil, reasons: row?.reasons ?? [])
            items.append(text?.localized(item, details: row?.details ?? []) ?? item)
        }
        return News(items: items)
    }

    /// The lines a `--quiet` build prints, of the kinds `[notify] print` lists.
    public func lines(printing kinds: Set<NewsItem.Kind>) -> [String] {
        chosen(kinds).map(\.shown)
    }

    /// The items of the kinds `[notify] print` lists (a recovery goes with `failing`).
    public func chosen(_ kinds: Set<NewsItem.Kind>) -> [NewsItem] {
        items.filter { kinds.contains($0.kind.setting) }
    }
}
