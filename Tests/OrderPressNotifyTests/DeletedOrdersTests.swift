import Testing

@testable import OrderPressDiff
@testable import OrderPressNotify
import OrderPressTestSupport

/// Which deleted orders `orderpress restore ORDER` names: an id, a person's whole name or whole words of
/// it (any case), each alone or followed by the item; never part of a word; the first rule any order
/// answers to decides.
@Suite struct DeletedOrdersTests {
    static func record(_ row: Int, id: String?, _ person: String, _ item: String, options: [String] = []) -> RowRecord {
        RowRecord(
            row: row, id: id, identity: id.map { "id:\($0)" } ?? "\(person) \(item) \(options)", values: [id ?? "", person, item] + options,
            secrets: [], rejected: false, group: "Tea", person: person, item: item, options: options, quantity: 1, amount: "50",
            currency: "TWD", firstSeen: "")
    }

    static let deleted = DeletedOrders(
        headers: ["id", "orderer", "drink", "size"], columns: ["id", "orderer", "drink", "size"],
        records: [
            record(3, id: "2", "Ben O'Neil", "珍珠奶茶"),
            record(4, id: nil, "Ben Wu", "Green Tea"),
            record(5, id: nil, "Mary Ann Lee", "紅茶"),
            record(6, id: nil, "Amy", "紅茶", options: ["L"]),
            record(7, id: nil, "Amy", "紅茶", options: ["M"]),
            record(8, id: nil, "Amy Chen", "綠茶"),
            record(9, id: "12", "陳怡君", "唐揚げ定食"),
        ])

    @Test(arguments: [
        // By id, and by the whole name with or without the item (today's rules).
        ("2", [3]), ("12", [9]), ("Ben O'Neil 珍珠奶茶", [3]), ("ben  o'neil", [3]), ("陳怡君", [9]), ("陳怡君 唐揚げ定食", [9]),
        // A whole word of the name, in any case, alone or with the item.
        ("ben", [3, 4]), ("o'neil", [3]), ("O'NEIL", [3]), ("ben 珍珠奶茶", [3]), ("o'neil 珍珠奶茶", [3]), ("BEN green tea", [4]), ("wu", [4]),
        ("lee", [5]), ("mary ann", [5]), ("ann lee 紅茶", [5]), ("chen", [8]),
        // Several orders answer: all of them, for the command to list, never one picked.
        ("amy 紅茶", [6, 7]),
        // The whole name first: "Amy" is Amy's, not also Amy Chen's (whose name merely has the word).
        ("amy", [6, 7]), ("amy 綠茶", [8]),
        // Never part of a word, words out of order, a word not in the name, or part of the item.
        ("en", []), ("neil", []), ("o", []), ("ben o", []), ("mary lee", []), ("ann mary", []), ("ben 珍珠", []), ("ben 紅茶", []),
        ("怡君", []), ("ben o'neil wu", []), ("3", []), ("   ", []),
    ])
    func anOrderIsNamedByIdOrByWholeWordsOfThePersonAndItsItem(query: String, rows: [Int]) {
        #expect(Self.deleted.matching(query).map(\.row) == rows)
    }

    @Test func theMessagesNameEachOrderByIdOrPersonAndItem() {
        #expect(Self.deleted.records.map(DeletedOrders.label).prefix(2) == ["id 2 Ben O'Neil 珍珠奶茶", "Ben Wu Green Tea"])
        #expect(Self.deleted.closest(to: "Ben O'Nell 珍珠奶茶", limit: 1) == ["id 2 Ben O'Neil 珍珠奶茶"])
    }

    /// The row `restore` prints shows a Sheets serial in the time column as pages show times, not `46353.635416666664`.
    @Test func aSerialTimeIsPrintedAsATime() {
        var record = Self.record(3, id: "2", "Amy", "紅茶")
        record.values = ["2", "Amy", "紅茶", "46353.635416666664"]
        var deleted = DeletedOrders(headers: ["id", "orderer", "drink", "time"], columns: ["id", "orderer", "drink", "time"], records: [record])
        deleted.timeColumn = "time"
        #expect(deleted.row(record) == "2\tAmy\t紅茶\t2026-11-27 15:15")
        deleted.timeColumn = nil
        #expect(deleted.row(record) == "2\tAmy\t紅茶\t46353.635416666664")
    }
}
