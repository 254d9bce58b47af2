import Foundation
import GRDB
import Testing

@testable import OrderPressSupport
@testable import OrderPressSlugs
@testable import OrderPressDiff
import OrderPressTestSupport

/// One person, one page (docs/configuration.md), through the built binary on a Form-shaped sheet with the
/// spellings of issue 35: ten spellings of seven people make seven pages with exact totals, the merged
/// spellings are listed, the organiser written without her space never pays herself, an organiser one
/// letter from an orderer gets "did you mean", and a site whose state holds the slugs of the old rule
/// (a page per spelling) keeps every one of those pages and every link after the rebuild.
@Suite struct PersonIdentityTests {
    static let clock = ["SOURCE_DATE_EPOCH": "1795255200"]  // 2026-11-21T10:00:00Z
    static let later = ["SOURCE_DATE_EPOCH": "1795258800"]
    static let latest = ["SOURCE_DATE_EPOCH": "1795262400"]

    static let header = "時間戳記,姓名,團購,飲料,單價,已付款\n"
    static let rows = [
        "2026-11-21 09:00,伊藤 健,週五下午茶,紅茶,300,FALSE",
        "2026-11-21 09:01,伊藤健,週五下午茶,綠茶,250,FALSE",
        "2026-11-21 09:02,伊藤 健,週五下午茶,奶茶,400,FALSE",
        "2026-11-21 09:03,ﾔﾏﾀﾞ ﾀﾛｳ,週五下午茶,紅茶,300,FALSE",
        "2026-11-21 09:04,ヤマダ タロウ,週五下午茶,紅茶,300,FALSE",
        "2026-11-21 09:05,Ｋｅｎ,週五下午茶,奶茶,400,FALSE",
        "2026-11-21 09:06,Ken,週五下午茶,綠茶,250,FALSE",
        "2026-11-21 09:07,Ken,週五下午茶,綠茶,250,FALSE",
        "2026-11-21 09:08,佐藤 花子,週五下午茶,奶茶,590,FALSE",
        "2026-11-21 09:09,陳怡君,Lunch,便當,800,FALSE",
        "2026-11-21 09:10,Ben,Lunch,便當,800,FALSE",
        "2026-11-21 09:11,王小明,Lunch,便當,800,FALSE",
    ]

