import Foundation
import Testing
import OrderPressTestSupport


/// The "not updated since …" notice (`StaleNotice`): a sheet served from a loopback server fails, and the
/// built binary runs with a pinned clock. The notice appears on the index and group pages only once the
/// failure is older than `stale_after_minutes`, every other byte of the site stays, and the next
/// successful build takes it out again.
@Suite struct StaleNoticeTests {
    typealias Files = [String: (Data, Date?)]

    /// 2026-11-21 10:00 UTC; the first failure comes ten minutes later.
    static let start = 1_795_255_200
    static let failedAt = start + 600

    static func run(_ site: URL, at epoch: Int) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await TestSupport.runDetached(
            ["build", "--quiet"], in: site,
            environment: HTTPBinaryTests.environment.merging(["SOURCE_DATE_EPOCH": String(epoch)]) { $1 })
    }

    /// The published pages (both trees), without `status.json`, which says `failing` during the outage.
    static func pages(_ output: URL) throws -> Files {
        try HTTPBinaryTests.state(of: output).filter { $0.key.hasPrefix("markdown/") || ($0.key.hasPrefix("site/") && $0.key != "site/status.json") }
    }

    /// Every page that shows money: the index, the groups' and the people's pages.
    static func noticed(_ path: String) -> Bool {
        ["markdown/index.md", "site/index.html"].contains(path)
            || ["groups/", "people/"].contains { folder in
                (path.hasPrefix("markdown/" + folder) && path.hasSuffix(".md")) || (path.hasPrefix("site/" + folder) && path.hasSuffix(".html"))
            }
    }

    @Test func theNoticeAppearsAfterTheThresholdAndGoesOnRecoveryAllElseUnchanged() async throws {
        let service = HTTPBinaryTests.Service()
        try await LocalServer.with(try HTTPBinaryTests.serve(try TestSupport.sampleSite(), service)) { server in
            let site = try HTTPBinaryTests.liveSite(server)
            let toml = site.appendingPathComponent("orderpress.toml")
            try Data((try String(contentsOf: toml, encoding: .utf8) + "\n[notify]\nstale_after_minutes = 30\n").utf8).write(to: toml)
            let first = try await Self.run(site, at: Self.start)
            #expect(first.status == 0, "\(first.stderr)")
            let output = site.appendingPathComponent("output")
            let before = try Self.pages(output)
            #expect(before.keys.contains("site/groups/週五下午茶.html"))

            await service.fail()
            // Up to and at the threshold: nothing but status.json (and the state's record) changes.
            for epoch in [Self.failedAt, Self.failedAt + 29 * 60, Self.failedAt + 30 * 60] {
                let failed = try await Self.run(site, at: epoch)
                #expect(failed.status == 69)
                let now = try Self.pages(output)
                #expect(now.keys.sorted() == before.keys.sorted())
                for (path, (data, date)) in before {
                    #expect(now[path]?.0 == data && now[path]?.1 == date, "\(path) changed at \(epoch)")
                }
            }
            // Past it: the index and group pages say so, in the site's language, with the failure's start.
            let stale = try await Self.run(site, at: Self.failedAt + 30 * 60 + 1)
            #expect(stale.status == 69 && stale.stdout == "" && stale.stderr == "", "\(stale)")
            let noticeMarkdown = "> ⚠ **自 2026-11-21 18:10 (Asia/Taipei) 起未更新：訂單表目前無法讀取，以下資料可能已過時。**\n"
            let noticeHTML = "<blockquote>\n<p>⚠ <strong>自 2026-11-21 18:10 (Asia/Taipei) 起未更新：訂單表目前無法讀取，以下資料可能已過時。</strong></p>\n</blockquote>\n"
            let noticed = try Self.pages(output)
            #expect(noticed.keys.sorted() == before.keys.sorted())
            var patched = 0
            for (path, (data, date)) in before {
                let now = try #require(noticed[path])
                guard Self.noticed(path) else {
                    #expect(now.0 == data && now.1 == date, "\(path) changed")
                    continue
                }
                patched += 1
                let text = String(decoding: now.0, as: UTF8.self)
                let block = path.hasPrefix("markdown/") ? noticeMarkdown : noticeHTML
                #expect(text.components(separatedBy: block).count == 2, "\(path) has no notice, or two")
                // Everything else on the page is as it was.
                #expect(Data(text.replacingOccurrences(of: block, with: "").utf8).count == data.count + (path.hasPrefix("markdown/") ? 1 : 0))
                #expect(text.replacingOccurrences(of: "\n" + block, with: "") == String(decoding: data, as: UTF8.self)
                    || text.replacingOccurrences(of: block, with: "") == String(decoding: data, as: UTF8.self), "\(path)")
            }
            let people = before.keys.filter { $0.hasPrefix("markdown/people/") }.count
            #expect(people > 0)
            #expect(patched == 2 + 2 * 4 + 2 * people)
            // A member's own page says it too: the page they open to see what they owe.
            let amy = String(decoding: try #require(noticed["site/people/amy.html"]).0, as: UTF8.self)
            #expect(amy.contains(noticeHTML))
            let index = String(decoding: try #require(noticed["markdown/index.md"]).0, as: UTF8.self)
            #expect(index.hasPrefix("# Friday tea run\n\n" + noticeMarkdown + "\n資料時間："))
            let indexHTML = String(decoding: try #require(noticed["site/index.html"]).0, as: UTF8.self)
            #expect(indexHTML.contains("<main>\n<h1>Friday tea run</h1>\n" + noticeHTML + "<p>資料時間："))

            // Still failing: nothing is written again.
            let later = try await Self.run(site, at: Self.failedAt + 90 * 60)
            #expect(later.status == 69)
            let again = try Self.pages(output)
            for (path, (data, date)) in noticed { #expect(again[path]?.0 == data && again[path]?.1 == date, "\(path) rewritten") }

            // Recovery: the next build publishes the pages exactly as before the outage.
            await service.recover()
            let recovered = try await Self.run(site, at: Self.failedAt + 95 * 60)
            #expect(recovered.status == 0, "\(recovered.stderr)")
            // Under --quiet the recovery is news, said once on stdout.
            #expect(recovered.stdout == "已恢復：訂單表已可再次讀取（自 2026-11-21 18:10 (Asia/Taipei) 起失敗）\n" && recovered.stderr == "", "\(recovered)")
            let after = try Self.pages(output)
            #expect(after.keys.sorted() == before.keys.sorted())
            for (path, (data, date)) in before {
                #expect(after[path]?.0 == data, "\(path) differs after recovery")
                if !Self.noticed(path) { #expect(after[path]?.1 == date, "\(path) was touched") }
            }
            #expect(try String(contentsOf: output.appendingPathComponent("site/status.json"), encoding: .utf8) == "{\n  \"state\" : \"ok\"\n}\n")
            // And a healthy rerun writes nothing.
            let rerun = try await TestSupport.runDetached(
                ["build"], in: site, environment: HTTPBinaryTests.environment.merging(["SOURCE_DATE_EPOCH": String(Self.failedAt + 100 * 60)]) { $1 })
            #expect(rerun.stdout.contains(" 0 files written"), "\(rerun.stdout)")
        }
    }

    /// A page someone changed after the build is not OrderPress's as published any more: it is left alone.
    @Test func aPageSomeoneChangedGetsNoNotice() async throws {
        let service = HTTPBinaryTests.Service()
        try await LocalServer.with(try HTTPBinaryTests.serve(try TestSupport.sampleSite(), service)) { server in
            let site = try HTTPBinaryTests.liveSite(server)
            let toml = site.appendingPathComponent("orderpress.toml")
            try Data((try String(contentsOf: toml, encoding: .utf8) + "\n[notify]\nstale_after_minutes = 5\n").utf8).write(to: toml)
            #expect(try await Self.run(site, at: Self.start).status == 0)
            let edited = site.appendingPathComponent("output/markdown/groups/週五下午茶.md")
            let text = try String(contentsOf: edited, encoding: .utf8) + "\nmy note\n"
            try Data(text.utf8).write(to: edited)
            await service.fail()
            #expect(try await Self.run(site, at: Self.failedAt).status == 69)
            #expect(try await Self.run(site, at: Self.failedAt + 3600).status == 69)
            #expect(try String(contentsOf: edited, encoding: .utf8) == text)
            let index = try String(contentsOf: site.appendingPathComponent("output/markdown/index.md"), encoding: .utf8)
            #expect(index.contains("起未更新"))
        }
    }

    /// Without `stale_after_minutes` no page ever changes, however long the sheet fails.
    @Test func withoutTheSettingNoNoticeIsAdded() async throws {
        let service = HTTPBinaryTests.Service()
        try await LocalServer.with(try HTTPBinaryTests.serve(try TestSupport.sampleSite(), service)) { server in
            let site = try HTTPBinaryTests.liveSite(server)
            #expect(try await Self.run(site, at: Self.start).status == 0)
            let output = site.appendingPathComponent("output")
            let before = try Self.pages(output)
            await service.fail()
            for epoch in [Self.failedAt, Self.failedAt + 86_400] { #expect(try await Self.run(site, at: epoch).status == 69) }
            let after = try Self.pages(output)
            #expect(after.keys.sorted() == before.keys.sorted())
            for (path, (data, date)) in before { #expect(after[path]?.0 == data && after[path]?.1 == date, "\(path) changed") }
        }
    }
}
