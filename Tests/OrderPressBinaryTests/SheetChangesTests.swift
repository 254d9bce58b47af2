import Foundation
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// Changes as a sheet filled by people makes them, run through the built binary: rows without ids
/// (a Google Form's response tab), a checkbox `paid` column that fills every unused row with `FALSE`,
/// rows that turn rejected and back. Only valid orders are added, deleted or changed; a row that turns
/// rejected is no longer counted, one that turns valid is now counted.
@Suite struct SheetChangesTests {
    static let first = ["SOURCE_DATE_EPOCH": "1795255200"]  // 2026-11-21T10:00:00Z
    static let second = ["SOURCE_DATE_EPOCH": "1795258800"]  // an hour later
    static let third = ["SOURCE_DATE_EPOCH": "1795262400"]  // two hours later
    static let git = ["GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "t@example.com"]

    /// A site reading `orders.csv` (no id column), in English; `extra` is appended to its configuration.
    static func site(_ csv: String, extra: String = "") -> URL {
        let site = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "orderpress.toml": """
                    title = "Tea"
                    language = "en"
                    base_currency = "TWD"
                    timezone = "Asia/Taipei"
                    [orders]
                    path = "orders.csv"
                    [orders.columns]
                    options = ["sugar"]
                    [minor_units]
                    TWD = 0
                    \(extra)
                    """,
                "orders.csv": csv,
            ], in: site)
        return site
    }

    static func write(_ csv: String, in site: URL) throws {
        try Data(csv.utf8).write(to: site.appendingPathComponent("orders.csv"))
    }

    static func build(_ site: URL, _ environment: [String: String], _ arguments: [String] = []) throws -> String {
        let result = try TestSupport.run(["build"] + arguments, in: site, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    static func text(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent("output/\(path)"), encoding: .utf8)
    }

    static func changes(_ site: URL) throws -> [String: Any] {
        try #require(try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))["changes"] as? [String: Any])
    }

    /// The reasons `summary.json` gives for the rejected row at `row`.
    static func reasons(_ site: URL, row: Int) throws -> [String] {
        let rejected = try #require(try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))["rejected"] as? [[String: Any]])
        return try #require(rejected.first { $0["row"] as? Int == row }?["reasons"] as? [String])
    }

    static let unused = String(repeating: ",,,,,FALSE\n", count: 3)

    /// A checkbox `paid` column and unused rows: a rejected row fixed is now counted, an order whose price
    /// is cleared is no longer counted (with the reason), and neither unused nor rejected rows are ever
    /// added or deleted orders, however many come and go.
    @Test func rowsThatTurnRejectedOrValidAreNoLongerOrNowCounted() throws {
        let header = "group,orderer,drink,sugar,price,paid\n"
        let site = Self.site(
            header + "週五下午茶,Amy,紅茶,半糖,60,FALSE\n週五下午茶,Ben,綠茶,無糖,abc,FALSE\n週五下午茶,Cat,奶茶,半糖,50,TRUE\n" + Self.unused)
        #expect(try Self.build(site, Self.first).contains("· first run: nothing to compare ·"))

        try Self.write(
            header + "週五下午茶,Amy,紅茶,半糖,60,FALSE\n週五下午茶,Ben,綠茶,無糖,55,FALSE\n週五下午茶,Cat,奶茶,半糖,,TRUE\n" + Self.unused + Self.unused,
            in: site)
        let diff = try TestSupport.run(["diff"], in: site, environment: Self.second)
        let reasons = "price is missing (column 'price')"
        #expect(diff.stdout == """
            no longer counted  row 4 Cat: 1 × 奶茶 半糖 · 週五下午茶 · 50 TWD: \(reasons)
            now counted  row 3 Ben: 1 × 綠茶 無糖 · 週五下午茶 · 55 TWD
            1 no longer counted, 1 now counted since the build of 2026-11-21 18:00 (Asia/Taipei)

            """)
        #expect(try Self.build(site, Self.second).contains("· 1 no longer counted, 1 now counted ·"))
        let changes = try Self.changes(site)
        #expect((changes["deleted"] as? [Any])?.isEmpty == true)
        #expect((changes["added"] as? [Any])?.isEmpty == true)
        #expect((changes["changed"] as? [Any])?.isEmpty == true)
        let lost = try #require(changes["no_longer_counted"] as? [[String: Any]])
        #expect(lost.count == 1)
        #expect(lost.first?["row"] as? Int == 4)
        #expect(lost.first?["person"] as? String == "Cat")
        #expect(lost.first?["amount"] as? String == "50")
        #expect(lost.first?["first_seen"] as? String == "2026-11-21T10:00:00Z")
        #expect(lost.first?["fields"] as? [String: [String]] == ["price": ["50", ""]])
        #expect(lost.first?["reasons"] as? [String] == [reasons])
        #expect(try Self.reasons(site, row: 4) == [reasons])
        let counted = try #require(changes["now_counted"] as? [[String: Any]])
        #expect(counted.count == 1)
        #expect(counted.first?["row"] as? Int == 3)
        #expect(counted.first?["person"] as? String == "Ben")
        #expect(counted.first?["amount"] as? String == "55")
        #expect(counted.first?["fields"] as? [String: [String]] == ["price": ["abc", "55"]])
        #expect(counted.first?["reasons"] == nil)

        let page = try Self.text(site, "markdown/changes.md")
        #expect(page.contains("""
            ## 2026-11-21 19:00: 1 no longer counted, 1 now counted

            ### ⚠ Orders no longer counted (1)

            | Person | Item | Amount | Reasons | Group | Row |
            |---|---|--:|---|---|--:|
            | **Cat** | 1 × 奶茶 半糖 | 50 TWD | price is missing \\(column 'price'\\) | 週五下午茶 | 4 |

            ### Orders now counted (1)

            | Person | Item | Amount | Group | Row |
            |---|---|--:|---|--:|
            | Ben | 1 × 綠茶 無糖 | 55 TWD | 週五下午茶 | 3 |

            ## 2026-11-21 18:00: first run
            """))
        #expect(!page.contains("Deleted orders") && !page.contains("Added orders"))
        let feed = try Self.text(site, "site/feed.xml")
        #expect(feed.contains("<title>1 no longer counted, 1 now counted</title>"))
        #expect(feed.contains(XMLEscaper.escape("No longer counted: Cat, 1 × 奶茶 半糖, 週五下午茶, 50 TWD: \(reasons)\nNow counted: Ben, 1 × 綠茶 無糖, 週五下午茶, 55 TWD")))
        #expect(!(try Self.text(site, "markdown/index.md")).contains("~~"))

        // Cat's price back and every unused row gone: Cat is counted again, nothing is deleted.
        try Self.write(header + "週五下午茶,Amy,紅茶,半糖,60,FALSE\n週五下午茶,Ben,綠茶,無糖,55,FALSE\n週五下午茶,Cat,奶茶,半糖,50,TRUE\n", in: site)
        #expect(try Self.build(site, Self.third).contains("· 1 now counted ·"))
        let fixed = try Self.changes(site)
        #expect((fixed["deleted"] as? [Any])?.isEmpty == true)
        #expect((fixed["no_longer_counted"] as? [Any])?.isEmpty == true)
        #expect((fixed["now_counted"] as? [[String: Any]])?.compactMap { $0["person"] as? String } == ["Cat"])
    }

    /// `diff` says when the last build was as every page shows a time: in the site's `timezone`, in the one
    /// format pages use, whatever the machine's zone (`TZ`) and locale.
    @Test(arguments: [
        ("Asia/Taipei", "2026-11-21 18:00 (Asia/Taipei)"), ("America/New_York", "2026-11-21 05:00 (America/New_York)"),
        ("Asia/Kolkata", "2026-11-21 15:30 (Asia/Kolkata)"), ("Europe/Paris", "2026-11-21 11:00 (Europe/Paris)"),
    ])
    func diffSaysTheLastBuildsTimeInTheSiteZone(zone: String, shown: String) throws {
        let header = "group,orderer,drink,sugar,price\n"
        let site = Self.site(header + "週五下午茶,Amy,紅茶,半糖,60\n")
        let toml = site.appendingPathComponent("orderpress.toml")
        let configured = try String(contentsOf: toml, encoding: .utf8).replacingOccurrences(of: "Asia/Taipei", with: zone)
        try Data(configured.utf8).write(to: toml)
        _ = try Self.build(site, Self.first)
        let machine = ["TZ": "Pacific/Auckland", "LC_ALL": "de_DE.UTF-8"]
        let same = try TestSupport.run(["diff"], in: site, environment: Self.second.merging(machine) { $1 })
        #expect(same.stdout == "no changes since the build of \(shown)\n", "\(same.stderr)")
        try Self.write(header + "週五下午茶,Amy,紅茶,半糖,65\n", in: site)
        let diff = try TestSupport.run(["diff"], in: site, environment: Self.second.merging(machine) { $1 })
        #expect(diff.stdout.hasSuffix("1 changed since the build of \(shown)\n"), "\(diff.stdout)\(diff.stderr)")
    }

    /// A price typo fixed in a row without an id is one changed order, wherever the run is told: the
    /// diff command, the summary line, `summary.json`, the Changes page, the feed, the git commit; and no
    /// page strikes through an order that is still there.
    @Test func aTypoFixedInARowWithoutAnIdIsOneChangedOrderEverywhere() throws {
        let header = "group,orderer,drink,sugar,price\n"
        let site = Self.site(header + "週五下午茶,Amy,紅茶,半糖,60\n週五下午茶,Ben,綠茶,無糖,35\n週五下午茶,Amy,奶茶,半糖,50\n", extra: "[git]\ncommit = true")
        let runGit = { (arguments: [String]) throws -> String in
            let result = try TestSupport.run(["-C", site.path] + arguments, environment: Self.git, executable: URL(fileURLWithPath: "/usr/bin/git"))
            return result.stdout
        }
        _ = try runGit(["init", "--quiet"])
        _ = try Self.build(site, Self.first.merging(Self.git) { $1 })

        try Self.write(header + "週五下午茶,Amy,紅茶,半糖,65\n週五下午茶,Ben,綠茶,無糖,35\n週五下午茶,Amy,奶茶,半糖,50\n", in: site)
        let diff = try TestSupport.run(["diff"], in: site, environment: Self.second)
        #expect(diff.stdout == """
            changed  row 2 Amy: 1 × 紅茶 半糖 · 週五下午茶 · 65 TWD: price 60 → 65
            1 changed since the build of 2026-11-21 18:00 (Asia/Taipei)

            """)
        #expect(try Self.build(site, Self.second.merging(Self.git) { $1 }).contains("· 1 changed ·"))
        #expect(try runGit(["log", "--format=%s"]) == "Tea: 1 changed\nTea: first run: nothing to compare\n")

        let changes = try Self.changes(site)
        #expect((changes["deleted"] as? [Any])?.isEmpty == true)
        #expect((changes["added"] as? [Any])?.isEmpty == true)
        let changed = try #require(changes["changed"] as? [[String: Any]])
        #expect(changed.count == 1)
        #expect(changed.first?["row"] as? Int == 2)
        #expect(changed.first?["fields"] as? [String: [String]] == ["price": ["60", "65"]])

        let page = try Self.text(site, "markdown/changes.md")
        #expect(page.contains("""
            ## 2026-11-21 19:00: 1 changed

            ### Changed orders (1)

            | Person | Item | Group | Row | What changed |
            |---|---|---|--:|---|
            | Amy | 1 × 紅茶 半糖 | 週五下午茶 | 2 | price: 60 → 65 |

            ## 2026-11-21 18:00
            """))
        #expect(!page.contains("Deleted orders") && !page.contains("Added orders"))
        let feed = try Self.text(site, "site/feed.xml")
        #expect(feed.contains("<title>1 changed</title>"))
        #expect(feed.contains("<content type=\"text\">Changed: Amy, 紅茶 (週五下午茶): price 60 → 65</content>"))
        #expect(!feed.contains("Deleted:") && !feed.contains("Added:"))

        let index = try Self.text(site, "markdown/index.md")
        #expect(index.contains("## Latest change: 2026-11-21 19:00\n\n1 changed\n"))
        let group = try Self.text(site, "markdown/groups/週五下午茶.md")
        for markdown in [index, group] {
            #expect(!markdown.contains("~~"))
            #expect(!markdown.contains("Deleted in the latest change"))
        }
        #expect(group.contains("| 1 × 紅茶 半糖 | 65 | 65 |"))
    }

    /// The guard counts orders that turned rejected, told apart from those gone; once accepted, they
    /// are no longer counted, not deleted.
    @Test func theGuardCountsOrdersThatTurnedRejected() throws {
        let header = "group,orderer,drink,sugar,price,paid\n"
        let site = Self.site(header + "週五下午茶,Amy,紅茶,半糖,60,FALSE\n週五下午茶,Ben,綠茶,無糖,35,FALSE\n週五下午茶,Cat,奶茶,半糖,50,FALSE\n" + Self.unused)
        _ = try Self.build(site, Self.first)
        let output = site.appendingPathComponent("output")
        let before = try TestSupport.contents(of: output)

        try Self.write(header + "週五下午茶,Amy,紅茶,半糖,free,FALSE\n週五下午茶,Ben,綠茶,無糖,free,FALSE\n" + Self.unused, in: site)
        let refused = try TestSupport.run(["build"], in: site, environment: Self.second)
        #expect(refused.status == 65)
        #expect(refused.stderr == "orderpress: diff: 3 of the last run's 3 orders are no longer valid orders (1 gone, 2 now rejected), more than 50%; nothing was published; if that is right, run again with --accept-deletions\n")
        #expect(try TestSupport.besidesHealth(TestSupport.contents(of: output)) == TestSupport.besidesHealth(before))

        #expect(try Self.build(site, Self.second, ["--accept-deletions"]).contains("· 1 deleted, 2 no longer counted ·"))
        let changes = try Self.changes(site)
        #expect((changes["deleted"] as? [[String: Any]])?.compactMap { $0["person"] as? String } == ["Cat"])
        #expect((changes["added"] as? [Any])?.isEmpty == true)
        let lost = try #require(changes["no_longer_counted"] as? [[String: Any]])
        #expect(lost.compactMap { $0["person"] as? String } == ["Amy", "Ben"])
        #expect(lost.compactMap { $0["reasons"] as? [String] } == [try Self.reasons(site, row: 2), try Self.reasons(site, row: 3)])
    }
}
