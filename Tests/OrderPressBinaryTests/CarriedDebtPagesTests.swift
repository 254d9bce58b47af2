import Foundation
import Testing
import OrderPressTestSupport


/// Carried debts where members and the organiser look (issue 34, Deliver 1), through the built binary with a
/// pinned clock. Tea (organiser Amy, deadline 09:30 on Monday 2026-11-23 in Taipei) closes at 11:00 with Cat
/// owing 45 TWD and Dan 40 TWD; Cat still orders lunch, Dan and Amy order nothing any more.
@Suite struct CarriedDebtPagesTests {
    static let lunch = RoundCloseTests.lunch + ["8,Lunch,Cat,魚排飯,1,105,FALSE"]
    static let archive = "archive/tea/2026-11-23"

    /// A site whose Tea round has just closed; `configuration` replaces RoundsTests' own.
    static func closedSite(configuration: String? = nil) throws -> URL {
        let site = RoundCloseTests.site(teaDeadline: "2026-11-23 09:30")
        if let configuration { try RoundCloseTests.write(site, "orderpress.toml", configuration) }
        try RoundCloseTests.write(site, "orders.csv", RoundCloseTests.orders(RoundCloseTests.tea + lunch))
        #expect(try RoundCloseTests.build(site, at: RoundCloseTests.nine).status == 0)
        #expect(try RoundCloseTests.build(site, at: RoundCloseTests.tenOFive).status == 0)
        try RoundCloseTests.write(site, "orders.csv", RoundCloseTests.orders(lunch))
        let closed = try RoundCloseTests.build(site, at: RoundCloseTests.eleven)
        #expect(closed.status == 0, "\(closed)")
        return site
    }

    static func read(_ site: URL, _ path: String) throws -> String { try RoundCloseTests.read(site, path) }

