import FlyingFox
import Foundation
import Testing
import OrderPressTestSupport


/// Every kind of news through the built binary: printed under `--quiet` and POSTed to a loopback webhook
/// (a failing source and its recovery, a build the guard refuses, deletions, rejections), in the site's
/// language with links, escaped so that data cannot notify a channel, delivered at least once even when
/// the run is killed during the POST, and never twice. With `status.json` `blocked` and the stale notice
/// on every page that shows money. In the Makefile's LOOPBACK_SUITES: the servers run in this process.
@Suite struct NewsDeliveryTests {
    typealias Site = CronNewsTests
    typealias Hook = WebhookTests.Hook

    /// 2026-11-21 10:00 UTC.
    static let start = 1_795_255_200

    static func site(top: String = "", notify: String = "", rows: [String] = Site.rows, timeout: Int = 30) -> URL {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(
            [
                "orderpress.toml": """
                    title = "Tea"
                    base_currency = "TWD"
                    \(top)
                    [orders]
                    path = "orders.csv"
                    [notify]
                    webhook_url_env = "HOOK"
                    webhook_timeout_seconds = \(timeout)
                    \(notify)
                    """,
                "orders.csv": ([Site.header] + rows).joined(separator: "\n") + "\n",
            ], in: folder)
        return folder
    }

