import Foundation
import Testing
import OrderPressTestSupport


/// Issue 24 items 4, 6 and 8 through the built binary on the sample (zh-Hant): reason codes, rejected rows
/// on their person's page and counted on their group's, the Changes page's values, noindex.
@Suite struct ReasonsBinaryTests {
    static func page(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent("output/\(path)"), encoding: .utf8)
    }

    @Test func summaryCarriesACodeBesideEachEnglishReasonAndWarning() throws {
        let site = try TestSupport.sampleSite()
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        let rejected = try #require(summary["rejected"] as? [[String: Any]])
        #expect(rejected.map { $0["row"] as? Int } == [10, 18, 24, 28, 34])
        #expect(rejected.map { $0["codes"] as? [String] } == [
            ["price_negative"], ["person_missing"], ["price_sign_contradicts"], ["quantity_invalid"], ["group_unknown"],
        ])
        #expect(rejected[0]["reasons"] as? [String] == ["price must not be negative"])
        let warnings = try #require(summary["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["code"] as? String } == ["column_unmapped", "paid_unreadable"])
        #expect(warnings[1]["message"] as? String == "paid 'LINE Pay' is neither paid nor unpaid and counts as not paid; write yes or no")
        // The terminal stays English.
        let check = try TestSupport.run(["check"], in: site)
        #expect(check.stdout.contains("price must not be negative") || check.stderr.contains("price must not be negative"))
        #expect(!check.stdout.contains("價格不可為負數") && !check.stderr.contains("價格不可為負數"))
    }

    @Test func theAttentionPageShowsReasonsInTheSiteLanguageWhoAndWhatFirst() throws {
        let site = try TestSupport.sampleSite()
        #expect(try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock).status == 0)
        let attention = try Self.page(site, "markdown/attention.md")
        #expect(attention.contains("| 訂購人 · 品項 | 原因 | 列 | 內容 |"))
        // Every name links to its page.
        #expect(attention.contains("| [李美玲](people/李美玲.md) · 珍珠奶茶 | 價格不可為負數 | 10 | id: 9 · "))
        #expect(attention.contains("| 熟成紅茶 | 缺少訂購人（欄位「orderer」） | 18 | id: 17 · "))
        // In members' words: the paid column is the organiser's to fix (`check` says how).
        #expect(attention.contains("| 7 | paid「LINE Pay」看不出已付或未付，當作未付 |"))
        #expect(!attention.contains("price must not be negative"))
    }

    @Test func aPersonPageListsTheirRejectedRowAndTheGroupPageCountsThem() throws {
        let site = try TestSupport.sampleSite()
        #expect(try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock).status == 0)
        let person = try Self.page(site, "site/people/李美玲.html")
        #expect(person.contains("<h2>⚠ 未計入的訂單</h2>\n<ul>\n<li>珍珠奶茶 M 半糖 少冰（週五下午茶，第 10 列）：價格不可為負數——未計入；請詢問王小明，或重新填寫表單</li>\n</ul>"))
        #expect(!(try Self.page(site, "site/people/amy.html")).contains("未計入的訂單"))
        let group = try Self.page(site, "site/groups/週五下午茶.html")
        #expect(
            group.contains(
                "<p>⚠ 這個團購有 4 列資料被退回，未計入。 原因見各人的頁面：<a href=\"../people/%E6%9D%8E%E7%BE%8E%E7%8E%B2.html\">李美玲</a>、"
                    + "<a href=\"../people/%E9%99%B3%E6%80%A1%E5%90%9B.html\">陳怡君</a>、<a href=\"../people/kevin-lin.html\">Kevin Lin</a>。 "
                    + "<a href=\"../attention.html\">查看原因</a></p>"), "\(group)")
        #expect(!(try Self.page(site, "site/groups/週一早餐.html")).contains("被退回"))
    }

    @Test(arguments: [(false, true), (true, false)])
    func everyPageSaysNoindexUnlessIndexable(indexable: Bool, noindex: Bool) throws {
        let site = try TestSupport.sampleSite()
        if indexable {
            let config = site.appendingPathComponent("orderpress.toml")
            let text = try String(contentsOf: config, encoding: .utf8)
            try Data(("indexable = true\n" + text).utf8).write(to: config)
        }
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let folder = site.appendingPathComponent("output/site")
        let pages = try #require(FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".html") })
        #expect(pages.count > 10)
        for path in pages {
            let html = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            #expect(html.contains("<meta name=\"robots\" content=\"noindex\">\n<title>") == noindex, "\(path)")
        }
    }

    @Test func theChangesPageShowsPaidAsLabelsAndPricesAndTimesAsPagesShowThem() throws {
        let site = try TestSupport.sampleSite()
        #expect(try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock).status == 0)
        let orders = site.appendingPathComponent("data/orders.json")
        var rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: orders)) as? [[String: Any]])
        let index = try #require(rows.firstIndex { $0["id"] as? String == "1" })
        #expect(rows[index]["paid"] as? String == "TRUE")
        rows[index]["paid"] = "否"
        rows[index]["price"] = "36"
        rows[index]["time"] = "2026/11/21 下午 3:15:00"
        try JSONSerialization.data(withJSONObject: rows).write(to: orders)
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let changes = try Self.page(site, "markdown/changes.md")
        #expect(changes.contains("| Amy | 1 × 熟成紅茶 L 半糖 少冰 | 週五下午茶 | 2 | paid: 已付 → 未付; price: 35 → 36; time: 2026-11-21 09:15 → 2026-11-21 15:15 |"))
        // A cell emptied, or filled in, says so rather than showing nothing beside the arrow.
        rows[index]["ice"] = ""
        rows[index]["note"] = "去冰改少冰"
        try JSONSerialization.data(withJSONObject: rows).write(to: orders)
        #expect(try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock).status == 0)
        #expect(try Self.page(site, "markdown/changes.md").contains("| Amy | 1 × 熟成紅茶 L 半糖 | 週五下午茶 | 2 | ice: 少冰 → （空白）; note: （空白） → 去冰改少冰 |"))
    }

    @Test func anOrderAfterItsGroupsDeadlineIsMarkedLate() throws {
        let site = try TestSupport.sampleSite()
        let orders = site.appendingPathComponent("data/orders.json")
        var rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: orders)) as? [[String: Any]])
        let index = try #require(rows.firstIndex { $0["id"] as? String == "1" })
        rows[index]["time"] = "2026-11-21 14:01"  // 週五下午茶's deadline is 2026-11-21 14:00
        try JSONSerialization.data(withJSONObject: rows).write(to: orders)
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let group = try Self.page(site, "markdown/groups/週五下午茶.md")
        #expect(group.contains("| 2026-11-21 14:01 ⏰ 逾時 |"))
        #expect(group.components(separatedBy: "⏰").count == 2, "only that order is late")
    }

    /// Without a groups source the sheet names no organiser, shop or deadline: the group page leaves
    /// their lines out instead of showing "主揪：" with nothing after it (field trial).
    @Test func aGroupPageLeavesOutWhatNoGroupsSourceSays() throws {
        let site = try TestSupport.sampleSite()
        let config = site.appendingPathComponent("orderpress.toml")
        var kept: [Substring] = []
        var inGroups = false
        for line in try String(contentsOf: config, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("[") { inGroups = line.hasPrefix("[groups") }
            if !inGroups { kept.append(line) }
        }
        try Data(kept.joined(separator: "\n").utf8).write(to: config)
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let group = try Self.page(site, "markdown/groups/週五下午茶.md")
        #expect(group.hasPrefix("# 週五下午茶\n\n[← 所有團購](../index.md)\n\n- 幣別：TWD\n\n"), "\(group)")
        #expect(!group.contains("- 主揪：") && !group.contains("- 店家：") && !group.contains("- 截止時間："))
    }

    @Test func someoneKnownOnlyFromARejectedRowGetsAPageThatStays() throws {
        let site = try TestSupport.sampleSite()
        let orders = site.appendingPathComponent("data/orders.json")
        var rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: orders)) as? [[String: Any]])
        var row = rows[0]
        (row["id"], row["orderer"], row["price"]) = ("900", "小芳", "-3")
        rows.append(row)
        try JSONSerialization.data(withJSONObject: rows).write(to: orders)
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let page = try Self.page(site, "markdown/people/小芳.md")
        #expect(page.contains("## ⚠ 未計入的訂單\n\n- 熟成紅茶 L 半糖 少冰（週五下午茶，第 44 列）：價格不可為負數——未計入；請詢問王小明，或重新填寫表單\n"))
        #expect(!page.contains("已結清"))
        // Nothing counted, so no totals table: the page ends with their rows (field trial: an empty table).
        #expect(page.hasSuffix("請詢問王小明，或重新填寫表單\n\n"), "\(page)")
        #expect(!page.contains("## 合計"))
        // Unchanged input: nothing written, the page kept.
        let again = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(again.stdout.contains(" 0 files written, "), "\(again.stdout)")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("output/site/people/小芳.html").path))
    }
}