    /// Every relative link of a published HTML page names a file of the site.
    static func brokenLinks(_ site: URL, page: String) throws -> [String] {
        let html = try read(site, "site/\(page)")
        let folder = site.appendingPathComponent("output/site/\(page)").deletingLastPathComponent()
        let links = html.components(separatedBy: "href=\"").dropFirst().map { $0.prefix { $0 != "\"" && $0 != "#" } }
            .filter { !$0.isEmpty && !$0.contains(":") }.map(String.init)
        #expect(!links.isEmpty)
        return links.filter { !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).standardizedFileURL.path) }
    }

    /// Item 1: Dan, who owed 40 TWD when Tea closed and orders nothing now, keeps his page — what he owes,
    /// to whom, how to pay, the archive — never a tombstone, linked from the index; a rerun writes nothing.
    @Test func aDebtorWithoutOrdersKeepsTheirPage() throws {
        let site = try Self.closedSite()
        let dan = try Self.read(site, "markdown/people/dan.md")
        #expect(dan.contains("\n- **40 TWD to Amy for Tea · 2026-11-23 · [Archive](../\(Self.archive).md)** · How to pay: LINE Pay\\: amy\\-tea\n"), "\(dan)")
        #expect(dan.hasSuffix("\n\n## Past rounds\n\n- [Tea · 2026-11-23](../\(Self.archive).md)\n"), "\(dan)")
        #expect(!dan.contains("deleted") && !dan.contains("~~"), "\(dan)")
        #expect(try Self.brokenLinks(site, page: "people/dan.html") == [])
        let index = try Self.read(site, "markdown/index.md")
        #expect(index.contains("\n| [Dan](people/dan.md) | 0 TWD | 40 TWD | 0 |\n"), "\(index)")
        let rerun = try TestSupport.run(["build"], in: site, environment: ["SOURCE_DATE_EPOCH": String(RoundCloseTests.noon)])
        #expect(rerun.status == 0 && rerun.stdout.contains(" 0 files written"), "\(rerun.stdout)")
    }

    /// Item 1: Dan's lunch was deleted at 10:05 (a deletion, within the guard), then Tea closed with his 40 TWD
    /// unpaid: money still open keeps his page from the rounds, never the tombstone his deletion would make.
    @Test func aDebtorWhoseOtherOrdersWereDeletedGetsNoTombstone() throws {
        let site = RoundCloseTests.site(teaDeadline: "2026-11-23 09:30")
        let dansLunch = "10,Lunch,Dan,排骨飯,1,100,FALSE"
        try RoundCloseTests.write(site, "orders.csv", RoundCloseTests.orders(RoundCloseTests.tea + Self.lunch + [dansLunch]))
        #expect(try RoundCloseTests.build(site, at: RoundCloseTests.nine).status == 0)
        try RoundCloseTests.write(site, "orders.csv", RoundCloseTests.orders(RoundCloseTests.tea + Self.lunch))
        let deleted = try RoundCloseTests.build(site, at: RoundCloseTests.tenOFive)
        #expect(deleted.status == 0 && deleted.stdout.contains("deleted: "), "\(deleted)")
        try RoundCloseTests.write(site, "orders.csv", RoundCloseTests.orders(Self.lunch))
        #expect(try RoundCloseTests.build(site, at: RoundCloseTests.eleven).status == 0)
        let dan = try Self.read(site, "markdown/people/dan.md")
        #expect(dan.contains("\n- **40 TWD to Amy for Tea · 2026-11-23 · [Archive](../\(Self.archive).md)**"), "\(dan)")
        #expect(!dan.contains("~~"), "\(dan)")
    }

    /// Item 2: the index's people list counts carried debts in what each still owes (Cat: 105 TWD of lunch
    /// and 45 TWD from Tea), and "to collect" counts them: 320 TWD of lunch unpaid (Eve organises it, her
    /// 100 TWD settled) and 85 TWD carried.
    @Test func theIndexCountsCarriedDebts() throws {
        let site = try Self.closedSite()
        let index = try Self.read(site, "markdown/index.md")
        #expect(index.contains("\n| [Cat](people/cat.md) | 105 TWD | 150 TWD | 1 |\n"), "\(index)")
        #expect(index.contains("\n| [Ben](people/ben.md) | 110 TWD | 110 TWD | 1 |\n"), "\(index)")
        #expect(index.contains("\n| Currency | Total | To collect |\n|---|--:|--:|\n| TWD | **420** | 405 |\n"), "\(index)")
        #expect(try Self.brokenLinks(site, page: "index.html") == [])
    }

    /// Item 3: the organiser's own page says who owes her what from which round, each debtor linked to their
    /// page and the round to its archive, with the total.
    @Test func theOrganiserSeesWhatIsOwedToHer() throws {
        let site = try Self.closedSite()
        let amy = try Self.read(site, "markdown/people/amy.md")
        #expect(amy.contains("""

            ## Owed to you

            What people still owed when rounds you organised closed.

            | Person | Owes | Round |
            |---|--:|---|
            | [Cat](cat.md) | 45 TWD | [Tea · 2026-11-23](../\(Self.archive).md) |
            | [Dan](dan.md) | 40 TWD | [Tea · 2026-11-23](../\(Self.archive).md) |
            | **Total** | **85 TWD** | |

            """), "\(amy)")
        // She owes nothing herself: no "To pay" list.
        #expect(!amy.contains("## To pay"), "\(amy)")
        #expect(try Self.brokenLinks(site, page: "people/amy.html") == [])
        // Nobody else is owed anything on their page.
        #expect(!(try Self.read(site, "markdown/people/cat.md")).contains("Owed to you"))
    }

    /// Item 3: each catalogue's words, and a `[labels]` override of the new labels.
    @Test(arguments: [
        ("en", "## Owed to you", "| Person | Owes | Round |"),
        ("zh-TW", "## 別人欠你的款項", "| 訂購人 | 未付 | 團購場次 |"),
        ("zh-CN", "## 别人欠你的款项", "| 订购人 | 未付 | 团购场次 |"),
        ("ja", "## あなたへの未払い", "| 注文者 | 未払い | 回 |"),
    ])
    func owedToYouInEachLanguage(language: String, heading: String, header: String) throws {
        let site = try Self.closedSite(configuration: "language = \"\(language)\"\n" + RoundsTests.configuration())
        let amy = try Self.read(site, "markdown/people/amy.md")
        #expect(amy.contains("\n\(heading)\n") && amy.contains("\n\(header)\n"), "\(amy)")
    }

    @Test func theNewLabelsCanBeOverridden() throws {
        let site = try Self.closedSite(
            configuration: RoundsTests.configuration(extra: "[labels]\nowed_to_you = \"Still to come in\"\nround = \"Week\"\n"))
        let amy = try Self.read(site, "markdown/people/amy.md")
        #expect(amy.contains("\n## Still to come in\n") && amy.contains("\n| Person | Owes | Week |\n"), "\(amy)")
    }

    /// Item 4: the archive carries the payment line and links everyone it names — the organiser and every
    /// person, owing or not, ordering now or not — to a page that exists.
    @Test func anArchiveLinksEveryoneToAPageThatExists() throws {
        let site = try Self.closedSite()
        let page = try Self.read(site, "markdown/\(Self.archive).md")
        #expect(page.contains("\n- Organiser: [Amy](../../people/amy.md)\n"), "\(page)")
        #expect(page.contains("\n- How to pay: LINE Pay\\: amy\\-tea\n"), "\(page)")
        for (name, row) in [("Amy", "45 TWD | 45 TWD | 0 TWD"), ("Ben", "100 TWD | 100 TWD | 0 TWD"), ("Cat", "45 TWD | 0 TWD | 45 TWD"), ("Dan", "40 TWD | 0 TWD | 40 TWD")] {
            #expect(page.contains("\n| [\(name)](../../people/\(name.lowercased()).md) | \(row) |\n"), "\(page)")
        }
        #expect(try Self.brokenLinks(site, page: "\(Self.archive).html") == [])
        #expect(try Self.read(site, "site/\(Self.archive).html").contains("<li>How to pay: LINE Pay: amy-tea</li>"))
    }
}
