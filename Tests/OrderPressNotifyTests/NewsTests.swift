import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressDiff
@testable import OrderPressNotify
import OrderPressTestSupport

@Suite struct NewsTests {
    static func record(_ row: Int, id: String?, person: String, item: String, rejected: Bool = false, amount: String? = "45") -> RowRecord {
        RowRecord(
            row: row, id: id, identity: id.map { "id:\($0)" } ?? "content:\(person)\(item)", values: [], secrets: [], rejected: rejected,
            group: "週五下午茶", person: person, item: item, options: ["L"], quantity: 1, amount: rejected ? nil : amount, currency: "TWD",
            firstSeen: "2026-11-21T10:00:00Z")
    }

    static func index(_ records: [RowRecord]) -> SnapshotIndex {
        SnapshotIndex(
            Snapshot(version: 1, salt: "", changedAt: "", columns: [], secretColumns: [], rows: records, rates: nil))
    }

    @Test func deletionsFirstThenNewlyRejectedRowsWithTheirReasons() {
        let stillRejected = Self.record(4, id: "4", person: "Cat", item: "紅茶", rejected: true)
        let previous = Self.index([Self.record(2, id: "1", person: "Amy", item: "熟成紅茶"), stillRejected])
        let newlyRejected = Self.record(5, id: "5", person: "Eve", item: "綠茶", rejected: true)
        let deletedRejected = Self.record(9, id: "9", person: "Old", item: "奶茶", rejected: true)
        let changes = ChangeSet(firstRun: false, deleted: [deletedRejected, Self.record(2, id: "1", person: "Amy", item: "熟成紅茶")], added: [], changed: [])
        let rejected = [
            RejectedRow(row: 4, values: [], reasons: ["price is empty"]),
            RejectedRow(row: 5, values: [], reasons: ["price must not be negative", "quantity is not a whole number"]),
        ]
        let news = News.make(
            changes: changes, rows: [stillRejected, newlyRejected], previous: previous, rejected: rejected,
            money: MoneyFormat(minorUnitOverrides: ["TWD": 0]))
        #expect(news.lines(printing: [.deleted, .rejected]) == [
            "deleted: row 2 (id 1) Amy: 1 × 熟成紅茶 L · 週五下午茶 · 45 TWD",
            "rejected: row 5 (id 5) Eve: 1 × 綠茶 L · 週五下午茶 · price must not be negative; quantity is not a whole number",
        ])
        #expect(news.lines(printing: [.rejected]).count == 1)
        #expect(news.lines(printing: []).isEmpty)
    }

    /// A deleted order's amount reads as on the pages: the currency's minor units, rounded half-up.
    @Test(arguments: [
        ("12.5", "USD", [:], "12.50 USD"), ("45", "TWD", [:], "45.00 TWD"), ("45", "TWD", ["TWD": 0], "45 TWD"),
        ("1200", "JPY", [:], "1200 JPY"), ("0.125", "KWD", [:], "0.125 KWD"), ("2.005", "USD", [:], "2.01 USD"),
    ] as [(String, String, [String: Int], String)])
    func aDeletedAmountIsWrittenAsThePagesWriteIt(amount: String, currency: String, minorUnits: [String: Int], text: String) {
        var deleted = Self.record(2, id: "1", person: "Amy", item: "熟成紅茶", amount: amount)
        deleted.currency = currency
        let news = News.make(
            changes: ChangeSet(firstRun: false, deleted: [deleted], added: [], changed: []), rows: [], previous: Self.index([deleted]),
            rejected: [], money: MoneyFormat(minorUnitOverrides: minorUnits))
        #expect(news.items.map(\.amount) == [text])
    }

    /// A first run has nothing deleted, but its rejected rows are news: nobody has been told of them yet.
    @Test func aFirstRunsRejectedRowsAreNews() {
        let rows = [Self.record(2, id: nil, person: "Eve", item: "綠茶", rejected: true)]
        let news = News.make(
            changes: ChangeSet(firstRun: true, deleted: [], added: [], changed: []), rows: rows, previous: nil,
            rejected: [RejectedRow(row: 2, values: [], reasons: ["price is empty"])])
        #expect(news.items.map(\.kind) == [.rejected])
        #expect(news.items.map(\.row) == [2])
    }

    @Test func withoutAnIdARowThatStaysRejectedIsNotNewsAgain() {
        let row = Self.record(3, id: nil, person: "Eve", item: "綠茶", rejected: true)
        let news = News.make(
            changes: ChangeSet(firstRun: false, deleted: [], added: [], changed: []), rows: [row], previous: Self.index([row]),
            rejected: [RejectedRow(row: 3, values: [], reasons: ["price is empty"])])
        #expect(news.isEmpty)
    }

    /// What a row does not name is left out of its line, not printed as "1 ×  ·  ·".
    @Test(arguments: [
        (NewsItem(kind: .rejected, row: 32, id: nil, group: "", person: "", what: "1 × ", amount: nil, reasons: ["person is missing", "price is missing"]),
         "rejected: row 32: person is missing; price is missing"),
        (NewsItem(kind: .rejected, row: 9, id: "8", group: "Tea", person: "", what: "1 × 紅茶", amount: nil, reasons: ["person is missing"]),
         "rejected: row 9 (id 8): 1 × 紅茶 · Tea · person is missing"),
        (NewsItem(kind: .rejected, row: 5, id: nil, group: "", person: "Amy", what: "2 × ", amount: nil, reasons: ["group is missing"]),
         "rejected: row 5 Amy: group is missing"),
        (NewsItem(kind: .deleted, row: 12, id: "11", group: "週五下午茶", person: "Ben", what: "1 × 熟成紅茶 L 半糖 少冰", amount: "35 TWD", reasons: []),
         "deleted: row 12 (id 11) Ben: 1 × 熟成紅茶 L 半糖 少冰 · 週五下午茶 · 35 TWD"),
    ])
    func aLineLeavesOutWhatTheRowDoesNotName(item: NewsItem, line: String) {
        #expect(item.line == line)
    }
}
