import Foundation
import Testing
import OrderPressTestSupport


/// The committed Markdown is meant for git review: deleting one order of a few hundred must change
/// only the lines about that order and the totals that include it.
@Suite struct SmallDiffTests {
    static let people = (1...20).map { String(format: "Person %02d", $0) }
    static let items = ["熟成紅茶", "珍珠奶茶", "四季春青茶", "冬瓜檸檬", "芒果綠茶"]

    /// 300 orders in three groups, with ids and a paid column.
    static func orders() -> [[String: String]] {
        (1...300).map { (number: Int) -> [String: String] in
            let groups = ["週五下午茶", "Lunch", "Boba"]
            let time = String(format: "2026-11-21 %02d:%02d", 8 + number / 60, number % 60)
            var row: [String: String] = ["id": String(number), "group": groups[number % 3], "sugar": "半糖", "ice": "少冰"]
            row["orderer"] = people[(number * 7) % people.count]
            row["drink"] = items[number % items.count]
            row["size"] = number % 2 == 0 ? "L" : "M"
            row["quantity"] = String(1 + number % 3)
            row["price"] = String(30 + (number % 5) * 5)
            row["time"] = time
            row["paid"] = number % 4 == 0 ? "yes" : ""
            return row
        }
    }

    /// Changed lines of a file: an LCS diff's removals and additions, a modified line counted once.
    static func changedLines(_ old: [Substring], _ new: [Substring]) -> (count: Int, removed: [Substring]) {
        var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var removed: [Substring] = []
        var (i, j) = (0, 0)
        while i < old.count, j < new.count {
            if old[i] == new[j] {
                (i, j) = (i + 1, j + 1)
            } else if table[i + 1][j] >= table[i][j + 1] {
                removed.append(old[i])
                i += 1
            } else {
                j += 1
            }
        }
        removed += old[i...]
        let common = table[0][0]
        return (max(old.count - common, new.count - common), removed)
    }

    @Test func deletingOneOrderOfThreeHundredChangesAFewLines() throws {
        let site = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "orderpress.toml": """
                    title = "Tea"
                    language = "en"
                    base_currency = "TWD"
                    [orders]
                    path = "orders.json"
                    [minor_units]
                    TWD = 0
                    """
            ], in: site)
        var orders = Self.orders()
        let url = site.appendingPathComponent("orders.json")
        try JSONSerialization.data(withJSONObject: orders).write(to: url)
        let first = try TestSupport.run(["build"], in: site, environment: ["SOURCE_DATE_EPOCH": "1795255200"])
        #expect(first.status == 0, "\(first.stderr)")
        let markdown = site.appendingPathComponent("output/markdown")
        let before = try TestSupport.contents(of: markdown)

        // Order 100: Person 01's two 熟成紅茶 L at 30, paid, in Lunch; not their only order, not the newest.
        let deleted = try #require(orders.firstIndex { $0["id"] == "100" })
        #expect(orders[deleted]["orderer"] == "Person 01")
        orders.remove(at: deleted)
        try JSONSerialization.data(withJSONObject: orders).write(to: url)
        let second = try TestSupport.run(["build"], in: site, environment: ["SOURCE_DATE_EPOCH": "1795258800"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("· 1 deleted ·"))
        let after = try TestSupport.contents(of: markdown)

        var total = 0
        var removed: [Substring] = []
        for path in Set(before.keys).union(after.keys).sorted() where path != "changes.md" {
            let old = String(decoding: before[path] ?? Data(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let new = String(decoding: after[path] ?? Data(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let change = Self.changedLines(old, new)
            total += change.count
            removed += change.removed
        }
        #expect(total <= 25, "\(total) lines changed")
        // The order's own lines are gone from its group page and from its person's page.
        #expect(removed.contains("| Person 01 | 熟成紅茶 L 半糖 少冰 | 60 | ✓ | 2 | 30 | 2026-11-21 09:40 |  |"))
        #expect(removed.contains("| 熟成紅茶 L 半糖 少冰 | 60 | ✓ | 2 | 30 | 2026-11-21 09:40 |  |"))
        #expect(after.keys.sorted() == before.keys.sorted())
    }
}
