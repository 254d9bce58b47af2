import Foundation
import Testing
import OrderPressTestSupport


/// `[rounds] close_after_deadline`, through the built binary with a pinned clock: clearing a group whose
/// deadline has passed closes its round (archived and published, exit 0, no deletion news), while
/// clearing one whose deadline is still ahead is a mass deletion, refused as ever (65).
@Suite struct RoundsTests {
    static let header = "id,group,orderer,drink,size,sugar,ice,quantity,price,paid"
    static let tea = [
        "1,Tea,Amy,熟成紅茶,L,半糖,少冰,1,45,FALSE",
        "2,Tea,Ben,珍珠奶茶,M,無糖,正常冰,2,50,TRUE",
        "3,Tea,Cat,熟成紅茶,L,半糖,少冰,1,45,FALSE",
        "4,Tea,Dan,冬瓜檸檬,M,微糖,少冰,1,40,",
    ]
    static let lunch = "5,Lunch,Eve,排骨飯,,,,1,100,FALSE"
    /// 2026-11-21 18:00 in Taipei, then an hour later.
    static let (first, second) = (1_795_255_200, 1_795_258_800)

    /// A TWD site of two groups from `orders.csv` and `groups.csv`, rounds closing after their deadline
    /// unless `rounds` is false (RoundCloseTests builds on it too).
    static func configuration(rounds: Bool = true, extra: String = "") -> String {
        """
        title = "Tea"
        base_currency = "TWD"
        timezone = "Asia/Taipei"
        [minor_units]
        TWD = 0
        [orders]
        path = "orders.csv"
        [groups]
        path = "groups.csv"
        \(rounds ? "[rounds]\nclose_after_deadline = true\n" : "")
        \(extra)
        """
    }

