import Foundation
import GRDB
import Testing

@testable import OrderPressSupport
@testable import OrderPressDiff
import OrderPressTestSupport

/// Issue 34 deliver 3 and issue 36 item 7 through the built binary, with a pinned clock: a tombstone only
/// for orders deleted (not for a closed round, not for a person with a carried debt), never listing a
/// deletion undone, kept 30 days by the clock however many runs happen, and split into pages when long.
@Suite struct TombstoneTruthTests {
    static let header = RoundsTests.header
    static let notice = "> ⚠ Every order on this page was deleted."
    static let minute = 60

    static func write(_ site: URL, _ rows: [String]) throws {
        try Data((([header] + rows).joined(separator: "\n") + "\n").utf8).write(to: site.appendingPathComponent("orders.csv"))
    }

    static func build(_ site: URL, at epoch: Int, _ extra: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try TestSupport.run(["build"] + extra, in: site, environment: ["SOURCE_DATE_EPOCH": String(epoch)])
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    static func page(_ site: URL, _ path: String) -> String? {
        try? String(contentsOf: site.appendingPathComponent("output/markdown/\(path)"), encoding: .utf8)
    }

    /// Dan's unpaid tea deleted before the round closed; his paid one went with the round: his orders ended
    /// with the round, so he gets no tombstone (before: one listing the deletion).
    @Test func aPersonWhoseLastOrdersWentWithAClosedRoundGetsNoTombstone() throws {
        let site = RoundsTests.site(teaDeadline: "2026-11-21 14:00")
        let dan = "7,Tea,Dan,四季春,L,半糖,少冰,1,35,TRUE"
        try Self.write(site, RoundsTests.tea + [dan, RoundsTests.lunch])
        _ = try Self.build(site, at: RoundsTests.first)
        try Self.write(site, RoundsTests.tea.dropLast() + [dan, RoundsTests.lunch])
        _ = try Self.build(site, at: RoundsTests.first + 10 * Self.minute)
        #expect(Self.page(site, "people/dan.md")?.contains(Self.notice) == false)
        try Self.write(site, [RoundsTests.lunch])
        _ = try Self.build(site, at: RoundsTests.second)
        #expect(Self.page(site, "archive/tea/2026-11-21.md") != nil)
        #expect(Self.page(site, "people/dan.md")?.contains(Self.notice) != true)
        #expect(Self.page(site, "groups/tea.md")?.contains(Self.notice) == false)
    }

    /// Cat still owes 45 TWD from the closed round; her next order, deleted, leaves her without orders: her
    /// page is not replaced by a tombstone (the carried debt keeps it).
    @Test func aPersonWithACarriedDebtGetsNoTombstone() throws {
        let site = RoundsTests.site(teaDeadline: "2026-11-21 14:00")
        _ = try Self.build(site, at: RoundsTests.first)
        try Self.write(site, [RoundsTests.lunch])
        _ = try Self.build(site, at: RoundsTests.second)
        #expect(Self.page(site, "archive/tea/2026-11-21.md") != nil)
        try Self.write(site, [RoundsTests.lunch, "8,Lunch,Cat,排骨飯,,,,1,100,FALSE"])
        _ = try Self.build(site, at: RoundsTests.second + 10 * Self.minute)
        try Self.write(site, [RoundsTests.lunch])
        _ = try Self.build(site, at: RoundsTests.second + 20 * Self.minute, ["--accept-deletions"])
        #expect(Self.page(site, "people/cat.md")?.contains(Self.notice) != true)
        // Eve's order deleted, without a debt: she does get one.
        try Self.write(site, [])
        _ = try Self.build(site, at: RoundsTests.second + 30 * Self.minute, ["--accept-deletions"])
        #expect(Self.page(site, "people/eve.md")?.contains(Self.notice) == true)
    }

    /// Eve's lunch deleted, restored, then deleted again with her tea: her tombstone lists each order once,
    /// at the time it was last deleted (before: the lunch twice, once for the deletion undone).
    @Test func aDeletionUndoneIsNotListed() throws {
        let site = RoundsTests.site(teaDeadline: "2026-11-30 14:00", rounds: false)
        let eveTea = "6,Tea,Eve,冬瓜檸檬,M,微糖,少冰,1,40,FALSE"
        let all = RoundsTests.tea + [RoundsTests.lunch, eveTea]
        try Self.write(site, all)
        _ = try Self.build(site, at: RoundsTests.first)
        try Self.write(site, RoundsTests.tea + [eveTea])
        _ = try Self.build(site, at: RoundsTests.first + 10 * Self.minute)
        // Back at the bottom of the sheet, as `orderpress restore` prints it.
        let restored = try TestSupport.run(["restore", "5"], in: site)
        #expect(restored.status == 0, "\(restored.stderr)")
        let row = restored.stdout.trimmingCharacters(in: .newlines).replacingOccurrences(of: "\t", with: ",")
        #expect(row == "5,Lunch,Eve,排骨飯,,,,1,100,FALSE")
        try Self.write(site, RoundsTests.tea + [eveTea, row])
        _ = try Self.build(site, at: RoundsTests.first + 20 * Self.minute)
        try Self.write(site, RoundsTests.tea)
        _ = try Self.build(site, at: RoundsTests.first + 30 * Self.minute)
        let page = try #require(Self.page(site, "people/eve.md"))
        #expect(page.contains(Self.notice))
        let lines = page.split(separator: "\n").filter { $0.hasPrefix("- ") }
        #expect(
            lines == [
                "- 2026-11-21 18:30 — ~~Eve: 1 × 冬瓜檸檬 M 微糖 少冰 (40 TWD)~~ · Tea",
                "- 2026-11-21 18:30 — ~~Eve: 1 × 排骨飯 (100 TWD)~~ · Lunch",
            ], "\(page)")
    }

