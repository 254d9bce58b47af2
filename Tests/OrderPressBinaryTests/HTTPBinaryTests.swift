import FlyingFox
import Foundation
import Testing
import OrderPressTestSupport


/// Runs the built binary against a local SheetDB-compatible server and rates feed serving the sample's data.
@Suite struct HTTPBinaryTests {
    typealias F = FetchFixture

    static let environment = TestSupport.fixedClock.merging([F.tokenVariable: F.token]) { $1 }

    /// Whether the server answers, for outages in the middle of a test.
    actor Service {
        var failing = false
        var ratesMissing = false
        func fail() { failing = true }
        func recover() { failing = false }
        func loseRates(_ lost: Bool) { ratesMissing = lost }
    }

    /// The sample's orders behind a bearer token, in pages of any size, and its rates as an rter feed.
    static func serve(_ site: URL, _ service: Service) throws -> LocalServer.Responder {
        let data = site.appendingPathComponent("data")
        let orders = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent("orders.json"))) as? [[String: String]])
        let rates = try String(contentsOf: data.appendingPathComponent("rates.json"), encoding: .utf8)
        return { request, _ in
            // Retry-After: 0 lets the binary retry at once, so the test need not wait for its backoff.
            if await service.failing { return Reply.status(500, headers: ["Retry-After": "0"]) }
            switch request.path {
            case "/capi.php":
                return await service.ratesMissing ? Reply.status(404) : Reply.text(rates)
            case "/api/v1/sample" where request.query["sheet"] == "orders":
                guard request.authorization == "Bearer \(F.token)" else { return Reply.status(401) }
                return Reply.page(of: orders, for: request)
            default:
                return Reply.status(404)
            }
        }
    }

    /// A copy of the sample whose orders and rates come from `server` (groups stay a local CSV file).
    static func liveSite(_ server: LocalServer) throws -> URL {
        let site = try TestSupport.sampleSite()
        let file = site.appendingPathComponent("orderpress.toml")
        let toml = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(
                of: "path = \"data/orders.json\"",
                with: """
                    url = "\(server.url("/api/v1/sample?sheet=orders"))"
                    token_env = "\(F.tokenVariable)"
                    page_size = 10
                    timeout_seconds = 10
                    """)
            .replacingOccurrences(of: "path = \"data/rates.json\"", with: "url = \"\(server.url("/capi.php"))\"")
        try Data(toml.utf8).write(to: file)
        return site
    }

    /// Every file under `folder` with its bytes and modification time.
    static func state(of folder: URL) throws -> [String: (Data, Date?)] {
        var result: [String: (Data, Date?)] = [:]
        for path in TestSupport.files(in: folder) {
            let url = folder.appendingPathComponent(path)
            result[path] = (try Data(contentsOf: url), try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
        }
        return result
    }

    @Test func aBuildFromALocalServerMatchesTheBuildFromFilesAndThenWorksOffline() async throws {
        let fileSite = try TestSupport.sampleSite()
        let fromFiles = try await TestSupport.runDetached(["build"], in: fileSite, environment: TestSupport.fixedClock)
        #expect(fromFiles.status == 0, "\(fromFiles.stderr)")
        #expect(fromFiles.stdout.contains(" removed · first run: nothing to compare · 0 requests · "))

        let (site, live, requests) = try await LocalServer.with(try Self.serve(try TestSupport.sampleSite(), Service())) { server in
            let site = try Self.liveSite(server)
            let live = try await TestSupport.runDetached(["build"], in: site, environment: Self.environment)
            return (site, live, await server.requests)
        }
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stdout.hasPrefix("37 orders, 5 rejected, 2 warnings · \(TestSupport.sampleFileCount) files written, 0 unchanged, 0 removed · first run: nothing to compare · 6 requests · "))
        // 42 rows in pages of 10, then the rates.
        #expect(requests.map { $0.query["offset"] ?? $0.path } == ["0", "10", "20", "30", "40", "/capi.php"])

        for folder in ["output/site", "output/markdown"] {
            let expected = TestSupport.files(in: fileSite.appendingPathComponent(folder))
            #expect(TestSupport.files(in: site.appendingPathComponent(folder)) == expected)
            for path in expected {
                let built = try Data(contentsOf: site.appendingPathComponent(folder).appendingPathComponent(path))
                let fromFiles = try Data(contentsOf: fileSite.appendingPathComponent(folder).appendingPathComponent(path))
                // Each site has its own random id, which the feed's ids come from.
                #expect(CronTests.comparable(path, built) == CronTests.comparable(path, fromFiles), "\(folder)/\(path)")
            }
        }

        // The server is gone: --offline builds from the cached copies, needs no token, and changes nothing.
        let offline = try await TestSupport.runDetached(["build", "--offline"], in: site, environment: TestSupport.fixedClock)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout.contains("· 0 files written, \(TestSupport.sampleFileCount) unchanged, 0 removed · no changes · 0 requests · "))

        for path in TestSupport.files(in: site.appendingPathComponent("output")) {
            let text = String(decoding: try Data(contentsOf: site.appendingPathComponent("output").appendingPathComponent(path)), as: UTF8.self)
            #expect(!text.contains(F.token), "\(path)")
            #expect(!text.contains("MTY3pFXE"), "\(path) holds an edit code")
        }
        #expect(!(live.stdout + live.stderr + offline.stdout + offline.stderr).contains(F.token))
    }

    /// Issue 22, item 15: a rerun on unchanged input from a server writes no file at all, not even the cached
    /// copies of what it downloaded (the same bytes) or their fetch times.
    @Test func anUnchangedRerunFromAServerRewritesNoCachedCopy() async throws {
        try await LocalServer.with(try Self.serve(try TestSupport.sampleSite(), Service())) { server in
            let site = try Self.liveSite(server)
            let output = site.appendingPathComponent("output")
            let first = try await TestSupport.runDetached(["build"], in: site, environment: Self.environment)
            #expect(first.status == 0, "\(first.stderr)")
            let before = try Self.state(of: output)
            #expect(before.keys.contains("state/cache/orders.body"))
            let again = try await TestSupport.runDetached(["build"], in: site, environment: Self.environment)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("· 0 files written, \(TestSupport.sampleFileCount) unchanged, 0 removed · no changes · 6 requests · "), "\(again.stdout)")
            let after = try Self.state(of: output)
            #expect(Set(after.keys) == Set(before.keys))
            for (path, (data, modified)) in before where path != "state/lock" {
                #expect(after[path]?.0 == data && after[path]?.1 == modified, "\(path) was written again")
            }
        }
    }

    /// Issue 36, item 18: with `refresh_minutes`, a build from the cached copy and a build from a new fetch
    /// of the same sheet see the same input, so neither rewrites the state (`state.sqlite`,
    /// `published.json`) or any page; only the cache's fetch time may change.
    @Test func rerunsWithinAndAfterTheRefreshWindowWriteNothing() async throws {
        try await LocalServer.with(try Self.serve(try TestSupport.sampleSite(), Service())) { server in
            let site = try Self.liveSite(server)
            let file = site.appendingPathComponent("orderpress.toml")
            let toml = try String(contentsOf: file, encoding: .utf8)
            #expect(toml.contains("timeout_seconds = 10\n"))
            try Data(toml.replacingOccurrences(of: "timeout_seconds = 10\n", with: "timeout_seconds = 10\nrefresh_minutes = 5\n").utf8).write(to: file)
            let output = site.appendingPathComponent("output")
            let start = Int(TestSupport.fixedClock["SOURCE_DATE_EPOCH"]!)!
            func build(after seconds: Int) async throws -> String {
                let environment = Self.environment.merging(["SOURCE_DATE_EPOCH": "\(start + seconds)"]) { $1 }
                let run = try await TestSupport.runDetached(["build"], in: site, environment: environment)
                #expect(run.status == 0, "\(run.stderr)")
                return run.stdout
            }
            _ = try await build(after: 0)
            let before = try Self.state(of: output)
            #expect(before.keys.contains("state/state.sqlite") && before.keys.contains("state/published.json"))
            // Within the window the orders come from the cached copy (only the rates are asked for), after
            // it from the server again: the same sheet both times.
            for (seconds, requests) in [(60, 1), (400, 6), (460, 1)] {
                let stdout = try await build(after: seconds)
                #expect(stdout.contains("· 0 files written, \(TestSupport.sampleFileCount) unchanged, 0 removed · no changes · \(requests) request"), "\(stdout)")
                let after = try Self.state(of: output)
                #expect(Set(after.keys) == Set(before.keys))
                for (path, (data, modified)) in before where path != "state/lock" && !path.hasPrefix("state/cache/") {
                    #expect(after[path]?.0 == data && after[path]?.1 == modified, "\(path) was written again after \(seconds) s")
                }
            }
        }
    }

    /// What a failing source writes besides the lock and the caches (see `SourceHealth`).
    static let failureFiles: Set<String> = ["site/status.json", "state/failing.json"]

    @Test func anOrdersOutageExits69WithOneLineAndChangesNoFile() async throws {
        let service = Service()
        try await LocalServer.with(try Self.serve(try TestSupport.sampleSite(), service)) { server in
            let site = try Self.liveSite(server)
            let first = try await TestSupport.runDetached(["build"], in: site, environment: Self.environment)
            #expect(first.status == 0, "\(first.stderr)")
            let output = site.appendingPathComponent("output")
            let before = try Self.state(of: output).filter { !Self.failureFiles.contains($0.key) }

            await service.fail()
            let failed = try await TestSupport.runDetached(["build"], in: site, environment: Self.environment)
            #expect(failed.status == 69)
            #expect(failed.stdout == "")
            #expect(failed.stderr == "orderpress: fetch: orders: \(server.host) answered HTTP 500 Internal Server Error; the service is failing; try again later\n")
            #expect(await server.requests.count == 6 + 4)
            #expect(!failed.stderr.contains(F.token))
            // Besides the lock, only the failure's record and status.json (see CronNewsTests) are written.
            let said = try String(contentsOf: output.appendingPathComponent("site/status.json"), encoding: .utf8)
            #expect(said.contains("answered HTTP 500 Internal Server Error") && !said.contains(F.token))
            let after = try Self.state(of: output).filter { !Self.failureFiles.contains($0.key) }
            #expect(after.keys.sorted() == before.keys.sorted())
            for (path, (data, date)) in before {
                #expect(after[path]?.0 == data, "\(path) changed")
                #expect(after[path]?.1 == date, "\(path) was touched")
            }
        }
    }

    @Test func aRatesOutageUsesTheCachedRatesAndWithoutThemStopsTheBuild() async throws {
        let service = Service()
        try await LocalServer.with(try Self.serve(try TestSupport.sampleSite(), service)) { server in
            let site = try Self.liveSite(server)
            let output = site.appendingPathComponent("output")
            let summary = site.appendingPathComponent("output/site/summary.json")
            let index = site.appendingPathComponent("output/markdown/index.md")
            let rates = server.host
            let stopped = "orderpress: fetch: rates: \(rates) answered HTTP 404 Not Found; check [rates] url; no earlier rates are cached, so nothing is published\n"

            // Never any rates: nothing is published, rather than a site whose every conversion shows n/a.
            await service.loseRates(true)
            let without = try await TestSupport.runDetached(["build"], in: site, environment: Self.environment)
            #expect(without.status == 69)
            #expect(without.stdout == "")
            #expect(without.stderr == stopped)
            // The failure's record (see CronNewsTests) is all a failing run writes besides the cache; a site never
            // published gets no status.json.
            #expect(TestSupport.files(in: output) == ["state/cache/orders.body", "state/cache/orders.meta.json", "state/failing.json", "state/lock"])

            // Rates once, then the feed goes away again: the cached rates stand in, and every page says so.
            await service.loseRates(false)
            #expect(try await TestSupport.runDetached(["build"], in: site, environment: Self.environment).status == 0)
            await service.loseRates(true)
            let cached = try await TestSupport.runDetached(["build"], in: site, environment: Self.environment)
            #expect(cached.status == 0, "\(cached.stderr)")
            let json = try TestSupport.json(summary)
            #expect((json["rates"] as? [String: Any])?["from_cache"] as? Bool == true)
            #expect((json["groups"] as? [[String: Any]])?.first?["converted"] as? [String: String] == ["USD": "68.79", "JPY": "10616"])
            #expect((json["warnings"] as? [[String: Any]])?.compactMap { $0["message"] as? String }.contains(
                "rates: \(rates) answered HTTP 404 Not Found; check [rates] url; using the rates fetched 2026-11-21 18:00 (Asia/Taipei)") == true)
            #expect(try String(contentsOf: index, encoding: .utf8).contains(
                "無法讀取匯率來源：換算使用 2026-11-21 16:00 的快取匯率。"))
            // Person pages and the other pages of converted totals say it too, not just the index.
            let markdown = output.appendingPathComponent("markdown")
            let pages = TestSupport.files(in: markdown).filter { $0.hasPrefix("people/") || $0.hasPrefix("groups/") && $0.hasSuffix(".md") }
            #expect(pages.contains { $0.hasPrefix("people/") })
            for page in pages {
                #expect(try String(contentsOf: markdown.appendingPathComponent(page), encoding: .utf8).contains(
                    "> 無法讀取匯率來源：換算使用 2026-11-21 16:00 的快取匯率。"), "\(page)")
            }

            // The cached copy lost as well: the published site, the Markdown and the snapshot stay as they were.
            let before = try Self.state(of: output).filter { !$0.key.hasPrefix("state/cache/") && !Self.failureFiles.contains($0.key) }
            try FileManager.default.removeItem(at: output.appendingPathComponent("state/cache/rates.body"))
            let lost = try await TestSupport.runDetached(["build"], in: site, environment: Self.environment)
            #expect(lost.status == 69)
            #expect(lost.stderr == stopped)
            let after = try Self.state(of: output).filter { !$0.key.hasPrefix("state/cache/") && !Self.failureFiles.contains($0.key) }
            #expect(after.keys.sorted() == before.keys.sorted())
            for (path, (data, date)) in before {
                #expect(after[path]?.0 == data, "\(path) changed")
                #expect(after[path]?.1 == date, "\(path) was touched")
            }
        }
    }

    /// Runs the binary on a thread of its own, and kills it after `limit`: a hang fails the test (with
    /// the status of the signal) instead of stalling the suite.
    static func runWithin(
        _ limit: TimeInterval, _ arguments: [String], in folder: URL, environment: [String: String]
    ) async throws -> (status: Int32, stderr: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = TestSupport.binary
                    process.arguments = arguments
                    process.currentDirectoryURL = folder
                    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                    let errors = Pipe()
                    process.standardError = errors
                    process.standardOutput = FileHandle.nullDevice
                    try process.run()
                    let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
                    DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: killer)
                    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    killer.cancel()
                    return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
                })
            }
        }
    }

    /// An orders server that misbehaves: a redirect loop; a gzip bomb (272 kB of gzip that inflates to
    /// 280 MB, stopped by the real limit of 256 MiB), also with a 1 s timeout (seen to hang for ever);
    /// a sheet longer than `max_rows`; a server that ignores `offset`. One line, exit 69, nothing published.
    @Test(arguments: ["redirect loop", "gzip bomb", "gzip bomb, 1 s timeout", "max_rows", "offset ignored"])
    func aMisbehavingServerExits69WithOneLine(behaviour: String) async throws {
        let bomb = behaviour.hasPrefix("gzip bomb") ? try await F.gzip("head -c 280000000 /dev/zero") : Data()
        let base = try Self.serve(try TestSupport.sampleSite(), Service())
        let respond: LocalServer.Responder = { request, number in
            guard request.path == "/api/v1/sample" else { return await base(request, number) }
            switch behaviour {
            case "redirect loop":
                return Reply.status(302, headers: ["Location": "/api/v1/sample?sheet=orders"])
            case "offset ignored":
                var first = request
                first.query["offset"] = "0"
                return await base(first, number)
            case "max_rows":
                return await base(request, number)
            default:
                return HTTPResponse(
                    statusCode: .ok, headers: [.contentType: "application/json", HTTPHeader("Content-Encoding"): "gzip"], body: bomb)
            }
        }
        try await LocalServer.with(respond) { server in
            let site = try Self.liveSite(server)
            let file = site.appendingPathComponent("orderpress.toml")
            let toml = try String(contentsOf: file, encoding: .utf8)
            switch behaviour {
            case "gzip bomb, 1 s timeout":
                try Data(toml.replacingOccurrences(of: "timeout_seconds = 10", with: "timeout_seconds = 1").utf8).write(to: file)
            case "max_rows":
                try Data(toml.replacingOccurrences(of: "page_size = 10", with: "page_size = 10\nmax_rows = 30").utf8).write(to: file)
            default:
                break
            }
            let result = try await Self.runWithin(60, ["build"], in: site, environment: Self.environment)
            #expect(result.status == 69)
            let page = server.host
            let sheet = server.host
            let (line, requests): (String, Int) = switch behaviour {
            case "redirect loop": ("\(page) redirected more than 10 times; check [orders] url", 11)
            case "max_rows": ("\(sheet) sent more than 30 rows; raise orders.max_rows if the sheet really is that long", 4)
            case "offset ignored":
                ("\(sheet) sends rows already read whatever the offset; the server ignores offset, so the sheet cannot be read in pages", 3)
            default: ("\(page) sent more than 256 MiB (decompressed); check [orders] url", 1)
            }
            // With a 1 s timeout, the timer may win the race against the limit; either way it ends.
            if behaviour.hasSuffix("1 s timeout") && result.stderr.contains(" did not answer within 1 s") {
                #expect(result.stderr.hasPrefix("orderpress: fetch: orders: \(page) did not answer within 1 s"))
                #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.hasSuffix("\n"))
            } else {
                #expect(result.stderr == "orderpress: fetch: orders: \(line)\n")
                // On a loaded machine inflating 256 MiB can outlast timeout_seconds once, and a timeout is retried.
                let sent = await server.requests.count
                #expect(behaviour.hasPrefix("gzip bomb") ? (requests...requests + 1).contains(sent) : sent == requests)
            }
            #expect(!result.stderr.contains(F.token))
            let kept = ["state/cache", "state/lock", "site/status.json", "state/failing.json"]
            #expect(TestSupport.files(in: site.appendingPathComponent("output")).filter { !kept.contains(where: $0.hasPrefix) } == [])
        }
    }

    /// A server that sends a byte every 100 ms never trips URLSession's own timeout; the binary still
    /// gives up after its attempts and exits, releasing the lock.
    @Test func aServerThatDripsForeverExits69WithinItsTimeouts() async throws {
        try await RawServer.with(RawReply.drip(every: .milliseconds(100))) { server in
            let site = try TestSupport.sampleSite()
            let file = site.appendingPathComponent("orderpress.toml")
            let toml = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
                of: "path = \"data/orders.json\"", with: "url = \"\(server.url("/api/v1/sample?sheet=orders"))\"\ntimeout_seconds = 1")
            try Data(toml.utf8).write(to: file)
            let result = try await Self.runWithin(60, ["build"], in: site, environment: TestSupport.fixedClock)
            #expect(result.status == 69)
            // One attempt or two, as the random backoff fits the time budget of 3 × timeout_seconds.
            let page = server.host
            #expect([""].map { "orderpress: fetch: orders: \(page) did not answer within 1 s\($0); check the address, or raise orders.timeout_seconds\n" }
                .contains(result.stderr), "\(result.stderr)")
            // The lock is free: the next run does not wait for this one.
            #expect(try await Self.runWithin(60, ["check"], in: site, environment: TestSupport.fixedClock).status == 69)
        }
    }

    @Test func aWrongTokenExits69AndAMissingOneExits64() async throws {
        try await LocalServer.with(try Self.serve(try TestSupport.sampleSite(), Service())) { server in
            let site = try Self.liveSite(server)
            let wrong = try await TestSupport.runDetached(["build"], in: site, environment: [F.tokenVariable: "not-the-token-42"])
            #expect(wrong.status == 69)
            #expect(wrong.stderr == "orderpress: fetch: orders: \(server.host) answered HTTP 401 Unauthorized; check the token in $\(F.tokenVariable)\n")

            let missing = try await TestSupport.runDetached(["check"], in: site, environment: [F.tokenVariable: ""])
            #expect(missing.status == 64)
            #expect(missing.stderr == "orderpress: configure: orderpress.toml: 'orders.token_env' names \(F.tokenVariable), which is unset or empty; export the API token in \(F.tokenVariable)\n")
            #expect(await server.requests.count == 1)
            #expect(TestSupport.files(in: site.appendingPathComponent("output")) == ["state/failing.json", "state/lock"])
            for file in ["state/failing.json"] {
                let text = try String(contentsOf: site.appendingPathComponent("output/\(file)"), encoding: .utf8)
                #expect(text.contains("answered HTTP 401 Unauthorized") && !text.contains("not-the-token-42") && !text.contains(F.token))
            }
        }
    }

    /// `diff --offline` after a build compares the cached copies with the snapshot: no request, no
    /// token needed; the server's newer data is seen only by a `diff` that fetches.
    @Test func diffOfflineReadsTheCachedCopiesAndSendsNoRequest() async throws {
        let service = Service()
        try await LocalServer.with(try Self.serve(try TestSupport.sampleSite(), service)) { server in
            let site = try Self.liveSite(server)
            let build = try await TestSupport.runDetached(["build"], in: site, environment: Self.environment)
            #expect(build.status == 0, "\(build.stderr)")
            let built = await server.requests.count
            #expect(built == 6)
            // The server now fails every request: the offline diff does not notice, as it asks nothing.
            await service.fail()
            let offline = try await TestSupport.runDetached(["diff", "--offline"], in: site, environment: TestSupport.fixedClock)
            #expect(offline.status == 0, "\(offline.stderr)")
            #expect(offline.stdout.hasPrefix("no changes since the build of "), "\(offline.stdout)")
            #expect(await server.requests.count == built)
            let online = try await TestSupport.runDetached(["diff"], in: site, environment: Self.environment)
            #expect(online.status == 69, "\(online.stderr)")
            #expect(await server.requests.count > built)
        }
    }

    @Test func offlineWithoutACachedCopyExits69() async throws {
        let site = try TestSupport.sampleSite()
        let file = site.appendingPathComponent("orderpress.toml")
        let toml = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: "path = \"data/orders.json\"", with: "url = \"http://127.0.0.1:9/api/v1/sample?sheet=orders\"")
        try Data(toml.utf8).write(to: file)
        let result = try await TestSupport.runDetached(["check", "--offline"], in: site)
        #expect(result.status == 69)
        #expect(result.stderr == "orderpress: fetch: orders: --offline, but the state folder holds no copy of 127.0.0.1:9; run once without --offline\n")
    }
}
