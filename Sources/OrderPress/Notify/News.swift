/// A run's news: the orders deleted since the last run and the rows newly rejected, deletions first,
/// each in sheet order. Nothing on a first run, which has nothing to compare with.
public struct News: Sendable, Equatable {
    public var items: [NewsItem]

    public init(items: [NewsItem] = []) { self.items = items }

    public var isEmpty: Bool { items.isEmpty }

    /// `rows` are this run's snapshot records (valid and rejected, sheet order); `previous` the last
    /// snapshot's index. A rejected row is news when no rejected row of the last snapshot had its
    /// identity: a row that stays rejected run after run is said once, when it first is. A deleted
    /// record that was itself rejected is not news: it was never counted. `money`: a deleted order's amount
    /// is written as the pages write it ("12.50 USD", not the exact "12.5").
    static func make(
        changes: ChangeSet, rows: [RowRecord], previous: SnapshotIndex?, rejected: [RejectedRow], money: MoneyFormat = MoneyFormat(minorUnitOverrides: [:])
    ) -> News {
        guard let previous, !changes.firstRun else { return News() }
        var items = changes.deleted.filter { !$0.rejected }.sorted { $0.row < $1.row }.map { record in
            NewsItem(
                kind: .deleted, row: record.row, id: record.id, group: record.group, person: record.person, what: record.what,
                amount: record.amount.map { "\(DecimalText.parse($0).map { money.display($0, record.currency) } ?? $0) \(record.currency)" },
                reasons: [])
        }
        guard !rejected.isEmpty else { return News(items: items) }
        let known = Set(previous.records.lazy.filter(\.rejected).map(\.identity))
        let reasons = Dictionary(rejected.map { ($0.row, $0.reasons) }, uniquingKeysWith: { first, _ in first })
        for record in rows where record.rejected && !known.contains(record.identityValue.key) {
            items.append(
                NewsItem(
                    kind: .rejected, row: record.row, id: record.id, group: record.group, person: record.person, what: record.what,
                    amount: nil, reasons: reasons[record.row] ?? []))
        }
        return News(items: items)
    }

    /// The lines a `--quiet` build prints, of the kinds `[notify] print` lists.
    public func lines(printing kinds: Set<NewsItem.Kind>) -> [String] {
        items.filter { kinds.contains($0.kind) }.map(\.line)
    }
}