    /// A busy cron: more than the history's 200 runs after a deletion, the tombstone stays until its 30 days
    /// end; every run shows what a clean rebuild of the same state shows, the one that drops it too.
    @Test func aTombstoneLasts30DaysByTheClockHoweverManyRuns() throws {
        let site = RoundsTests.site(teaDeadline: "2026-11-30 14:00", rounds: false)
        let start = RoundsTests.first
        _ = try Self.build(site, at: start)
        try Self.write(site, RoundsTests.tea)
        _ = try Self.build(site, at: start + 5 * Self.minute)
        #expect(Self.page(site, "people/eve.md")?.contains(Self.notice) == true)
        // 198 more runs that changed something, as a five-minute cron makes in 17 hours: the history is full.
        let database = site.appendingPathComponent("output/state/state.sqlite")
        let queue = try DatabaseQueue(path: database.path)
        try queue.write { db in
            for sequence in 3...200 {
                try db.execute(
                    sql: "INSERT INTO history (sequence, time, changes) VALUES (?, ?, ?)",
                    arguments: [
                        sequence, Timestamp.iso8601(Date(timeIntervalSince1970: Double(start + sequence * 5 * Self.minute))),
                        #"{"added":[],"changed":[],"deleted":[],"first_run":false,"no_longer_counted":[],"now_counted":[]}"#,
                    ])
            }
        }
        try queue.close()
        // The pages made again from that state, as a build of it would have made them.
        for folder in ["markdown", "site"] { try FileManager.default.removeItem(at: site.appendingPathComponent("output/\(folder)")) }
        _ = try Self.build(site, at: start + 200 * 5 * Self.minute)
        #expect(Self.page(site, "people/eve.md")?.contains(Self.notice) == true)
        // Three more runs that change something push the deletion's run out of the history.
        let ben = (3...5).map { "2,Tea,Ben,珍珠奶茶,M,無糖,正常冰,\($0),50,TRUE" }
        for (index, row) in ben.enumerated() {
            try Self.write(site, [RoundsTests.tea[0], row] + RoundsTests.tea[2...])
            let epoch = start + (201 + index) * 5 * Self.minute
            _ = try Self.build(site, at: epoch)
            #expect(Self.page(site, "people/eve.md")?.contains(Self.notice) == true, "run \(index)")
            try Self.expectCleanRebuildEqual(site, at: epoch)
        }
        #expect(try StateStore(folder: site.appendingPathComponent("output/state")).loadHistory().count == StateStore.historyLimit)
        // Until the deletion's run plus 30 days: still there; a second later: gone, as from a clean rebuild.
        let end = start + 5 * Self.minute + 30 * 86_400
        _ = try Self.build(site, at: end)
        #expect(Self.page(site, "people/eve.md")?.contains(Self.notice) == true)
        _ = try Self.build(site, at: end + 1)
        #expect(Self.page(site, "people/eve.md") == nil)
        try Self.expectCleanRebuildEqual(site, at: end + 1)
    }

