import FlyingFox
import Foundation
import Testing

@testable import OrderPressNotify
import OrderPressTestSupport

/// `[notify] webhook_url_env`: each run's news POSTed after the publish, through the built binary,
/// against loopback servers that accept, fail with 500, hang, reset, and redirect elsewhere.
/// In the Makefile's LOOPBACK_SUITES: the servers run in this process.
@Suite struct WebhookTests {
    typealias Site = CronNewsTests

    /// What the stand-in webhook answers, switchable between runs.
    actor Hook {
        enum Mode { case accept, fail, hang }
        var mode = Mode.accept
        func set(_ mode: Mode) { self.mode = mode }
    }

    static func serve(_ hook: Hook) -> LocalServer.Responder {
        { _, _ in
            switch await hook.mode {
            case .accept: return Reply.text("ok", type: "text/plain")
            case .fail: return Reply.status(500)
            case .hang: return await Reply.hang()
            }
        }
    }

    static let secret = "T0KEN-in-the-webhook-url"

    /// A site posting to `hookURL`. The timeout is generous but where a test waits it out: a loopback
    /// server in this process can take over a second to answer with every suite running at once.
    static func site(hookURL: String, timeout: Int = 30) -> (URL, [String: String]) {
        let site = Site.site(notify: "[notify]\nwebhook_url_env = \"HOOK\"\nwebhook_timeout_seconds = \(timeout)\n")
        return (site, ["HOOK": hookURL])
    }

