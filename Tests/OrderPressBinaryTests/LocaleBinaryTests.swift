import Foundation
import Testing
import OrderPressTestSupport


/// Issue 35 through the built binary: an en-GB Form's day-first dates, a deadline written as a date alone,
/// amounts with their currency's sign (and a fee that cannot be counted said where the money is), paid in
/// Japanese, and a rejected row's serial time shown as a time.
@Suite struct LocaleBinaryTests {
    static let clock = ["SOURCE_DATE_EPOCH": "1795255200"]

    /// A site of local CSV files; `orders` and `groups` rows under their headers.
    static func site(orders: [[String]], groups: [[String]], ordersTOML: String = "", groupsTOML: String = "", currency: String = "GBP") throws -> URL {
        let folder = TestSupport.temporaryFolder()
        func csv(_ rows: [[String]]) -> String {
            rows.map { $0.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") }.joined(separator: "\n") + "\n"
        }
        TestSupport.write(
            [
                "orderpress.toml": """
                title = "Locale"
                language = "en"
                base_currency = "\(currency)"
                timezone = "Europe/London"
                [orders]
                path = "orders.csv"
                \(ordersTOML)
                [orders.columns]
                time = "Timestamp"
                person = "Name"
                group = "Group"
                item = "Item"
                options = []
                price = "Price"
                paid = "Paid"
                secret = []
                [groups]
                path = "groups.csv"
                \(groupsTOML)
                [groups.columns]
                name = "Group"
                organizer = "Organiser"
                deadline = "Deadline"
                fee = "Fee"
                currency = "Currency"
                """,
                "orders.csv": csv([["Timestamp", "Name", "Group", "Item", "Price", "Paid"]] + orders),
                "groups.csv": csv([["Group", "Organiser", "Deadline", "Fee", "Currency"]] + groups),
            ], in: folder)
        return folder
    }

    static func page(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent("output/markdown/\(path)"), encoding: .utf8)
    }

