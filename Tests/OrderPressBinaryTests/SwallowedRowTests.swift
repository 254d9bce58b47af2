import Foundation
import PropertyBased
import Testing
import OrderPressTestSupport


/// A stray quote at the start of one cell and another at the end of a cell on a later line make valid
/// RFC 4180 in which one quoted cell swallows the rest of a row (its edit code among it) and whole rows
/// after it, with the header's number of fields. The built binary rejects that row with the lines it
/// spans: no secret of those lines reaches a page, a published file or the state, and the hidden order
/// is named by a line on the Attention page rather than vanishing.
@Suite struct SwallowedRowTests {
    /// Amy's row, with a stray quote opening her note, and Ben's, whose note ends with a stray quote.
    static let amy = #"97,週五下午茶,Amy,紅茶,L,半糖,少冰,1,35,,2026-11-21 10:00,"no straw,SeCr3tAmy1,0900-111-222"#
    static let ben = #"98,週五下午茶,Ben,綠茶,L,半糖,少冰,1,30,,2026-11-21 10:05,please",SeCr3tBen2,0900-333-444"#
    static let secrets = ["SeCr3tAmy1", "SeCr3tBen2", "0900-111-222", "0900-333-444"]

    @Test func aQuotedCellThatSwallowsWholeRowsIsRejectedWithItsLines() throws {
        let site = try DataTrustTests.csvSite(extra: [Self.amy, Self.ben])
        let build = try TestSupport.run(["build"], in: site, environment: DataTrustTests.firstRun)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.hasPrefix("37 orders, 6 rejected, "), "\(build.stdout)")
        let reason = "reads as one row across lines 44–45 of the file: a quoted cell holds line breaks followed by what look like whole rows, so a quote is probably stray or missing; fix the quotes (orders on those lines are not counted until then)"
        let check = try TestSupport.run(["check"], in: site, environment: DataTrustTests.firstRun)
        #expect(check.status == 65)
        #expect(check.stdout.contains("\nrow 44: rejected: \(reason)\n"), "\(check.stdout)")

        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        let rejected = try #require(summary["rejected"] as? [[String: Any]])
        #expect(rejected.last?["row"] as? Int == 44)
        #expect(rejected.last?["values"] as? [String: String] == [:])
        let attention = try String(contentsOf: site.appendingPathComponent("output/markdown/attention.md"), encoding: .utf8)
        // In the site's language (zh-Hant), like every reason on the Attention page.
        #expect(attention.contains("檔案第 44–45 行被讀成一列"))

        let again = try TestSupport.run(["build"], in: site, environment: DataTrustTests.secondRun)
        #expect(again.status == 0)
        let diff = try TestSupport.run(["diff"], in: site, environment: DataTrustTests.secondRun)
        try DataTrustTests.expectNowhere(
            Self.secrets, in: site.appendingPathComponent("output"),
            outputs: [build.stdout, build.stderr, check.stdout, check.stderr, again.stdout, again.stderr, diff.stdout, diff.stderr])
    }

    /// Fixing the quote brings both orders back, Ben's as added.
    @Test func fixingTheQuoteCountsBothOrders() throws {
        let site = try DataTrustTests.csvSite(extra: [Self.amy, Self.ben])
        #expect(try TestSupport.run(["build"], in: site, environment: DataTrustTests.firstRun).status == 0)
        let csv = site.appendingPathComponent("data/orders.csv")
        let fixed = try String(contentsOf: csv, encoding: .utf8)
            .replacingOccurrences(of: #","no straw,"#, with: #","no straw","#).replacingOccurrences(of: #",please","#, with: #","please","#)
        try Data(fixed.utf8).write(to: csv)
        let build = try TestSupport.run(["build"], in: site, environment: DataTrustTests.secondRun)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.hasPrefix("39 orders, 5 rejected, "), "\(build.stdout)")
    }
}

/// Rows pasted in a text editor inside a real multi-line note (a quoted cell over several lines): the
/// file is valid RFC 4180 and the row has the header's number of fields, however many rows were pasted
/// and whatever the note's lines hold. The built binary rejects the row with the lines it spans; no
/// pasted row's secret, nor Amy's own, reaches an output, a published file or the state.
@Suite struct PastedRowTests {
    static let amy = #"97,週五下午茶,Amy,紅茶,L,半糖,少冰,1,35,,2026-11-21 10:00,"#
    static let amySecrets = ["SeCr3tAmy1", "0900-111-222"]

    /// Amy's row with `pasted` rows (and their secrets) put among her note's `note` lines at `at`.
    static func lines(note: [String], pasted: Int, at: Int) -> (lines: [String], secrets: [String]) {
        let rows = (0..<pasted).map { index in
            ("\(98 + index),週五下午茶,Ben\(index),綠茶,L,半糖,少冰,1,30,,2026-11-21 10:05,,SeCr3tBen\(index)x,0900-333-44\(index)",
             ["SeCr3tBen\(index)x", "0900-333-44\(index)"])
        }
        var body = note
        body.insert(contentsOf: rows.map(\.0), at: min(at, body.count))
        body[0] = amy + "\"" + body[0]
        body[body.count - 1] += "\",SeCr3tAmy1,0900-111-222"
        return (body, rows.flatMap(\.1) + amySecrets)
    }

