import Foundation
import Testing

@testable import OrderPress

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
}
