import Foundation
import Testing
import OrderPressTestSupport


/// When a round may close (`[rounds] close_after_deadline`), through the built binary with a pinned clock:
/// only when the last published snapshot, made after the deadline, still held the group's orders; the
/// guard's fraction over the rounds still open; one archive page per round. Monday 2026-11-23 in Taipei:
/// Tea's deadline is 11:30, Lunch's 15:00.
@Suite struct RoundCloseTests {
    static let header = "id,group,orderer,drink,quantity,price,paid"
    static let tea = [
        "1,Tea,Amy,熟成紅茶,1,45,FALSE", "2,Tea,Ben,珍珠奶茶,2,50,TRUE", "3,Tea,Cat,熟成紅茶,1,45,FALSE", "4,Tea,Dan,冬瓜檸檬,1,40,",
    ]
    static let lunch = ["5,Lunch,Eve,排骨飯,1,100,FALSE", "6,Lunch,Ben,雞腿飯,1,110,FALSE", "7,Lunch,Fay,魚排飯,1,105,FALSE"]
    /// 09:00, 10:05, 11:00, 12:00, 13:00, 13:30, 14:00 on 2026-11-23 in Taipei.
    static let (nine, tenOFive, eleven, noon, one, halfPastOne, two) =
        (1_795_395_600, 1_795_399_500, 1_795_402_800, 1_795_406_400, 1_795_410_000, 1_795_411_800, 1_795_413_600)