    static func site() -> URL {
        let site = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "orderpress.toml": """
                    title = "Form"
                    language = "en"
                    base_currency = "JPY"
                    timezone = "Asia/Tokyo"
                    [orders]
                    path = "orders.csv"
                    [orders.columns]
                    time = "時間戳記"
                    person = "姓名"
                    group = "團購"
                    item = "飲料"
                    price = "單價"
                    paid = "已付款"
                    secret = []
                    [groups]
                    path = "groups.csv"
                    [groups.columns]
                    name = "團購"
                    organizer = "團主"
                    currency = "幣別"
                    """,
                "orders.csv": header + rows.joined(separator: "\n") + "\n",
                "groups.csv": "團購,團主,幣別\n週五下午茶,佐藤花子,JPY\nLunch,陳怡均,JPY\n",
            ], in: site)
        return site
    }

    static func build(_ site: URL, _ clock: [String: String]) throws {
        let result = try TestSupport.run(["build"], in: site, environment: clock)
        #expect(result.status == 0, "\(result.stderr)")
    }

    static func summary(_ site: URL) throws -> [String: Any] {
        try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
    }

    static func people(_ site: URL) throws -> [[String: Any]] {
        try #require(try summary(site)["people"] as? [[String: Any]])
    }

    static func text(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent("output/\(path)"), encoding: .utf8)
    }

    @Test func sevenPeopleMakeSevenPagesWithTheirWholeTotals() throws {
        let site = Self.site()
        try Self.build(site, Self.clock)
        let people = try Self.people(site)
        let totals = Dictionary(uniqueKeysWithValues: people.map { ($0["name"] as! String, ($0["totals"] as! [String: String])["JPY"]!) })
        #expect(
            totals == ["伊藤 健": "950", "ﾔﾏﾀﾞ ﾀﾛｳ": "600", "Ken": "900", "佐藤 花子": "590", "陳怡君": "800", "Ben": "800", "王小明": "800"])
        let pages = TestSupport.files(in: site.appendingPathComponent("output/markdown/people"))
        #expect(pages.count == 7, "\(pages)")
        #expect(Set(people.map { "\($0["slug"] as! String).md" }) == Set(pages))
        // The group lists each person once, under the spelling shown.
        let groups = try #require(try Self.summary(site)["groups"] as? [[String: Any]])
        let tea = try #require(groups.first { $0["name"] as? String == "週五下午茶" }?["people"] as? [[String: Any]])
        #expect(Set(tea.map { $0["name"] as! String }) == ["伊藤 健", "ﾔﾏﾀﾞ ﾀﾛｳ", "Ken", "佐藤 花子"])
        // orders.csv keeps each row's own spelling.
        let csv = try Self.text(site, "site/orders.csv")
        for spelling in ["伊藤健", "ヤマダ タロウ", "Ｋｅｎ"] { #expect(csv.contains(spelling), "\(spelling)") }
    }

    @Test func theSpellingsMergedAreListed() throws {
        let site = Self.site()
        try Self.build(site, Self.clock)
        let warnings = try #require(try Self.summary(site)["warnings"] as? [[String: Any]])
        let merged = warnings.filter { $0["code"] as? String == "person_spellings_merged" }.compactMap { $0["message"] as? String }
        #expect(merged.count == 3, "\(warnings)")
        for spellings in ["伊藤 健 / 伊藤健", "ﾔﾏﾀﾞ ﾀﾛｳ / ヤマダ タロウ", "Ken / Ｋｅｎ"] {
            #expect(merged.contains { $0.hasPrefix("\(spellings) → one person") }, "\(spellings): \(merged)")
        }
        let attention = try Self.text(site, "site/attention.html")
        #expect(attention.contains("伊藤 健 / 伊藤健 → one person"), "\(attention)")
        let check = try TestSupport.run(["check"], in: site, environment: Self.clock)
        #expect(check.stdout.contains("伊藤 健 / 伊藤健 → one person") || check.stderr.contains("伊藤 健 / 伊藤健 → one person"), "\(check)")
    }

    @Test func theOrganiserWrittenWithoutHerSpaceNeverPaysHerself() throws {
        let site = Self.site()
        try Self.build(site, Self.clock)
        let hanako = try #require(try Self.people(site).first { $0["name"] as? String == "佐藤 花子" })
        #expect(hanako["outstanding"] as? [String: String] == ["JPY": "0"], "\(hanako)")
        let page = try Self.text(site, "markdown/people/\(hanako["slug"] as! String).md")
        #expect(!page.contains("to 佐藤花子"), "\(page)")
        // Everyone else in her group pays her.
        let ken = try #require(try Self.people(site).first { $0["name"] as? String == "Ken" })
        #expect(try Self.text(site, "markdown/people/\(ken["slug"] as! String).md").contains("to 佐藤花子"))
    }

    @Test func anOrganiserOneLetterFromAnOrdererIsAskedAbout() throws {
        let site = Self.site()
        try Self.build(site, Self.clock)
        let warnings = try #require(try Self.summary(site)["warnings"] as? [[String: Any]])
        let asked = warnings.filter { $0["code"] as? String == "organizer_unmatched" }.compactMap { $0["message"] as? String }
        #expect(asked == ["group 'Lunch': organiser '陳怡均' is no one who ordered; did you mean '陳怡君'?"], "\(warnings)")
        let check = try TestSupport.run(["check"], in: site, environment: Self.clock)
        #expect((check.stdout + check.stderr).contains("did you mean '陳怡君'"), "\(check)")
        // The pages say it in members' words: the question is the organiser's, in `check`.
        let attention = try Self.text(site, "site/attention.html")
        #expect(attention.contains("is no one who ordered") && !attention.contains("did you mean"), "\(attention)")

        // An organiser who ordered in another group is someone: 王小明 organises a group where only 王小名 ordered.
        try Data("團購,團主,幣別\n週五下午茶,佐藤花子,JPY\nLunch,陳怡均,JPY\nDinner,王小明,JPY\n".utf8).write(to: site.appendingPathComponent("groups.csv"))
        try Data((Self.header + (Self.rows + ["2026-11-21 10:00,王小名,Dinner,便當,800,FALSE"]).joined(separator: "\n") + "\n").utf8)
            .write(to: site.appendingPathComponent("orders.csv"))
        try Self.build(site, Self.later)
        let again = try #require(try Self.summary(site)["warnings"] as? [[String: Any]])
        #expect(again.filter { $0["code"] as? String == "organizer_unmatched" }.count == 1, "\(again)")
    }

    /// The state of a site built when each spelling was a person: its slug table, as that build stored it.
    static func oldSlugs() -> String {
        let spellings = rows.map { $0.split(separator: ",")[1] }.map { Text.normalize(String($0)) }
        let people = Slugger.assignInOrder(Set(spellings.map(Text.lowercased)), fallback: "person")
        let groups = Slugger.assignInOrder(["週五下午茶", "Lunch"], fallback: "group")
        return PageSlugs.text(groups: groups, people: people)
    }

    @Test func aSiteBuiltWithAPagePerSpellingKeepsEveryLink() throws {
        let site = Self.site()
        try Self.build(site, Self.clock)
        // The old rule's slugs in the state, as a build before this one left them.
        let old = Self.oldSlugs()
        let database = try DatabaseQueue(path: site.appendingPathComponent("output/state/\(StateDatabase.fileName)").path)
        try database.write { try $0.execute(sql: "UPDATE setting SET value = ? WHERE key = ?", arguments: [old, StateDatabase.pageSlugsKey]) }
        try database.close()
        let oldPages = old.split(separator: "\n").filter { $0.hasPrefix("p\t") }.map { String($0.split(separator: "\t")[2]) }
        #expect(oldPages.count == 10)

        try Data((Self.header + (Self.rows + ["2026-11-21 10:00,王小明,Lunch,便當,800,FALSE"]).joined(separator: "\n") + "\n").utf8)
            .write(to: site.appendingPathComponent("orders.csv"))
        try Self.build(site, Self.later)
        for slug in oldPages {
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("output/site/people/\(slug).html").path), "\(slug)")
        }
        #expect(TestSupport.files(in: site.appendingPathComponent("output/markdown/people")).count == 10)
        try Self.expectLinksResolve(in: site.appendingPathComponent("output/site"))
        let slugs = Dictionary(uniqueKeysWithValues: try Self.people(site).map { ($0["name"] as! String, $0["slug"] as! String) })
        // A merged spelling's page points to the person's.
        let moved = try #require(oldPages.first { $0 != slugs["伊藤 健"] && $0.hasPrefix("伊藤") })
        #expect(try Self.text(site, "markdown/people/\(moved).md").contains("](\(slugs["伊藤 健"]!).md)"))

        // Most rows now write 伊藤健: the name shown follows them, the page stays where it is.
        try Data((Self.header + (Self.rows + ["2026-11-21 10:01,伊藤健,週五下午茶,紅茶,300,FALSE", "2026-11-21 10:02,伊藤健,週五下午茶,紅茶,300,FALSE"])
            .joined(separator: "\n") + "\n").utf8).write(to: site.appendingPathComponent("orders.csv"))
        try Self.build(site, Self.latest)
        let after = Dictionary(uniqueKeysWithValues: try Self.people(site).map { ($0["name"] as! String, $0["slug"] as! String) })
        #expect(after["伊藤健"] == slugs["伊藤 健"], "\(after)")
        for slug in oldPages {
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("output/site/people/\(slug).html").path), "\(slug)")
        }
        try Self.expectLinksResolve(in: site.appendingPathComponent("output/site"))
    }

    /// Every relative `href` and `src` of every HTML page names a file of the site.
    static func expectLinksResolve(in folder: URL) throws {
        let pattern = try NSRegularExpression(pattern: ##"(?:href|src)="([^"#]*)[^"]*""##)
        for path in TestSupport.files(in: folder) where path.hasSuffix(".html") {
            let html = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
                let link = String(html[Range(match.range(at: 1), in: html)!])
                guard !link.isEmpty, !link.contains(":") else { continue }
                let decoded = link.replacingOccurrences(of: "&amp;", with: "&").removingPercentEncoding ?? link
                let target = folder.appendingPathComponent(path).deletingLastPathComponent().appendingPathComponent(decoded).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: target.path), "\(path) links to \(link)")
            }
        }
    }
}