    /// The en-GB tab: 5 November stays 5 November (the orders' own evidence), the deadline 12 November
    /// 17:00 (the groups tab proves nothing by itself: `date_order`), an order after it is late, and "data as
    /// of" is the newest order, not a day in the future.
    @Test func dayFirstDatesArePublishedAsWritten() throws {
        let site = try Self.site(
            orders: [
                ["05/11/2026 09:00:00", "Amy", "Tea", "Scone", "4.50", ""], ["12/11/2026 12:30:00", "Ben", "Tea", "Cake", "3", ""],
                ["13/11/2026 18:00:00", "Cat", "Tea", "Tart", "2", ""],
            ],
            groups: [["Tea", "Amy", "12/11/2026 17:00:00", "", ""]], groupsTOML: "date_order = \"dmy\"")
        let check = try TestSupport.run(["check"], in: site)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("3 rows: 3 valid, 0 rejected, 0 warnings"), "\(check.stdout)")
        let build = try TestSupport.run(["build"], in: site, environment: Self.clock)
        #expect(build.status == 0, "\(build.stderr)")
        let group = try Self.page(site, "groups/tea.md")
        #expect(group.contains("2026-11-12 17:00"), "\(group)")
        #expect(group.contains("2026-11-05 09:00"))
        #expect(!group.contains("2026-05-11") && !group.contains("2026-12-11"))
        let index = try Self.page(site, "index.md")
        #expect(index.contains("Data as of 2026-11-13 18:00"), "\(index)")
        let lines = group.split(separator: "\n")
        #expect(lines.contains { $0.contains("Tart") && $0.contains("late") })
        #expect(!lines.contains { $0.contains("Cake") && $0.contains("late") })
    }

    /// No evidence: the date is a warning naming date_order, shown as written, in no time and no "data as of".
    @Test func anUnsettledDateIsWarnedAndShownAsWritten() throws {
        let site = try Self.site(orders: [["05/11/2026 09:00:00", "Amy", "Tea", "Scone", "4.50", ""]], groups: [["Tea", "Amy", "", "", ""]])
        let check = try TestSupport.run(["check"], in: site)
        #expect(check.stdout.contains("row 2: warning: time '05/11/2026 09:00:00' could be day-first or month-first and is shown as written; set date_order in [orders]"), "\(check.stdout)")
        #expect(check.stdout.contains("UNFORMATTED_VALUE"))
        #expect(try TestSupport.run(["build"], in: site, environment: Self.clock).status == 0)
        let group = try Self.page(site, "groups/tea.md")
        #expect(group.contains("05/11/2026 09\\:00\\:00"), "\(group)")
        #expect(!group.contains("2026-05-11") && !group.contains("2026-11-05"))
        #expect(!(try Self.page(site, "index.md")).contains("Data as of 2026"))
        // Set, it reads.
        let set = try Self.site(
            orders: [["05/11/2026 09:00:00", "Amy", "Tea", "Scone", "4.50", ""]], groups: [["Tea", "Amy", "", "", ""]], ordersTOML: "date_order = \"dmy\"")
        #expect(try TestSupport.run(["build"], in: set, environment: Self.clock).status == 0)
        #expect(try Self.page(set, "groups/tea.md").contains("2026-11-05 09:00"))
        // The groups tab's deadline alone proves nothing: a warning, never the orders' evidence borrowed.
        let groups = try Self.site(
            orders: [["27/11/2026 09:00:00", "Amy", "Tea", "Scone", "4.50", ""]], groups: [["Tea", "Amy", "12/11/2026 17:00:00", "", ""]])
        let groupsCheck = try TestSupport.run(["check"], in: groups)
        #expect(groupsCheck.stdout.contains("warning: groups row 2: deadline '12/11/2026 17:00:00' could be day-first or month-first and is shown as written; set date_order in [groups]"), "\(groupsCheck.stdout)")
        let bad = try Self.site(orders: [], groups: [], ordersTOML: "date_order = \"dd/mm\"")
        #expect(try TestSupport.run(["check"], in: bad).status == 64)
    }

    /// "2026-11-24" is the end of that day: an order at 10:00 that day is not late, and the page shows the date alone.
    @Test func aDeadlineWrittenAsADateAloneIsTheEndOfThatDay() throws {
        let site = try Self.site(
            orders: [["2026-11-24 10:00", "Amy", "Tea", "Scone", "4.50", ""], ["2026-11-25 00:05", "Ben", "Tea", "Cake", "3", ""]],
            groups: [["Tea", "Amy", "2026-11-24", "", ""]])
        #expect(try TestSupport.run(["build"], in: site, environment: Self.clock).status == 0)
        let group = try Self.page(site, "groups/tea.md")
        #expect(group.contains("Deadline: 2026-11-24\n"), "\(group)")
        #expect(!group.contains("2026-11-24 00:00"))
        let lines = group.split(separator: "\n")
        #expect(!lines.contains { $0.contains("Scone") && $0.contains("late") })
        #expect(lines.contains { $0.contains("Cake") && $0.contains("late") })
    }

    /// `¥590`, `1,200円` and a `¥300` fee in a JPY group are read and counted once in the summary line; a
    /// `¥300` fee in a GBP group counts 0 and says so beside the total and on every share line.
    @Test func amountsWithTheirCurrencySignAndAFeeThatIsNotCounted() throws {
        let site = try Self.site(
            orders: [
                ["2026-11-20 10:00", "Sato", "Lunch", "Bento", "¥590", "支払済み"], ["2026-11-20 10:05", "Ito", "Lunch", "Soba", "1,200円", "未払い"],
                ["2026-11-20 10:10", "Amy", "Tea", "Scone", "£4.50", ""], ["2026-11-20 10:15", "Ben", "Tea", "Cake", "3", ""],
            ],
            groups: [["Lunch", "Sato", "", "¥300", "JPY"], ["Tea", "Amy", "", "¥300", ""]])
        let check = try TestSupport.run(["check"], in: site)
        #expect(check.stdout.contains("4 rows: 4 valid, 0 rejected, 1 warning, 4 amounts read with their currency sign"), "\(check.stdout)")
        let build = try TestSupport.run(["build"], in: site, environment: Self.clock)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.contains(", 4 amounts read with their currency sign · "), "\(build.stdout)")
        let lunch = try Self.page(site, "groups/lunch.md")
        #expect(lunch.contains("| **Total** "), "\(lunch)")
        #expect(lunch.contains("**2,090 JPY**"), "\(lunch)")
        let tea = try Self.page(site, "groups/tea.md")
        #expect(tea.contains("| ⚠ Fee '¥300' not counted: groups row 3\\: Fee '¥300' is marked ¥, which is not GBP, the group's currency, and counts as 0 | | |"), "\(tea)")
        for person in ["amy", "ben"] {
            #expect(try Self.page(site, "people/\(person).md").contains("⚠ Fee '¥300' not counted: "), "\(person)")
        }
        // Paid in Japanese: Sato (the organiser) and Ito's 未払い are read, with no warning.
        #expect(!check.stdout.contains("neither paid nor unpaid"))
    }

    /// A rejected row's serial time is shown as pages show times: on the Attention page, the person's page and in `check`.
    @Test func aRejectedRowsSerialTimeIsShownAsATime() throws {
        let site = try Self.site(orders: [["46347.635416666664", "Amy", "Tea", "Scone", "abc", ""]], groups: [["Tea", "Amy", "", "", ""]])
        let check = try TestSupport.run(["check"], in: site)
        #expect(check.stdout.contains("Timestamp: 2026-11-21 15:15"), "\(check.stdout)")
        #expect(!check.stdout.contains("46347"))
        #expect(try TestSupport.run(["build"], in: site, environment: Self.clock).status == 0)
        let attention = try Self.page(site, "attention.md")
        #expect(attention.contains("2026\\-11\\-21 15\\:15") || attention.contains("2026-11-21 15:15"), "\(attention)")
        #expect(!attention.contains("46347"))
    }
}