    static func build(_ site: URL, _ environment: [String: String], at epoch: Int, quiet: Bool = false) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try await TestSupport.runDetached(
            ["build"] + (quiet ? ["--quiet"] : []), in: site, environment: environment.merging(["SOURCE_DATE_EPOCH": String(epoch)]) { $1 })
    }

    static func payload(_ request: LocalServer.Request) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
    }

    /// Every file the runs left, and what they printed, hold no trace of the URL's secret.
    static func expectNoSecret(in site: URL, _ printed: [String]) throws {
        for path in TestSupport.files(in: site) {
            let bytes = try Data(contentsOf: site.appendingPathComponent(path))
            #expect(!String(decoding: bytes, as: UTF8.self).contains(secret), "\(path)")
        }
        #expect(!printed.joined().contains(secret))
    }

    @Test func aWebhookThatFailsThenRecoversGetsEachItemExactlyOnce() async throws {
        let hook = Hook()
        try await LocalServer.with(Self.serve(hook)) { server in
            let (site, environment) = Self.site(hookURL: server.url("/hooks/\(Self.secret)?token=\(Self.secret)"))
            let first = try await Self.build(site, environment, at: 1_795_255_200, quiet: true)
            #expect(first.status == 0 && first.stdout == "" && first.stderr == "", "\(first)")
            // The first run has no news: nothing is sent.
            #expect(await server.requests.isEmpty)

            await hook.set(.fail)
            try Site.setRows([Site.rows[0], Site.rows[2], Site.rows[3]], in: site)
            let failing = try await Self.build(site, environment, at: 1_795_258_800)
            #expect(failing.status == 0, "\(failing.stderr)")
            #expect(failing.stderr.contains("the webhook did not take 1 news item: it answered HTTP 500; kept to send with the next run"))
            #expect(await server.requests.count == 1)

            await hook.set(.accept)
            try Site.setRows([Site.rows[0], Site.rows[3]], in: site)
            let recovered = try await Self.build(site, environment, at: 1_795_262_400, quiet: true)
            // The webhook's recovery is said once, even under --quiet.
            #expect(recovered.status == 0 && recovered.stderr == "orderpress: the webhook works again: the news waiting for it was sent\n", "\(recovered.stderr)")
            let requests = await server.requests
            #expect(requests.count == 2)
            let sent = try Self.payload(try #require(requests.last))
            #expect(sent["site"] as? String == "Tea")
            #expect(sent["text"] as? String == """
                deleted: row 3 (id 2) Ben: 2 × 珍珠奶茶 M 無糖 正常冰 · Tea · 100.00 TWD
                deleted: row 3 (id 3) Cat: 1 × 四季春青茶 L 半糖 去冰 · Tea · 35.00 TWD
                """)
            #expect((sent["changes"] as? [[String: Any]])?.map { $0["person"] as? String } == ["Ben", "Cat"])
            #expect(requests.last?.path == "/hooks/\(Self.secret)")

            // Delivered: an unchanged rerun, and a run with news of its own, never send them again.
            #expect(try await Self.build(site, environment, at: 1_795_266_000, quiet: true).status == 0)
            #expect(await server.requests.count == 2)
            try Site.setRows([Site.rows[3]], in: site)
            #expect(try await Self.build(site, environment, at: 1_795_269_600, quiet: true).status == 0)
            let last = try Self.payload(try #require(await server.requests.last))
            #expect(last["text"] as? String == "deleted: row 2 (id 1) Amy: 1 × 熟成紅茶 L 半糖 少冰 · Tea · 45.00 TWD")
            #expect(await server.requests.count == 3)
            #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("output/state/webhook-outbox.json").path))
            try Self.expectNoSecret(in: site, [first, failing, recovered].flatMap { [$0.stdout, $0.stderr] })
        }
    }

    @Test func aHangingWebhookIsAWarningWithinItsTimeoutAndItsNewsIsKept() async throws {
        let hook = Hook()
        try await LocalServer.with(Self.serve(hook)) { server in
            let (site, environment) = Self.site(hookURL: server.url("/hook?token=\(Self.secret)"), timeout: 1)
            #expect(try await Self.build(site, environment, at: 1_795_255_200).status == 0)
            await hook.set(.hang)
            try Site.setRows(Array(Site.rows.dropFirst()), in: site)
            let start = ContinuousClock.now
            let hung = try await Self.build(site, environment, at: 1_795_258_800)
            #expect(ContinuousClock.now - start < .seconds(15))
            #expect(hung.status == 0)
            #expect(hung.stderr.contains("the webhook did not take 1 news item: it did not answer within 1 s; kept to send with the next run"))
            #expect(try String(contentsOf: site.appendingPathComponent("output/state/webhook-outbox.json"), encoding: .utf8).contains("Amy"))
            try Self.expectNoSecret(in: site, [hung.stdout, hung.stderr])
        }
    }

    @Test func aConnectionResetIsAWarning() async throws {
        try await RawServer.with({ _ in }) { server in
            let (site, environment) = Self.site(hookURL: server.url("/hook?token=\(Self.secret)"))
            #expect(try await Self.build(site, environment, at: 1_795_255_200).status == 0)
            try Site.setRows(Array(Site.rows.dropFirst()), in: site)
            let reset = try await Self.build(site, environment, at: 1_795_258_800)
            #expect(reset.status == 0)
            #expect(reset.stderr.contains("the webhook did not take 1 news item: it could not be reached ("), "\(reset.stderr)")
            try Self.expectNoSecret(in: site, [reset.stdout, reset.stderr])
        }
    }

    @Test func aRedirectToAnotherOriginIsNotFollowed() async throws {
        try await LocalServer.with({ _, _ in Reply.text("ok") }) { elsewhere in
            let target = elsewhere.url("/stolen")
            try await LocalServer.with({ _, _ in Reply.text("", status: 307, headers: ["Location": target]) }) { server in
                let (site, environment) = Self.site(hookURL: server.url("/hook?token=\(Self.secret)"))
                #expect(try await Self.build(site, environment, at: 1_795_255_200).status == 0)
                try Site.setRows(Array(Site.rows.dropFirst()), in: site)
                let redirected = try await Self.build(site, environment, at: 1_795_258_800)
                #expect(redirected.status == 0)
                #expect(redirected.stderr.contains("it answered a redirect (HTTP 307), which is not followed; set the address it redirects to"))
                #expect(await elsewhere.requests.isEmpty)
                #expect(await server.requests.count == 1)
            }
        }
    }

    @Test func anUnsetVariableIsAConfigurationErrorNamingItNotItsValue() async throws {
        let (site, _) = Self.site(hookURL: "")
        let unset = try TestSupport.run(["build", "--quiet"], in: site, environment: ["HOOK": ""])
        #expect(unset.status == 64)
        #expect(unset.stderr == "orderpress: orderpress.toml: 'notify.webhook_url_env' names HOOK, which is unset or empty; export the webhook's URL in HOOK\n")
        let wrong = try TestSupport.run(["build", "--quiet"], in: site, environment: ["HOOK": "ftp://\(Self.secret)/x"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr == "orderpress: orderpress.toml: 'notify.webhook_url_env' names HOOK, which holds no http or https address; set it to the webhook's URL\n")
    }

    @Test func theTextCannotPingTheChannelOrDriveATerminal() throws {
        let item = NewsItem(
            kind: .deleted, row: 2, id: nil, group: "G", person: "<!channel> & \u{1B}[2J", what: "1 × tea", amount: "1 TWD", reasons: [])
        let sent = try #require(try JSONSerialization.jsonObject(with: Webhook.payload(site: "S", items: [item])) as? [String: Any])
        #expect(sent["text"] as? String == "deleted: row 2 &lt;!channel&gt; &amp; \\u{1B}\\[2J: 1 × tea · G · 1 TWD")
    }
}