    @Test func oneRowPastedInsideANoteIsRejectedWithItsLines() throws {
        let (lines, secrets) = Self.lines(note: ["no straw", "please"], pasted: 1, at: 1)
        let site = try DataTrustTests.csvSite(extra: lines)
        let build = try TestSupport.run(["build"], in: site, environment: DataTrustTests.firstRun)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.hasPrefix("37 orders, 6 rejected, "), "\(build.stdout)")
        let check = try TestSupport.run(["check"], in: site, environment: DataTrustTests.firstRun)
        #expect(check.stdout.contains("\nrow 44: rejected: reads as one row across lines 44–46 of the file: "), "\(check.stdout)")
        try DataTrustTests.expectNowhere(
            secrets, in: site.appendingPathComponent("output"), outputs: [build.stdout, build.stderr, check.stdout, check.stderr])
    }

    /// Any note of one to three lines, one to three rows pasted at any of its line breaks.
    @Test func noPastedRowIsPublishedOrStored() async throws {
        let cases = Generator<([String], Int, Int), Shrink.None<([String], Int, Int)>> { rng in
            let words = ["no straw", "less ice, thanks", "半糖", "35", "TRUE", "Ben"]
            let note = (0..<Int.random(in: 1...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }
            return (note, Int.random(in: 1...3, using: &rng), Int.random(in: 1...max(1, note.count), using: &rng))
        }
        await propertyCheck(count: 4, input: cases) { note, pasted, at in
            let (lines, secrets) = Self.lines(note: note, pasted: pasted, at: at)
            do {
                let site = try DataTrustTests.csvSite(extra: lines)
                let build = try TestSupport.run(["build"], in: site, environment: DataTrustTests.firstRun)
                #expect(build.status == 0, "\(build.stderr)")
                #expect(build.stdout.hasPrefix("37 orders, 6 rejected, "), "\(lines) \(build.stdout)")
                try DataTrustTests.expectNowhere(secrets, in: site.appendingPathComponent("output"), outputs: [build.stdout, build.stderr])
            } catch {
                Issue.record(error)
            }
        }
    }
}

/// Two breaks that cancel out: an unquoted line break cuts Mallory's row after `99,週五`, and a stray
/// comma after her edit code gives the rest of it the header's 14 fields again, every cell one column to
/// the left: her edit code in `note`, the price in `quantity`. Both halves are rejected, neither with its
/// values: the edit code reaches no page, no published file, no output and not the state.
@Suite struct ShiftedRowTests {
    static let cut = "99,週五"
    static let rest = "下午茶,Mallory,紅茶,L,半糖,少冰,1,35,,2026-11-21 10:00,,SeCr3tMx9,,0900-555-666"
    static let secrets = ["SeCr3tMx9", "0900-555-666"]

    @Test func aRowWhoseCellsSitAColumnOffIsRejectedWithoutItsValues() throws {
        let site = try DataTrustTests.csvSite(extra: [Self.cut, Self.rest])
        let build = try TestSupport.run(["build"], in: site, environment: DataTrustTests.firstRun)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.hasPrefix("37 orders, 7 rejected, "), "\(build.stdout)")
        let check = try TestSupport.run(["check"], in: site, environment: DataTrustTests.firstRun)
        #expect(check.stdout.contains("\nrow 44: rejected: has 2 fields but the header has 14; its cells cannot be matched to columns\n"), "\(check.stdout)")
        #expect(check.stdout.contains(
            "\nrow 45: rejected: its cells look shifted by one column from column 'quantity' on, or earlier (a comma missing before it, or a line broken or cut short); none of its cells is shown; fix the row in the sheet\n"),
            "\(check.stdout)")
        let summary = try TestSupport.json(site.appendingPathComponent("output/site/summary.json"))
        let rejected = try #require(summary["rejected"] as? [[String: Any]])
        #expect(rejected.suffix(2).map { $0["row"] as? Int } == [44, 45])
        #expect(rejected.suffix(2).map { ($0["values"] as? [String: String]) ?? ["?": "?"] } == [[:], [:]])
        // No group named after a shifted cell.
        #expect((summary["groups"] as? [[String: Any]])?.contains { $0["name"] as? String == "Mallory" } == false)

        let again = try TestSupport.run(["build"], in: site, environment: DataTrustTests.secondRun)
        #expect(again.status == 0)
        let diff = try TestSupport.run(["diff"], in: site, environment: DataTrustTests.secondRun)
        try DataTrustTests.expectNowhere(
            Self.secrets, in: site.appendingPathComponent("output"),
            outputs: [build.stdout, build.stderr, check.stdout, check.stderr, again.stdout, again.stderr, diff.stdout, diff.stderr])
    }
}
