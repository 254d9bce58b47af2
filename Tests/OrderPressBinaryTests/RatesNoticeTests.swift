import Foundation
import Testing
import OrderPressTestSupport


/// The rates' staleness flag on every page of converted totals, with a pinned clock
/// (`SOURCE_DATE_EPOCH`): the sample's rates are as of 2026-11-21 08:00 UTC and `max_age_hours` is 48,
/// so they turn stale after 2026-11-23 08:00 UTC (1795420800).
@Suite struct RatesNoticeTests {
    static let fresh = ["SOURCE_DATE_EPOCH": "1795255200"]  // 2026-11-21 10:00 UTC
    static let lastFreshSecond = ["SOURCE_DATE_EPOCH": "1795420800"]
    static let stale = ["SOURCE_DATE_EPOCH": "1795420801"]
    static let notice = "> 匯率（2026-11-21 16:00）已超過 48 小時未更新。"

    /// The pages that show converted amounts: the index, the rates page, every group and person page.
    static func pagesShowingConversions(_ site: URL) -> [String] {
        TestSupport.files(in: site.appendingPathComponent("output/markdown")).filter {
            $0 == "index.md" || $0 == "rates.md" || ($0.hasPrefix("groups/") || $0.hasPrefix("people/")) && $0.hasSuffix(".md")
        }
    }

    static func markdown(_ site: URL, _ page: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent("output/markdown/\(page)"), encoding: .utf8)
    }

    @Test func stalenessIsOnEveryPage() throws {
        let site = try TestSupport.sampleSite()
        #expect(try TestSupport.run(["build"], in: site, environment: Self.stale).status == 0)
        let pages = TestSupport.files(in: site.appendingPathComponent("output/markdown")).filter { $0.hasSuffix(".md") }
        #expect(pages.contains { $0.hasPrefix("people/") })
        #expect(pages.contains("attention.md") && pages.contains("changes.md"))
        for page in pages { #expect(try Self.markdown(site, page).contains(Self.notice), "\(page)") }
    }

    /// Forward past `max_age_hours`, then back (an NTP fix, a re-pinned clock): each rerun's pages are
    /// byte for byte what a build from scratch at its clock makes, and a rerun that changes nothing writes nothing.
    @Test(arguments: [fresh, lastFreshSecond])
    func aClockSetBackGivesWhatABuildFromScratchGives(back: [String: String]) throws {
        let site = try TestSupport.sampleSite()
        #expect(try TestSupport.run(["build"], in: site, environment: Self.fresh).status == 0)
        let forward = try TestSupport.run(["build"], in: site, environment: Self.stale)
        #expect(forward.status == 0, "\(forward.stderr)")
        #expect(try Self.markdown(site, "people/amy.md").contains(Self.notice))

        let rerun = try TestSupport.run(["build"], in: site, environment: back)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(!rerun.stdout.contains(" 0 files written"), "\(rerun.stdout)")
        let rates = try #require(try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))["rates"] as? [String: Any])
        #expect(rates["stale"] as? Bool == false)
        for page in Self.pagesShowingConversions(site) { #expect(try !Self.markdown(site, page).contains("已超過 48 小時"), "\(page)") }

        let scratch = try TestSupport.sampleSite()
        #expect(try TestSupport.run(["build"], in: scratch, environment: back).status == 0)
        for tree in ["output/markdown", "output/site"] {
            let (kept, fromScratch) = (try TestSupport.contents(of: site.appendingPathComponent(tree)), try TestSupport.contents(of: scratch.appendingPathComponent(tree)))
            // The history differs (the first build's entry, at another clock); everything else is the same.
            let compared = kept.keys.filter { !["changes.md", "changes.html", "feed.xml", "summary.json", "index.md", "index.html"].contains($0) }
            #expect(Set(kept.keys) == Set(fromScratch.keys))
            for path in compared { #expect(kept[path] == fromScratch[path], "\(tree)/\(path)") }
        }

        // Unchanged input at the same clock: nothing to do.
        let same = try TestSupport.run(["build"], in: site, environment: back)
        #expect(same.stdout.contains("0 files written"), "\(same.stdout)")
    }
}