    static func build(_ site: URL, _ hook: String, at epoch: Int, _ extra: [String] = []) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await TestSupport.runDetached(
            ["build", "--quiet"] + extra, in: site, environment: ["HOOK": hook, "SOURCE_DATE_EPOCH": String(epoch)])
    }

    static func texts(_ server: LocalServer) async throws -> [String] {
        try await server.requests.map { try #require(try WebhookTests.payload($0)["text"] as? String) }
    }

    static func read(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func aFailingSourceAndItsRecoveryAreNewsOnceInTheSitesLanguageWithALink() async throws {
        try await LocalServer.with(WebhookTests.serve(Hook())) { server in
            let site = Self.site(top: "language = \"ja\"\ntimezone = \"Asia/Tokyo\"\nbase_url = \"https://tea.example.org/friday/\"")
            let hook = server.url("/hook")
            #expect(try await Self.build(site, hook, at: Self.start).status == 0)
            let orders = site.appendingPathComponent("orders.csv")
            try FileManager.default.moveItem(at: orders, to: site.appendingPathComponent("away.csv"))
            let failed = try await Self.build(site, hook, at: Self.start + 600)
            #expect(failed.status == 69)
            let failing = "読み込み失敗：2026-11-21 19:10 (Asia/Tokyo) から注文シートを読み込めません。ページは前回公開した内容のままです https://tea.example.org/friday/index.html"
            #expect(failed.stdout == failing + "\n")
            // Still failing: no news again.
            let again = try await Self.build(site, hook, at: Self.start + 900)
            #expect(again.status == 69 && again.stdout == "" && again.stderr == "", "\(again)")
            try FileManager.default.moveItem(at: site.appendingPathComponent("away.csv"), to: orders)
            let recovered = try await Self.build(site, hook, at: Self.start + 1200)
            #expect(recovered.status == 0)
            let back = "復旧：注文シートを再び読み込めます（2026-11-21 19:10 (Asia/Tokyo) から失敗） https://tea.example.org/friday/index.html"
            #expect(recovered.stdout == back + "\n" && recovered.stderr == "", "\(recovered)")
            #expect(try await Self.texts(server) == [failing, back])
            // The news names no path of the machine.
            #expect(!(try await Self.texts(server)).joined().contains(site.path))
            let sent = try WebhookTests.payload(try #require(await server.requests.first))
            #expect(sent["site"] as? String == "Tea")
            #expect((sent["changes"] as? [[String: Any]])?.first?["kind"] as? String == "failing")
        }
    }

    @Test func aDeletionInJapaneseLinksToTheChangesPage() async throws {
        try await LocalServer.with(WebhookTests.serve(Hook())) { server in
            let site = Self.site(top: "language = \"ja\"\nbase_url = \"https://tea.example.org/friday\"")
            let hook = server.url("/hook")
            #expect(try await Self.build(site, hook, at: Self.start).status == 0)
            try Site.setRows([Site.rows[0], Site.rows[2], Site.rows[3]], in: site)
            let deleted = try await Self.build(site, hook, at: Self.start + 600)
            let line = "削除：3 行目 (id 2) Ben：2 × 珍珠奶茶 M 無糖 正常冰 · Tea · 100.00 TWD https://tea.example.org/friday/changes.html"
            #expect(deleted.status == 0 && deleted.stdout == line + "\n", "\(deleted)")
            #expect(try await Self.texts(server) == [line])
        }
    }

    /// A rejected row already there on the first run is news; a quantity of −1 is said as written.
    @Test func aFirstRunsRejectedRowIsNewsWithItsQuantityAsWritten() async throws {
        try await LocalServer.with(WebhookTests.serve(Hook())) { server in
            let site = Self.site(rows: Site.rows + ["5,Tea,Eve,芒果綠茶,L,半糖,少冰,-1,45,eve-secret"])
            let first = try await Self.build(site, server.url("/hook"), at: Self.start)
            #expect(first.status == 0)
            let line = "rejected: row 6 (id 5) Eve: -1 × 芒果綠茶 L 半糖 少冰 · Tea · quantity must be a whole number from 1 to 10,000 (found '-1')"
            #expect(first.stdout == line + "\n", "\(first)")
            #expect(try await Self.texts(server) == [line])
            #expect(!first.stdout.contains("secret"))
        }
    }

    @Test func dataCannotNotifyTheChannelOrMakeALink() async throws {
        try await LocalServer.with(WebhookTests.serve(Hook())) { server in
            let site = Self.site()
            let hook = server.url("/hook")
            #expect(try await Self.build(site, hook, at: Self.start).status == 0)
            try Site.setRows(
                Site.rows + ["5,Tea,@channel @all @here @everyone <!channel> [win](https://evil.example),珍珠,M,無糖,正常冰,x,50,"], in: site)
            #expect(try await Self.build(site, hook, at: Self.start + 600).status == 0)
            let request = try #require(await server.requests.last)
            let text = try #require(try WebhookTests.payload(request)["text"] as? String)
            for mention in ["@channel", "@all", "@here", "@everyone", "<!channel>", "[win](", "<https"] { #expect(!text.contains(mention), "\(mention) in \(text)") }
            #expect(text.contains("@\u{200B}channel @\u{200B}all @\u{200B}here @\u{200B}everyone &lt;!channel&gt; \\[win\\](https://evil.example)"))
            // The values themselves go as written in `changes`.
            let changes = try #require(try WebhookTests.payload(request)["changes"] as? [[String: Any]])
            #expect(changes.first?["person"] as? String == "@channel @all @here @everyone <!channel> [win](https://evil.example)")
        }
    }

    /// A webhook that keeps failing is said under `--quiet` once, the first time, and once when it works again.
    @Test func aFailingWebhookIsSaidOnceAndItsRecoveryOnce() async throws {
        let hook = Hook()
        try await LocalServer.with(WebhookTests.serve(hook)) { server in
            let site = Self.site()
            let url = server.url("/hook")
            #expect(try await Self.build(site, url, at: Self.start).status == 0)
            await hook.set(.fail)
            try Site.setRows(Array(Site.rows.dropFirst()), in: site)
            let first = try await Self.build(site, url, at: Self.start + 600)
            #expect(first.status == 0)
            #expect(first.stderr == "orderpress: the webhook did not take 1 news item: it answered HTTP 500; kept to send with the next run\n")
            try Site.setRows(Array(Site.rows.dropFirst(2)), in: site)
            let second = try await Self.build(site, url, at: Self.start + 900)
            #expect(second.status == 0 && second.stderr == "", "\(second)")
            #expect(second.stdout.hasPrefix("deleted: row 2 (id 2) Ben"))
            await hook.set(.accept)
            let third = try await Self.build(site, url, at: Self.start + 1200)
            #expect(third.stderr == "orderpress: the webhook works again: the news waiting for it was sent\n", "\(third)")
            let fourth = try await Self.build(site, url, at: Self.start + 1500)
            #expect(fourth.stderr == "" && fourth.stdout == "", "\(fourth)")
            let last = try #require(try await Self.texts(server).last)
            #expect(last.components(separatedBy: "\n").count == 2 && last.hasPrefix("deleted: row 2 (id 1) Amy"))
        }
    }

    /// A build killed while its POST is open: the news is in the outbox (flushed before the POST), so the
    /// next run sends it, and the run after that never again.
    @Test func aRunKilledDuringThePostHasItsNewsSentByTheNextRunOnce() async throws {
        let hook = Hook()
        try await LocalServer.with(WebhookTests.serve(hook)) { server in
            let site = Self.site()
            let url = server.url("/hook")
            #expect(try await Self.build(site, url, at: Self.start).status == 0)
            await hook.set(.hang)
            try Site.setRows(Array(Site.rows.dropFirst()), in: site)
            let process = Process()
            process.executableURL = TestSupport.binary
            process.arguments = ["build", "--quiet"]
            process.currentDirectoryURL = site
            process.environment = ProcessInfo.processInfo.environment.merging(["HOOK": url, "SOURCE_DATE_EPOCH": String(Self.start + 600)]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = ContinuousClock.now + .seconds(20)
            // The first run had no news: the one request is the killed run's POST, held open.
            while await server.requests.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(await server.requests.count == 1)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)

            await hook.set(.accept)
            let next = try await Self.build(site, url, at: Self.start + 900)
            #expect(next.status == 0, "\(next)")
            let texts = try await Self.texts(server)
            #expect(texts.count == 2)
            #expect(texts.last == "deleted: row 2 (id 1) Amy: 1 × 熟成紅茶 L 半糖 少冰 · Tea · 45.00 TWD")
            #expect(try await Self.build(site, url, at: Self.start + 1200).status == 0)
            try Site.setRows(Array(Site.rows.dropFirst(2)), in: site)
            #expect(try await Self.build(site, url, at: Self.start + 1500).status == 0)
            let after = try await Self.texts(server)
            #expect(after.count == 3)
            #expect(after.last?.hasPrefix("deleted: row 2 (id 2) Ben") == true)
            #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output/state/webhook-outbox.json").path))
        }
    }

    /// A guard that refuses every build: exit 65 each time, news once (with how to proceed), `status.json`
    /// `blocked` with since when and what to do, the stale notice on every page that shows money once it
    /// lasts, and all of it gone with the next build that publishes.
    @Test func aBlockedSiteSaysSoUntilTheNextPublishedBuild() async throws {
        try await LocalServer.with(WebhookTests.serve(Hook())) { server in
            let site = Self.site(notify: "stale_after_minutes = 30")
            let url = server.url("/hook")
            #expect(try await Self.build(site, url, at: Self.start).status == 0)
            let amy = "output/site/people/amy.html"
            let before = try Self.read(site, amy)
            try Site.setRows([Site.rows[0]], in: site)
            let refused = try await Self.build(site, url, at: Self.start + 600)
            #expect(refused.status == 65)
            let blocked = "blocked: 3 of the last run's 4 orders are no longer valid orders, so nothing was published; "
                + "if that is right, run again with --accept-deletions, or restore the rows in the sheet"
            #expect(refused.stdout == blocked + "\n", "\(refused)")
            #expect(try await Self.texts(server) == [blocked])
            let status = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: site.appendingPathComponent("output/site/status.json"))) as? [String: String])
            #expect(status["state"] == "blocked")
            #expect(status["since"] == "2026-11-21T10:10:00Z")
            let reason = try #require(status["reason"])
            #expect(reason.contains("--accept-deletions") && reason.contains("restore the rows"))
            #expect(!reason.contains("/") && !reason.contains("\n"))

            // Still refused, within the threshold: no news, no notice. Past it: the notice, on a person's page too.
            let again = try await Self.build(site, url, at: Self.start + 1200)
            #expect(again.status == 65 && again.stdout == "", "\(again)")
            #expect(try Self.read(site, amy) == before)
            #expect(try await Self.build(site, url, at: Self.start + 600 + 31 * 60).status == 65)
            let stale = try Self.read(site, amy)
            #expect(stale.contains("Not updated since 2026-11-21 10:10 (GMT): the sheet lost more orders than a build may delete unconfirmed"))
            #expect(try Self.read(site, "output/markdown/index.md").contains("Not updated since 2026-11-21 10:10 (GMT)"))
            #expect(try await Self.texts(server).count == 1)

            let accepted = try await Self.build(site, url, at: Self.start + 3 * 3600, ["--accept-deletions"])
            #expect(accepted.status == 0, "\(accepted)")
            #expect(try Self.read(site, "output/site/status.json") == "{\n  \"state\" : \"ok\"\n}\n")
            #expect(!(try Self.read(site, amy)).contains("Not updated since"))
            #expect(!(try Self.read(site, "output/markdown/index.md")).contains("Not updated since"))
        }
    }

    /// One page of the Markdown tree that is a link is skipped alone: every other page still gets the notice.
    @Test func aLinkedPageDoesNotKeepTheNoticeOffTheOthers() async throws {
        try await LocalServer.with(WebhookTests.serve(Hook())) { server in
            let site = Self.site(notify: "stale_after_minutes = 5")
            let url = server.url("/hook")
            #expect(try await Self.build(site, url, at: Self.start).status == 0)
            let linked = site.appendingPathComponent("output/markdown/people/ben.md")
            let elsewhere = site.appendingPathComponent("elsewhere.md")
            try FileManager.default.moveItem(at: linked, to: elsewhere)
            try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: elsewhere)
            let kept = try String(contentsOf: elsewhere, encoding: .utf8)
            try FileManager.default.moveItem(at: site.appendingPathComponent("orders.csv"), to: site.appendingPathComponent("away.csv"))
            #expect(try await Self.build(site, url, at: Self.start + 600).status == 69)
            #expect(try await Self.build(site, url, at: Self.start + 1800).status == 69)
            #expect(try Self.read(site, "output/markdown/index.md").contains("Not updated since"))
            #expect(try Self.read(site, "output/markdown/people/amy.md").contains("Not updated since"))
            #expect(try Self.read(site, "output/site/people/ben.html").contains("Not updated since"))
            // Nothing was written through the link.
            #expect(try String(contentsOf: elsewhere, encoding: .utf8) == kept)
        }
    }
}