    static func site(teaDeadline: String, rounds: Bool = true, extra: String = "") -> URL {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "orderpress.toml": configuration(rounds: rounds, extra: extra),
                "groups.csv": "group,organizer,shop,currency,deadline\nTea,Amy,春日茶屋,TWD,\(teaDeadline)\nLunch,Ben,便當店,TWD,2026-11-30 12:00\n",
                "orders.csv": ([header] + tea + [lunch]).joined(separator: "\n") + "\n",
            ], in: folder)
        return folder
    }

    static func build(_ site: URL, at epoch: Int, _ extra: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.run(["build", "--quiet"] + extra, in: site, environment: ["SOURCE_DATE_EPOCH": String(epoch)])
    }

    static func clearTea(_ site: URL, adding rows: [String] = []) throws {
        try Data((([header, lunch] + rows).joined(separator: "\n") + "\n").utf8).write(to: site.appendingPathComponent("orders.csv"))
    }

    static func read(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent("output/\(path)"), encoding: .utf8)
    }

    static let archive = """
        # Tea · 2026-11-21

        [← All groups](../../index.md) · [Tea](../../groups/tea.md)

        > The final state of this round, kept when its orders were cleared after the deadline (2026-11-21 19:00).

        - Organiser: [Amy](../../people/amy.md)
        - Shop: 春日茶屋
        - Deadline: 2026-11-21 14:00

        ## Shop order sheet

        | Order | Unit price | Line total |
        |---|--:|--:|
        | 1 × 冬瓜檸檬 M 微糖 少冰 | 40 TWD | 40 TWD |
        | 2 × 熟成紅茶 L 半糖 少冰 | 45 TWD | 90 TWD |
        | 2 × 珍珠奶茶 M 無糖 正常冰 | 50 TWD | 100 TWD |
        | **Total** | | **230 TWD** |

        ## Totals per person

        | Person | Total | Paid | Owes |
        |---|--:|--:|--:|
        | [Amy](../../people/amy.md) | 45 TWD | 45 TWD | 0 TWD |
        | [Ben](../../people/ben.md) | 100 TWD | 100 TWD | 0 TWD |
        | [Cat](../../people/cat.md) | 45 TWD | 0 TWD | 45 TWD |
        | [Dan](../../people/dan.md) | 40 TWD | 0 TWD | 40 TWD |

        """

    @Test func aPastDeadlineGroupClearedIsArchivedAndPublished() throws {
        let site = Self.site(teaDeadline: "2026-11-21 14:00")
        let first = try Self.build(site, at: Self.first)
        #expect(first.status == 0 && first.stdout == "", "\(first)")
        try Self.clearTea(site)
        // 4 of 5 orders gone: past the guard's 50%, but a finished round. No deletion line for cron.
        let closed = try Self.build(site, at: Self.second)
        #expect(closed.status == 0, "\(closed.stderr)")
        #expect(closed.stdout == "" && closed.stderr == "")
        // The final state, as the last build had it (the organiser's own order counts as paid).
        #expect(try Self.read(site, "markdown/archive/tea/2026-11-21.md") == Self.archive)
        let html = try Self.read(site, "site/archive/tea/2026-11-21.html")
        #expect(html.contains(#"<td><a href="../../people/cat.html">Cat</a></td>"#))
        // Two folders down: every link of the layout and the page climbs both.
        #expect(html.contains(#"<link rel="stylesheet" href="../../style.css">"#) && html.contains(#"<a href="../../index.html">Tea</a>"#))
        #expect(html.contains(#"<a href="../../index.html">← All groups</a> · <a href="../../groups/tea.html">Tea</a>"#))
        #expect(try Self.read(site, "markdown/index.md").hasSuffix("\n## Archive\n\n- [Tea · 2026-11-21](archive/tea/2026-11-21.md)\n"))
        #expect(try Self.read(site, "markdown/groups/tea.md").contains("\n- Past rounds: [2026-11-21](../archive/tea/2026-11-21.md)\n"))
        // The changes say "round closed", never deleted.
        let changes = try Self.read(site, "markdown/changes.md")
        #expect(changes.contains("\n- Round closed: Tea, 4 orders archived · [Archive](archive/tea/2026-11-21.md)\n\n## "))
        #expect(!changes.contains("Deleted"))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(Self.read(site, "site/summary.json").utf8)) as? [String: Any])
        let summaryChanges = try #require(summary["changes"] as? [String: Any])
        #expect((summaryChanges["deleted"] as? [Any])?.isEmpty == true)
        #expect((summaryChanges["round_closed"] as? [Any])?.count == 4)
        let feed = try Self.read(site, "site/feed.xml")
        #expect(feed.contains("<title>round closed: Tea</title>") && feed.contains("Round closed: Tea, 4 orders archived"))

        // Later runs keep publishing it: a new round starts, an unrelated order comes and goes.
        try Self.clearTea(site, adding: ["6,Tea,Amy,四季春,L,半糖,少冰,1,35,FALSE"])
        let next = try Self.build(site, at: Self.second + 3600)
        #expect(next.status == 0, "\(next.stderr)")
        // Everyone the archive names kept a page throughout: the archive is as it was.
        #expect(try Self.read(site, "markdown/archive/tea/2026-11-21.md") == Self.archive)
        #expect(try Self.read(site, "markdown/groups/tea.md").contains("- Past rounds: [2026-11-21](../archive/tea/2026-11-21.md)"))
        let rerun = try TestSupport.run(["build"], in: site, environment: ["SOURCE_DATE_EPOCH": String(Self.second + 7200)])
        #expect(rerun.status == 0 && rerun.stdout.contains(" 0 files written"), "\(rerun.stdout)")
    }

    /// `orderpress diff` and the git commit of the Markdown say "round closed" too.
    @Test func theDiffAndTheGitCommitSayRoundClosed() throws {
        let site = Self.site(teaDeadline: "2026-11-21 14:00", extra: "[git]\ncommit = true\n")
        let git = ["GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "t@example.com"]
        func runGit(_ arguments: [String]) throws -> String {
            try TestSupport.run(["-C", site.path] + arguments, environment: git, executable: URL(fileURLWithPath: "/usr/bin/git")).stdout
        }
        _ = try runGit(["init", "--quiet"])
        let environment = git.merging(["SOURCE_DATE_EPOCH": String(Self.first)]) { $1 }
        #expect(try TestSupport.run(["build", "--quiet"], in: site, environment: environment).status == 0)
        try Self.clearTea(site)
        let diff = try TestSupport.run(["diff"], in: site, environment: ["SOURCE_DATE_EPOCH": String(Self.second)])
        #expect(diff.stdout == "round closed  Tea: 4 orders (archived by the next build)\nround closed: Tea since the build of 2026-11-21 18:00 (Asia/Taipei)\n")
        let closed = try TestSupport.run(["build"], in: site, environment: git.merging(["SOURCE_DATE_EPOCH": String(Self.second)]) { $1 })
        #expect(closed.status == 0 && closed.stdout.contains(" · round closed: Tea · "), "\(closed)")
        #expect(try runGit(["log", "--format=%s"]) == "Tea: round closed: Tea\nTea: first run: nothing to compare\n")
    }

    @Test func aFutureDeadlineGroupClearedIsRefusedAndSaid() throws {
        let site = Self.site(teaDeadline: "2026-11-22 14:00")
        #expect(try Self.build(site, at: Self.first).status == 0)
        let before = try TestSupport.contents(of: site.appendingPathComponent("output"))
        try Self.clearTea(site)
        let refused = try Self.build(site, at: Self.second)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("4 of the last run's 5 orders are no longer valid orders (4 gone)"), "\(refused.stderr)")
        // Nothing published; the state only remembers since when Tea's orders were missing (`RoundWatch`).
        #expect(
            try TestSupport.besidesHealth(TestSupport.contents(of: site.appendingPathComponent("output"))).filter { !$0.key.hasPrefix("state/") }
                == TestSupport.besidesHealth(before).filter { !$0.key.hasPrefix("state/") })
        // With --accept-deletions they are deletions: said on --quiet, one line each.
        let accepted = try Self.build(site, at: Self.second, ["--accept-deletions"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("deleted: ") }.count == 4)
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output/markdown/archive").path))
    }

    /// Off (the default), a past-deadline group cleared is a deletion like any other.
    @Test func withoutTheSettingAClearedRoundIsADeletion() throws {
        let site = Self.site(teaDeadline: "2026-11-21 14:00", rounds: false)
        #expect(try Self.build(site, at: Self.first).status == 0)
        try Self.clearTea(site)
        #expect(try Self.build(site, at: Self.second).status == 65)
    }

    /// A round with a delivery fee and a discount: its archive shares them out as the group page did —
    /// the fee and discount lines on the shop sheet, each person's total, paid and owed with their parts
    /// (60 equally: 15 each; 23 by subtotal: Amy 5 (the tie with Cat to the first by name), Ben 10, Cat 4,
    /// Dan 4) — the same totals as the group's last build published.
    @Test func anArchiveSharesTheFeeAndDiscountAsTheGroupPageDid() throws {
        let site = Self.site(teaDeadline: "2026-11-21 14:00")
        try Data("group,organizer,shop,currency,deadline,fee,discount\nTea,Amy,春日茶屋,TWD,2026-11-21 14:00,60,23\nLunch,Ben,便當店,TWD,2026-11-30 12:00,,\n".utf8)
            .write(to: site.appendingPathComponent("groups.csv"))
        #expect(try Self.build(site, at: Self.first).status == 0)
        let live = try #require(try JSONSerialization.jsonObject(with: Data(Self.read(site, "site/summary.json").utf8)) as? [String: Any])
        let tea = try #require((live["groups"] as? [[String: Any]])?.first { $0["name"] as? String == "Tea" })
        let people = try #require(tea["people"] as? [[String: Any]])
        #expect(people.map { "\($0["name"]!) \($0["total"]!) \($0["paid"]!) \($0["outstanding"]!)" } == [
            "Amy 55 55 0", "Ben 105 100 5", "Cat 56 0 56", "Dan 51 0 51",
        ])
        #expect(tea["total"] as? String == "267")
        try Self.clearTea(site)
        #expect(try Self.build(site, at: Self.second).status == 0)
        let archive = try Self.read(site, "markdown/archive/tea/2026-11-21.md")
        #expect(archive.hasSuffix("""
            | 2 × 珍珠奶茶 M 無糖 正常冰 | 50 TWD | 100 TWD |
            | Fee | | 60 TWD |
            | Discount | | -23 TWD |
            | **Total** | | **267 TWD** |

            ## Totals per person

            | Person | Total | Paid | Owes |
            |---|--:|--:|--:|
            | [Amy](../../people/amy.md) | 55 TWD | 55 TWD | 0 TWD |
            | [Ben](../../people/ben.md) | 105 TWD | 100 TWD | 5 TWD |
            | [Cat](../../people/cat.md) | 56 TWD | 0 TWD | 56 TWD |
            | [Dan](../../people/dan.md) | 51 TWD | 0 TWD | 51 TWD |

            """), "\(archive)")
    }
}
