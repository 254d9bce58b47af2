import Foundation
import Testing
import OrderPressTestSupport


/// Issue 24 item 5 through the built binary: a person whose orders were all deleted keeps their page
/// (same address) for 30 days by the run's clock, saying what was deleted and when; then it goes.
@Suite struct TombstoneBinaryTests {
    static let day: TimeInterval = 86_400
    static let start = 1_795_255_200.0

    static func clock(_ time: TimeInterval) -> [String: String] { ["SOURCE_DATE_EPOCH": String(Int(time))] }

    /// The sample built once, then again an hour later without 黃俊傑's three orders.
    static func siteWithDeletion() throws -> URL {
        let site = try TestSupport.sampleSite()
        #expect(try TestSupport.run(["build"], in: site, environment: clock(start)).status == 0)
        let orders = site.appendingPathComponent("data/orders.json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: orders)) as? [[String: Any]])
        let kept = rows.filter { $0["orderer"] as? String != "黃俊傑" }
        #expect(rows.count - kept.count == 3)
        try JSONSerialization.data(withJSONObject: kept).write(to: orders)
        let result = try TestSupport.run(["build"], in: site, environment: clock(start + 3600))
        #expect(result.status == 0, "\(result.stderr)")
        return site
    }

    @Test func aPersonWhoseOrdersWereAllDeletedKeepsTheirPageFor30Days() throws {
        let site = try Self.siteWithDeletion()
        let page = site.appendingPathComponent("output/markdown/people/黃俊傑.md")
        let html = site.appendingPathComponent("output/site/people/黃俊傑.html")
        let text = try String(contentsOf: page, encoding: .utf8)
        #expect(text.hasPrefix("# 黃俊傑\n\n[← 所有團購](../index.md)\n\n> ⚠ 這一頁的訂單都已刪除。此頁保留到 2026-12-21 19:00 (Asia/Taipei)，連結在那之前仍可使用。\n"))
        #expect(text.contains("- 2026-11-21 19:00 — ~~黃俊傑: 1 × 唐揚げ定食 普通 (980 JPY)~~ · 東京出張ランチ\n"))
        #expect(FileManager.default.fileExists(atPath: html.path))
        // Day 29, unchanged input: still there.
        let day29 = try TestSupport.run(["build"], in: site, environment: Self.clock(Self.start + 29 * Self.day))
        #expect(day29.status == 0, "\(day29.stderr)")
        #expect(FileManager.default.fileExists(atPath: page.path))
        #expect(FileManager.default.fileExists(atPath: html.path))
        // Day 31: gone.
        let day31 = try TestSupport.run(["build"], in: site, environment: Self.clock(Self.start + 31 * Self.day))
        #expect(day31.status == 0, "\(day31.stderr)")
        #expect(!FileManager.default.fileExists(atPath: page.path))
        #expect(!FileManager.default.fileExists(atPath: html.path))
        // And a rerun on the same input and clock writes nothing.
        let again = try TestSupport.run(["build"], in: site, environment: Self.clock(Self.start + 31 * Self.day))
        #expect(again.stdout.contains(" 0 files written, "), "\(again.stdout)")
    }

    @Test func aRerunOnUnchangedInputStillRemovesAnExpiredTombstone() throws {
        let site = try Self.siteWithDeletion()
        // Without rates (whose staleness would force a build anyway), the record's validity alone does it.
        let config = site.appendingPathComponent("orderpress.toml")
        var text = try String(contentsOf: config, encoding: .utf8)
        text = text.replacingOccurrences(of: "display_currencies = [\"USD\", \"JPY\"]", with: "display_currencies = []")
        if let range = text.range(of: "\n[rates]") {
            let rest = text[range.upperBound...]
            let end = rest.range(of: "\n[")?.lowerBound ?? text.endIndex
            text.removeSubrange(range.lowerBound..<end)
        }
        try Data(text.utf8).write(to: config)
        let rebuilt = try TestSupport.run(["build"], in: site, environment: Self.clock(Self.start + 2 * 3600))
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let page = site.appendingPathComponent("output/site/people/黃俊傑.html")
        #expect(FileManager.default.fileExists(atPath: page.path))
        let unchanged = try TestSupport.run(["build"], in: site, environment: Self.clock(Self.start + 2 * 3600))
        #expect(unchanged.stdout.contains(" 0 files written, "), "\(unchanged.stdout)")
        let day31 = try TestSupport.run(["build"], in: site, environment: Self.clock(Self.start + 31 * Self.day))
        #expect(day31.status == 0, "\(day31.stderr)")
        #expect(!FileManager.default.fileExists(atPath: page.path))
    }

    @Test func aGroupWhoseOrdersWereAllDeletedKeepsItsPageWithoutAGroupsSource() throws {
        let site = try TestSupport.sampleSite()
        // Without a groups source the groups are those the orders name: a cleared group has no page of its own.
        let config = site.appendingPathComponent("orderpress.toml")
        var text = try String(contentsOf: config, encoding: .utf8)
        for section in ["\n[groups]", "\n[groups.columns]"] {
            let start = try #require(text.range(of: section))
            let end = text[start.upperBound...].range(of: "\n[")?.lowerBound ?? text.endIndex
            text.removeSubrange(start.lowerBound..<end)
        }
        try Data(text.utf8).write(to: config)
        #expect(try TestSupport.run(["build"], in: site, environment: Self.clock(Self.start)).status == 0)
        let orders = site.appendingPathComponent("data/orders.json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: orders)) as? [[String: Any]])
        try JSONSerialization.data(withJSONObject: rows.filter { $0["group"] as? String != "東京出張ランチ" }).write(to: orders)
        let result = try TestSupport.run(["build"], in: site, environment: Self.clock(Self.start + 3600))
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOf: site.appendingPathComponent("output/markdown/groups/東京出張ランチ.md"), encoding: .utf8)
        #expect(page.contains("> ⚠ 這一頁的訂單都已刪除。此頁保留到 2026-12-21 19:00 (Asia/Taipei)"))
        #expect(page.contains("- 2026-11-21 19:00 — ~~張志豪: 1 × 親子丼 普通 (850 JPY)~~\n"))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output/markdown/groups/東京出張ランチ.svg").path))
    }
}