    static func site(teaDeadline: String = "2026-11-23 11:30") -> URL {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "orderpress.toml": RoundsTests.configuration(),
                "groups.csv": groups(teaDeadline: teaDeadline),
                "orders.csv": orders(tea + lunch),
            ], in: folder)
        return folder
    }

    static func groups(teaDeadline: String) -> String {
        "group,organizer,shop,currency,deadline,payment\nTea,Amy,春日茶屋,TWD,\(teaDeadline),LINE Pay: amy-tea\nLunch,Eve,便當店,TWD,2026-11-23 15:00,\n"
    }

    static func orders(_ rows: [String]) -> String { ([header] + rows).joined(separator: "\n") + "\n" }

    static func write(_ site: URL, _ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: site.appendingPathComponent(name))
    }

    static func build(_ site: URL, at epoch: Int) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.run(["build", "--quiet"], in: site, environment: ["SOURCE_DATE_EPOCH": String(epoch)])
    }

    static func exists(_ site: URL, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: site.appendingPathComponent("output/\(path)").path)
    }

    static func read(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent("output/\(path)"), encoding: .utf8)
    }

    /// Issue 34, item 3: the sheet emptied by mistake at 10:05 but for one row. Every run refuses, the one
    /// after Tea's deadline too: its orders vanished before the deadline, so that is no finished round.
    @Test func aSheetEmptiedBeforeTheDeadlineStaysADeletionAfterIt() throws {
        let site = Self.site()
        #expect(try Self.build(site, at: Self.nine).status == 0)
        try Self.write(site, "orders.csv", Self.orders([Self.lunch[0]]))
        for epoch in [Self.tenOFive, Self.eleven, Self.two] {
            let run = try Self.build(site, at: epoch)
            #expect(run.status == 65, "at \(epoch): \(run)")
            // Said the first time; later refusals of the same loss may be quiet under --quiet.
            if epoch == Self.tenOFive { #expect(run.stderr.contains("6 of the last run's 7 orders are no longer valid orders"), "\(run.stderr)") }
        }
        #expect(!Self.exists(site, "markdown/archive"))
        #expect(try Self.read(site, "markdown/index.md").contains("Tea"))
    }

    /// The attack round: Tea's rows turned into rejected rows (new rows the diff cannot tie to the old ones)
    /// before the deadline do not close the round once the deadline has passed.
    @Test func rowsTurnedRejectedBeforeTheDeadlineDoNotCloseTheRound() throws {
        let site = Self.site()
        #expect(try Self.build(site, at: Self.nine).status == 0)
        let broken = ["11,Tea,Amy,?,1,x,", "12,Tea,Ben,?,1,x,", "13,Tea,Cat,?,1,x,", "14,Tea,Dan,?,1,x,"]
        try Self.write(site, "orders.csv", Self.orders(broken + Self.lunch))
        #expect(try Self.build(site, at: Self.tenOFive).status == 65)
        let later = try Self.build(site, at: Self.two)
        #expect(later.status == 65, "\(later)")
        #expect(!Self.exists(site, "markdown/archive"))
    }

    /// The attack round: a round closing in the same run leaves both sides of the guard's fraction, so
    /// Lunch losing 2 of its 3 orders is refused (2 of 3, not 2 of 7). Put back, Tea closes.
    @Test func aRoundClosingDoesNotHideAnotherGroupsWipe() throws {
        let site = Self.site()
        #expect(try Self.build(site, at: Self.nine).status == 0)
        // Unchanged input, but Tea's deadline has passed: this run builds, and its snapshot holds Tea's orders.
        #expect(try Self.build(site, at: Self.noon).status == 0)
        try Self.write(site, "orders.csv", Self.orders([Self.lunch[0]]))
        let refused = try Self.build(site, at: Self.one)
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("2 of the last run's 3 orders in rounds still open are no longer valid orders"), "\(refused.stderr)")
        #expect(!Self.exists(site, "markdown/archive"))
        try Self.write(site, "orders.csv", Self.orders(Self.lunch))
        let closed = try Self.build(site, at: Self.halfPastOne)
        #expect(closed.status == 0 && closed.stdout == "", "\(closed)")
        #expect(Self.exists(site, "markdown/archive/tea/2026-11-23.md"))
    }

    /// Without a run between the deadline and the reset, nobody knows the orders were still there at the
    /// deadline: the reset is a deletion, guarded.
    @Test func noSnapshotAfterTheDeadlineMeansNoClose() throws {
        let site = Self.site()
        #expect(try Self.build(site, at: Self.nine).status == 0)
        try Self.write(site, "orders.csv", Self.orders(Self.lunch))
        #expect(try Self.build(site, at: Self.one).status == 65)
        #expect(!Self.exists(site, "markdown/archive"))
    }

    /// Issue 34, item 4: two rounds of one group closed the same day keep a page each; an archive carries
    /// the payment line and links everyone it names to their page.
    @Test func twoRoundsClosedTheSameDayKeepAPageEach() throws {
        let site = Self.site(teaDeadline: "2026-11-23 09:30")
        #expect(try Self.build(site, at: Self.nine).status == 0)
        #expect(try Self.build(site, at: Self.tenOFive).status == 0)
        try Self.write(site, "orders.csv", Self.orders(Self.lunch))
        let first = try Self.build(site, at: Self.eleven)
        #expect(first.status == 0, "\(first)")
        let page = try Self.read(site, "markdown/archive/tea/2026-11-23.md")
        #expect(page.contains("\n- How to pay: LINE Pay\\: amy\\-tea\n"), "\(page)")
        #expect(try Self.read(site, "site/archive/tea/2026-11-23.html").contains("<li>How to pay: LINE Pay: amy-tea</li>"))
        // Ben still orders lunch; Cat, who orders nothing now, keeps a page for what she owes: both linked.
        #expect(page.contains("| [Ben](../../people/ben.md) | 100 TWD |") && page.contains("| [Cat](../../people/cat.md) | 45 TWD |"), "\(page)")

        // A second round the same day, 12:30 to 13:00.
        try Self.write(site, "groups.csv", Self.groups(teaDeadline: "2026-11-23 12:30"))
        try Self.write(site, "orders.csv", Self.orders(["21,Tea,Amy,四季春,1,35,FALSE", "22,Tea,Gus,四季春,1,35,FALSE"] + Self.lunch))
        #expect(try Self.build(site, at: Self.noon).status == 0)
        #expect(try Self.build(site, at: Self.one).status == 0)
        try Self.write(site, "orders.csv", Self.orders(Self.lunch))
        #expect(try Self.build(site, at: Self.halfPastOne).status == 0)
        #expect(try Self.read(site, "markdown/archive/tea/2026-11-23.md") == page)
        let second = try Self.read(site, "markdown/archive/tea/2026-11-23-2.md")
        #expect(second.contains("| [Gus](../../people/gus.md) | 35 TWD |"), "\(second)")
        let index = try Self.read(site, "markdown/index.md")
        #expect(index.contains("(archive/tea/2026-11-23.md)") && index.contains("(archive/tea/2026-11-23-2.md)"))
    }

    /// Issue 34, item 1 (in part): what Cat still owed when Tea closed (45 TWD, unpaid) stays on her page beside
    /// her lunch, to whom, how to pay and a link to the archive, and in `summary.json`; Ben, who had paid,
    /// and Amy, the organiser, carry nothing.
    @Test func whatWasStillOwedWhenARoundClosedStaysOnThePersonsPage() throws {
        let site = Self.site(teaDeadline: "2026-11-23 09:30")
        let lunch = Self.lunch + ["8,Lunch,Cat,魚排飯,1,105,FALSE", "9,Lunch,Amy,雞腿飯,1,110,FALSE"]
        try Self.write(site, "orders.csv", Self.orders(Self.tea + lunch))
        #expect(try Self.build(site, at: Self.nine).status == 0)
        #expect(try Self.build(site, at: Self.tenOFive).status == 0)
        try Self.write(site, "orders.csv", Self.orders(lunch))
        let closed = try Self.build(site, at: Self.eleven)
        #expect(closed.status == 0, "\(closed)")
        let cat = try Self.read(site, "markdown/people/cat.md")
        #expect(cat.contains("- **105 TWD to Eve for Lunch**\n"), "\(cat)")
        #expect(cat.contains("- **45 TWD to Amy for Tea · 2026-11-23 · [Archive](../archive/tea/2026-11-23.md)** · How to pay: LINE Pay\\: amy\\-tea\n"), "\(cat)")
        #expect(!(try Self.read(site, "markdown/people/ben.md")).contains("for Tea"))
        #expect(!(try Self.read(site, "markdown/people/amy.md")).contains("for Tea"))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(Self.read(site, "site/summary.json").utf8)) as? [String: Any])
        let people = try #require(summary["people"] as? [[String: Any]])
        let carried = people.reduce(into: [String: String]()) { found, person in
            guard let debts = person["carried"] as? [[String: String]] else { return }
            found[person["name"] as! String] = debts.map { "\($0["round"]!) \($0["group"]!) \($0["amount"]!) \($0["currency"]!)" }.joined(separator: ";")
        }
        // Dan orders nothing now: listed for what he carries alone.
        #expect(carried == ["Cat": "2026-11-23 Tea 45 TWD", "Dan": "2026-11-23 Tea 40 TWD"], "\(carried)")
    }
}
