import Foundation
import Testing

@testable import OrderPressDiff
import OrderPressTestSupport

/// `feed.xml`: ids unique per site and stable across builds; links absolute with `base_url`.
@Suite struct FeedTests {
    static func build(_ site: URL, _ epoch: String = "1795255200") throws -> String {
        let result = try TestSupport.run(["build"], in: site, environment: ["SOURCE_DATE_EPOCH": epoch])
        #expect(result.status == 0, "\(result.stderr)")
        return try String(contentsOf: site.appendingPathComponent("output/site/feed.xml"), encoding: .utf8)
    }

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    @Test func theFeedIdIsTheSiteIdKeptInTheStateAndDiffersBetweenSites() throws {
        let site = try TestSupport.sampleSite()
        let feed = try Self.build(site)
        let siteID = try StateStore(folder: site.appendingPathComponent("output/state"), writable: false).siteID(create: false)
        let ids = try Self.matches(#"<id>([^<]*)</id>"#, in: feed)
        #expect(ids.first == "urn:uuid:\(siteID.uuidString.lowercased())")
        #expect(ids.count == 2)  // the feed and its first entry
        #expect(ids.allSatisfy { $0.range(of: #"^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"#, options: .regularExpression) != nil })
        #expect(Set(ids).count == ids.count)

        // The next build with changes keeps the site id and every earlier entry's id.
        try ChangesTests.editOrders(in: site)
        let later = try Self.matches(#"<id>([^<]*)</id>"#, in: try Self.build(site, "1795258800"))
        #expect(later.count == 3)
        #expect(later.first == ids.first)
        #expect(later.last == ids.last)

        // Another site from the same configuration and data has ids of its own.
        let other = try Self.matches(#"<id>([^<]*)</id>"#, in: try Self.build(try TestSupport.sampleSite()))
        #expect(Set(other).isDisjoint(with: ids))
    }

    /// Two runs in the same second (here a pinned SOURCE_DATE_EPOCH) are two entries with two ids, and a
    /// later build keeps both.
    @Test func runsInTheSameSecondHaveDistinctEntryIds() throws {
        let site = try TestSupport.sampleSite()
        _ = try Self.build(site)
        try ChangesTests.editOrders(in: site)
        let ids = try Self.matches(#"<entry>\n<id>([^<]*)</id>"#, in: try Self.build(site))
        #expect(ids.count == 2)
        #expect(Set(ids).count == 2)

        let url = site.appendingPathComponent("data/orders.json")
        var rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: String]])
        rows.removeLast()
        try JSONSerialization.data(withJSONObject: rows).write(to: url)
        let later = try Self.matches(#"<entry>\n<id>([^<]*)</id>"#, in: try Self.build(site))
        #expect(later.count == 3)
        #expect(Set(later).count == 3)
        #expect(Array(later.dropFirst()) == ids)
    }

    @Test func withoutBaseURLLinksAreRelative() throws {
        let feed = try Self.build(try TestSupport.sampleSite())
        #expect(try Self.matches(#"href="([^"]*)""#, in: feed) == ["feed.xml", "changes.html", "changes.html"])
    }

    @Test func withBaseURLEveryLinkIsAbsolute() throws {
        let site = try TestSupport.sampleSite()
        let config = site.appendingPathComponent("orderpress.toml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try Data(("base_url = \"https://tea.example.org/friday\"\n" + text).utf8).write(to: config)
        let feed = try Self.build(site)
        #expect(try Self.matches(#"href="([^"]*)""#, in: feed) == [
            "https://tea.example.org/friday/feed.xml", "https://tea.example.org/friday/changes.html",
            "https://tea.example.org/friday/changes.html",
        ])
        // Pages keep relative links, so the site still works from file:// and any folder.
        let index = try String(contentsOf: site.appendingPathComponent("output/site/index.html"), encoding: .utf8)
        #expect(!index.contains("https://tea.example.org"))
    }

    @Test func aDryRunStoresNoSiteId() throws {
        let site = try TestSupport.sampleSite()
        let result = try TestSupport.run(["build", "--dry-run"], in: site)
        #expect(result.status == 0)
        #expect(TestSupport.files(in: site.appendingPathComponent("output/state")) == [])
    }
}