    /// A copy of the site with its pages removed, built from the same state and input at `epoch`,
    /// publishes the same Markdown and HTML.
    static func expectCleanRebuildEqual(_ site: URL, at epoch: Int) throws {
        let copy = TestSupport.temporaryFolder().appendingPathComponent("site")
        try FileManager.default.copyItem(at: site, to: copy)
        for folder in ["markdown", "site"] { try FileManager.default.removeItem(at: copy.appendingPathComponent("output/\(folder)")) }
        _ = try Self.build(copy, at: epoch)
        for folder in ["markdown", "site"] {
            let built = try TestSupport.contents(of: site.appendingPathComponent("output/\(folder)"))
            let clean = try TestSupport.contents(of: copy.appendingPathComponent("output/\(folder)"))
            #expect(built.keys.sorted() == clean.keys.sorted(), "\(folder)")
            for (path, bytes) in built where path != "status.json" {
                #expect(clean[path] == bytes, "\(folder)/\(path)")
            }
        }
    }

    /// Issue 36 item 7: 50,000 orders of one group deleted make a tombstone of 50 pages of 1,000, none over
    /// 1 MB, with every deletion listed once; a later run that changes another group rewrites none of them.
    @Test func fiftyThousandDeletionsArePaginated() throws {
        let site = TestSupport.temporaryFolder()
        let count = 50_000
        var rows = ["0,Keep,Zed,排骨飯,,,,1,100,FALSE"]
        rows.reserveCapacity(count + 1)
        for index in 1...count { rows.append("\(index),Bulk,P\(index % 50),熟成紅茶,L,半糖,少冰,1,45,FALSE") }
        TestSupport.write(
            [
                "orderpress.toml": "title = \"Bulk\"\nbase_currency = \"TWD\"\ntimezone = \"Asia/Taipei\"\n[minor_units]\nTWD = 0\n[orders]\npath = \"orders.csv\"\n"
            ], in: site)
        try Self.write(site, rows)
        _ = try Self.build(site, at: RoundsTests.first)
        try Self.write(site, [rows[0]])
        _ = try Self.build(site, at: RoundsTests.first + 10 * Self.minute, ["--accept-deletions"])
        let groups = site.appendingPathComponent("output/markdown/groups")
        let pages = try FileManager.default.contentsOfDirectory(atPath: groups.path).filter { $0.hasPrefix("bulk") }.sorted()
        #expect(Set(pages) == Set(["bulk.md"] + (2...50).map { "bulk--\($0).md" }))
        var listed = 0
        for name in pages {
            let text = try String(contentsOf: groups.appendingPathComponent(name), encoding: .utf8)
            #expect(text.contains(Self.notice), "\(name)")
            #expect(text.utf8.count < 1_000_000, "\(name)")
            let html = site.appendingPathComponent("output/site/groups/\(name.dropLast(3)).html")
            #expect(try Data(contentsOf: html).count < 1_000_000, "\(name)")
            listed += text.split(separator: "\n").count { $0.hasPrefix("- ") }
        }
        #expect(listed == count)
        #expect(try String(contentsOf: groups.appendingPathComponent("bulk.md"), encoding: .utf8).contains("1–1000 of 50000"))
        // Each of the 50 people's tombstone holds their 1,000: one page each.
        #expect(Self.page(site, "people/p1.md")?.split(separator: "\n").count { $0.hasPrefix("- ") } == 1_000)
        // Another group's order: the tombstones' pages stay as they were, none written again.
        let before = try TestSupport.contents(of: groups)
        try Self.write(site, [rows[0], "1,Keep,Yan,排骨飯,,,,1,100,FALSE"])
        let next = try Self.build(site, at: RoundsTests.first + 20 * Self.minute)
        let written = try #require(next.stdout.firstMatch(of: /(\d+) files written/).map { Int($0.1)! })
        #expect(written < 20, "\(next.stdout)")
        let after = try TestSupport.contents(of: groups)
        for name in pages { #expect(after[name] == before[name], "\(name)") }
    }
}
