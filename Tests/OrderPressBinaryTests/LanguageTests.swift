import Foundation
import Testing
import OrderPressTestSupport


/// The sample site in its own language (zh-Hant) and in English: interface labels follow
/// `language` and `[labels]`; data, numbers and dates stay as they are.
@Suite struct LanguageTests {
    /// Builds a copy of the sample with `edit` applied to its configuration; returns the site folder.
    static func build(_ edit: (String) -> String) throws -> URL {
        let site = try TestSupport.sampleSite()
        let config = site.appendingPathComponent("orderpress.toml")
        try Data(edit(try String(contentsOf: config, encoding: .utf8)).utf8).write(to: config)
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        return site.appendingPathComponent("output/site")
    }

    static func page(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
    }

    /// Interface words that must not show on a page in another language.
    static let english = ["Grand total", "Groups", "People", "Shop order sheet", "Totals per person", "Unit price", "To pay",
                          "Data as of", "made by OrderPress", "Exchange rates", "Rejected rows", "Warnings", "Latest change"]
    static let chinese = ["總計", "團購", "訂購人", "店家訂購單", "每人合計", "單價", "待付款", "資料時間", "匯率", "被退回的資料列", "最近異動"]

    @Test func theSampleBuildsInTraditionalChinese() throws {
        let site = try Self.build { $0 }
        let index = try Self.page(site, "index.html")
        #expect(index.hasPrefix("<!doctype html>\n<html lang=\"zh-Hant\">"))
        for word in ["<h2>總計</h2>", "<h2>團購</h2>", "<h2>訂購人</h2>", ">匯率</a>", ">需要注意 (7)</a>", ">異動</a>", "資料時間：2026-11-21 16:00 (Asia/Taipei)"] {
            #expect(index.contains(word), "\(word)")
        }
        let group = try Self.page(site, "groups/週五下午茶.html")
        for word in ["<li>主揪：王小明</li>", "<h2>店家訂購單</h2>", "<th>品項</th>", "<th style=\"text-align: right\">單價</th>", "<th style=\"text-align: right\">小計</th>", "尚未收款：<strong>310 TWD</strong>"] {
            #expect(group.contains(word), "\(word)")
        }
        let person = try Self.page(site, "people/張志豪.html")
        #expect(person.contains("<strong>65 TWD 付給 王小明（週五下午茶）</strong>"))
        #expect(try Self.page(site, "people/李美玲.html").contains("已結清，沒有待付款項。"))
        #expect(try Self.page(site, "groups/週一早餐.html").contains("<p>尚無訂單。</p>"))
        for path in ["index.html", "groups/週五下午茶.html", "people/張志豪.html", "rates.html", "attention.html", "changes.html"] {
            let html = try Self.page(site, path)
            for word in Self.english { #expect(!html.contains(word), "\(path) shows '\(word)'") }
        }
        let feed = try Self.page(site, "feed.xml")
        #expect(feed.contains("<title>Friday tea run：異動</title>"))
        #expect(feed.contains("<title>首次建置，沒有可比較的資料</title>"))
        let chart = try String(contentsOf: site.deletingLastPathComponent().appendingPathComponent("markdown/groups/週五下午茶.svg"), encoding: .utf8)
        #expect(chart.contains("<title>每人合計：週五下午茶（TWD）</title>"))
    }

    @Test func theSampleBuildsInEnglish() throws {
        let site = try Self.build {
            $0.replacingOccurrences(of: "language = \"zh-Hant\"", with: "language = \"en\"")
                .replacingOccurrences(of: "organizer = \"主揪\"", with: "")
        }
        let index = try Self.page(site, "index.html")
        #expect(index.hasPrefix("<!doctype html>\n<html lang=\"en\">"))
        for word in ["<h2>Grand total</h2>", "<h2>Groups</h2>", ">Exchange rates</a>", ">Attention (7)</a>", "Data as of 2026-11-21 16:00 (Asia/Taipei)"] {
            #expect(index.contains(word), "\(word)")
        }
        #expect(try Self.page(site, "people/張志豪.html").contains("<strong>65 TWD to 王小明 for 週五下午茶</strong>"))
        #expect(try Self.page(site, "people/李美玲.html").contains("Settled: nothing left to pay."))
        #expect(try Self.page(site, "groups/週一早餐.html").contains("<p>No orders yet.</p>"))
        for path in ["index.html", "groups/週五下午茶.html", "people/張志豪.html", "rates.html", "attention.html", "changes.html"] {
            let html = try Self.page(site, path)
            for word in Self.chinese { #expect(!html.contains(word), "\(path) shows '\(word)'") }
        }
    }

    /// English counts one thing in the singular: "(1 item, 1 order)", "1 row of this group was rejected".
    @Test func englishSaysOneInTheSingular() throws {
        let site = try TestSupport.sampleSite()
        let config = site.appendingPathComponent("orderpress.toml")
        let toml = try String(contentsOf: config, encoding: .utf8)
        try Data(toml.replacingOccurrences(of: "language = \"zh-Hant\"", with: "language = \"en\"")
            .replacingOccurrences(of: "organizer = \"主揪\"", with: "").utf8).write(to: config)
        // The sample's empty group gets one order and one rejected row.
        let orders = site.appendingPathComponent("data/orders.json")
        var rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: orders)) as? [[String: String]])
        var order = rows[0]
        (order["id"], order["group"], order["orderer"], order["quantity"]) = ("900", "週一早餐", "Zoe", "1")
        var rejected = order
        (rejected["id"], rejected["price"]) = ("901", "x")
        rows += [order, rejected]
        try JSONSerialization.data(withJSONObject: rows).write(to: orders)
        let result = try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock)
        #expect(result.status == 0, "\(result.stderr)")
        let group = try Self.page(site.appendingPathComponent("output/site"), "groups/週一早餐.html")
        #expect(group.contains("<strong>Total</strong> (1 item, 1 order)"), "\(group)")
        #expect(group.contains("1 row of this group was rejected and is not counted."))
        let friday = try Self.page(site.appendingPathComponent("output/site"), "groups/週五下午茶.html")
        #expect(friday.contains("(24 items, 21 orders)"))
    }

    @Test func aLabelOverrideReplacesOneLabelEverywhere() throws {
        let site = try Self.build { $0 + "grand_total = \"全部 | 合計\"\n" }  // added to the sample's [labels]
        let index = try Self.page(site, "index.html")
        #expect(index.contains("<h2>全部 | 合計</h2>"))
        #expect(index.contains("<h2>團購</h2>"))
        #expect(index.contains("<th>主揪</th>"))
    }

    @Test func anUnknownLabelExits64NamingIt() throws {
        let site = try TestSupport.sampleSite()
        let config = site.appendingPathComponent("orderpress.toml")
        try Data((try String(contentsOf: config, encoding: .utf8) + "grandtotal = \"x\"\n").utf8).write(to: config)
        let result = try TestSupport.run(["build"], in: site)
        #expect(result.status == 64)
        #expect(result.stderr == "orderpress: orderpress.toml: unknown key 'labels.grandtotal'; remove it or check its spelling\n")
    }
}
