import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressConfig
@testable import OrderPressFetch
import OrderPressTestSupport

/// Sheets read from a real SheetDB-compatible server on 127.0.0.1: paging, the token, and every way it can fail.
@Suite struct HTTPSourceTests {
    typealias F = FetchFixture

    @Test(arguments: [
        (5, 2, [0, 2, 4]),
        (4, 2, [0, 2, 4]),
        (0, 1000, [0]),
        (5, 1000, [0]),
    ])
    func readsASheetInPagesUntilAShortOne(rowCount: Int, pageSize: Int, offsets: [Int]) async throws {
        let rows = Array(F.rows.prefix(rowCount))
        try await LocalServer.with({ request, _ in Reply.page(of: rows, for: request) }) { server in
            let fetcher = try F.fetcher(F.toml(server, orders: "page_size = \(pageSize)"), in: TestSupport.temporaryFolder())
            let fetched = try await fetcher.fetch()
            #expect(fetched.orders.rows.map(\.number) == Array((0..<rowCount).map { $0 + 2 }))
            #expect(fetched.orders.rows.map { $0.cells[fetched.orders.headers.firstIndex(of: "orderer")!] } == rows.map { $0["orderer"]! })
            #expect(fetched.requests == offsets.count)
            let requests = await server.requests
            #expect(requests.map { $0.query["offset"] } == offsets.map { String($0) })
            for request in requests {
                #expect(request.path == "/api/v1/abc")
                #expect(request.query["sheet"] == "orders")
                #expect(request.query["limit"] == String(pageSize))
                #expect(request.authorization == "Bearer \(F.token)")
            }
        }
    }

    @Test func groupsComeFromTheirOwnSheet() async throws {
        let groups: [[String: String]] = [
            ["group": "週五下午茶", "organizer": "Amy", "shop": "五十嵐", "currency": "TWD", "deadline": "", "bank": "812-000123"],
        ]
        try await LocalServer.with({ request, _ in
            Reply.page(of: request.query["sheet"] == "groups" ? groups : F.rows, for: request)
        }) { server in
            let folder = TestSupport.temporaryFolder()
            let toml = F.toml(server, extra: "[groups]\nurl = \"\(server.url("/api/v1/abc?sheet=groups"))\"\ntoken_env = \"\(F.tokenVariable)\"\n")
            let fetched = try await F.fetcher(toml, in: folder).fetch()
            #expect(fetched.groups?.headers == ["bank", "currency", "deadline", "group", "organizer", "shop"])
            #expect(fetched.groups?.rows.first?.cells == ["812-000123", "TWD", "", "週五下午茶", "Amy", "五十嵐"])
            #expect(fetched.requests == 2)
            #expect(await server.requests.map { $0.query["sheet"] } == ["orders", "groups"])
            // The unmapped "bank" column is not kept in the cached copy.
            let cached = try SheetParser.parseJSON(
                Data(contentsOf: folder.appendingPathComponent("output/state/cache/groups.body")), source: "groups")
            #expect(cached.rows.first?.cells == ["", "TWD", "", "週五下午茶", "Amy", "五十嵐"])
        }
    }

    /// A `[payments]` SheetDB tab is read with the orders' keys (token, paging), kept for `--offline` without
    /// its unmapped columns, and in the sources' fingerprint: a changed payment is a changed input (issue 34).
    @Test func paymentsComeFromTheirOwnSheetAndAreInTheFingerprint() async throws {
        // The third run's (requests 4 and 5) payment is 40 instead of 45.
        try await LocalServer.with({ request, number in
            let payments = [["person": "Ben", "amount": number >= 4 ? "40" : "45", "group": "週五下午茶", "bank": "812-000123"]]
            return Reply.page(of: request.query["sheet"] == "payments" ? payments : F.rows, for: request)
        }) { server in
            let folder = TestSupport.temporaryFolder()
            let toml = F.toml(server, extra: "[payments]\nurl = \"\(server.url("/api/v1/abc?sheet=payments"))\"\ntoken_env = \"\(F.tokenVariable)\"\n")
            let fetched = try await F.fetcher(toml, in: folder).fetch()
            #expect(fetched.payments?.headers == ["amount", "bank", "group", "person"])
            #expect(fetched.payments?.rows.first?.cells == ["45", "812-000123", "週五下午茶", "Ben"])
            #expect(await server.requests.map { $0.query["sheet"] } == ["orders", "payments"])
            #expect(await server.requests.allSatisfy { $0.authorization == "Bearer \(F.token)" })
            let cached = try SheetParser.parseJSON(
                Data(contentsOf: folder.appendingPathComponent("output/state/cache/payments.body")), source: "payments")
            #expect(cached.rows.first?.cells == ["45", "", "週五下午茶", "Ben"])

            let again = try await F.fetcher(toml, in: folder).download().fingerprint
            #expect(again == fetched.fingerprint)
            #expect(try await F.fetcher(toml, in: folder).download().fingerprint != fetched.fingerprint)
        }
    }

    @Test func sendsNoAuthorizationWithoutATokenAndKeepsEveryQueryItem() async throws {
        try await LocalServer.with({ request, _ in Reply.page(of: F.rows, for: request) }) { server in
            let toml = """
                [orders]
                url = "\(server.url("/api/v1/abc?sheet=%E8%A8%82%E5%96%AE&mode=UNFORMATTED_VALUE&limit=7"))"
                """
            _ = try await F.fetcher(toml, in: TestSupport.temporaryFolder(), environment: [:]).fetch()
            let request = try #require(await server.requests.first)
            #expect(request.authorization == nil)
            #expect(request.query == ["sheet": "訂單", "mode": "UNFORMATTED_VALUE", "limit": "1000", "offset": "0"])
        }
    }

    @Test(arguments: [
        (401, "answered HTTP 401 Unauthorized; check the token in $ORDERPRESS_TEST_TOKEN", 1),
        (403, "answered HTTP 403 Forbidden; check the token in $ORDERPRESS_TEST_TOKEN", 1),
        (402, "answered HTTP 402 Payment Required; the plan's request quota is used up; wait for it to renew, upgrade the plan, or raise refresh_minutes", 1),
        (404, "answered HTTP 404 Not Found; check the sheet name 'orders' and the API id in [orders] url", 1),
        (400, "answered HTTP 400 Bad Request; check [orders] url", 1),
        (429, "answered HTTP 429 Too Many Requests; the plan's request quota or rate limit is exhausted; wait, or raise refresh_minutes to spend fewer requests", 4),
        (500, "answered HTTP 500 Internal Server Error; the service is failing; try again later", 4),
        (503, "answered HTTP 503 Service Unavailable; the service is failing; try again later", 4),
    ])
    func aFailingStatusEndsInOneLineWithAHint(status: Int, message: String, attempts: Int) async throws {
        try await LocalServer.with({ _, _ in Reply.status(status) }) { server in
            let sleeps = F.Sleeps()
            let fetcher = try F.fetcher(F.toml(server), in: TestSupport.temporaryFolder(), sleeps: sleeps)
            let error = try #require(await F.failure(fetcher))
            #expect(error.description == "orders: \(server.host) \(message)")
            #expect(await server.requests.count == attempts)
            // Backoff doubles from 1 s, each wait between half and all of it (the fixture's jitter takes 3/4).
            #expect(await sleeps.durations == Array([.milliseconds(750), .milliseconds(1500), .seconds(3)].prefix(attempts - 1)))
        }
    }

    @Test(arguments: [
        (429, ["Retry-After": "2"], Duration.seconds(2)),
        (429, [:], Duration.milliseconds(750)),
        (502, [:], Duration.milliseconds(750)),
    ])
    func aTransientFailureIsRetriedHonouringRetryAfter(status: Int, headers: [String: String], wait: Duration) async throws {
        try await LocalServer.with({ request, number in
            number == 0 ? Reply.status(status, headers: headers) : Reply.page(of: F.rows, for: request)
        }) { server in
            let sleeps = F.Sleeps()
            let fetched = try await F.fetcher(F.toml(server), in: TestSupport.temporaryFolder(), sleeps: sleeps).fetch()
            #expect(fetched.orders.rows.count == 5)
            #expect(fetched.requests == 2)
            #expect(await sleeps.durations == [wait])
        }
    }

    @Test func aRetryAfterBeyondTheTimeBudgetIsNotWaitedFor() async throws {
        try await LocalServer.with({ _, _ in Reply.status(429, headers: ["Retry-After": "3600"]) }) { server in
            let sleeps = F.Sleeps()
            let error = try #require(await F.failure(try F.fetcher(F.toml(server), in: TestSupport.temporaryFolder(), sleeps: sleeps)))
            #expect(error.message.contains("answered HTTP 429 Too Many Requests; "))
            #expect(await sleeps.durations == [])
        }
    }

    @Test(arguments: [
        ("<!DOCTYPE html><html><body>Service paused</body></html>", "text/html", "is not valid JSON (it looks like an HTML or XML page); expected an array of row objects"),
        (#"[{"orderer": "Amy", "price": "35"}, {"orderer": "#, "application/json", "is not valid JSON (it is cut short or malformed); expected an array of row objects"),
        (#"{"error": "Sheet not found"}"#, "application/json", "expected a JSON array of row objects, found an object"),
        ("", "application/json", "is not valid JSON (the body is empty); expected an array of row objects"),
    ])
    func aBodyThatIsNotASheetIsAnErrorNeverAnEmptySheet(body: String, type: String, message: String) async throws {
        try await LocalServer.with({ _, _ in Reply.text(body, type: type) }) { server in
            let folder = TestSupport.temporaryFolder()
            let error = try #require(await F.failure(try F.fetcher(F.toml(server), in: folder)))
            #expect(error.description == "orders: \(server.host): \(message)")
            #expect(await server.requests.count == 1)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("output/state/cache/orders.body").path))
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        try await LocalServer.with({ _, _ in await Reply.hang() }) { server in
            // A roomy time budget, so that a slow first attempt on a busy machine still leaves room for the second.
            let fetcher = try F.fetcher(
                F.toml(server, orders: "timeout_seconds = 1"), in: TestSupport.temporaryFolder(), maxAttempts: 2, budgetInTimeouts: 10)
            let started = ContinuousClock.now
            let error = try #require(await F.failure(fetcher))
            // Not a speed test: a hang would never end; the bound only has to be finite and generous.
            #expect(ContinuousClock.now - started < .seconds(30))
            #expect(error.description == "orders: \(server.host) did not answer within 1 s; check the address, or raise orders.timeout_seconds")
        }
    }

    @Test func aPortNobodyListensOnIsUnreachable() async throws {
        let (url, host) = try await LocalServer.with({ _, _ in Reply.status(200) }) { ($0.url("/api/v1/abc?sheet=orders"), $0.host) }
        let toml = "[orders]\nurl = \"\(url)\"\n"
        let error = try #require(await F.failure(try F.fetcher(toml, in: TestSupport.temporaryFolder(), maxAttempts: 2)))
        #expect(error.description == "orders: cannot reach \(host) (connection refused); check the network and [orders] url")
    }

    @Test(arguments: [nil, "", "  \n"])
    func aTokenVariableThatIsUnsetOrEmptyIsAConfigurationError(value: String?) async throws {
        let environment = value.map { [F.tokenVariable: $0] } ?? [:]
        let toml = "[orders]\nurl = \"http://127.0.0.1:9/api\"\ntoken_env = \"\(F.tokenVariable)\"\n"
        #expect(throws: ConfigurationError(
            file: "orderpress.toml",
            message: "'orders.token_env' names ORDERPRESS_TEST_TOKEN, which is unset or empty; export the API token in ORDERPRESS_TEST_TOKEN")
        ) {
            try F.fetcher(toml, in: TestSupport.temporaryFolder(), environment: environment)
        }
    }

    @Test func aServerThatIgnoresOffsetIsCaught() async throws {
        try await LocalServer.with({ _, _ in Reply.page(of: Array(F.rows.prefix(2)), for: .init(path: "", query: [:])) }) { server in
            let error = try #require(await F.failure(try F.fetcher(F.toml(server, orders: "page_size = 2"), in: TestSupport.temporaryFolder())))
            #expect(error.description == "orders: \(server.host) sends rows already read whatever the offset; the server ignores offset, so the sheet cannot be read in pages")
            // Offsets 0 and 2 gave the same page; offset 1 should have been rows 3 and 4 (sheet rows), and was not.
            #expect(await server.requests.map { $0.query["offset"] } == ["0", "2", "1"])
        }
    }

    /// Sheets whose pages repeat for real are read whole: one question at offset 1 tells them from a
    /// server that ignores offset, or none when the rows are all alike.
    @Test(arguments: [
        (["a", "b", "a", "b", "c"], ["0", "2", "1", "4"]),
        (["a", "a", "a", "a", "a"], ["0", "2", "4"]),
        (["a", "b", "a", "b", "a", "b", "a"], ["0", "2", "1", "4", "6"]),
    ])
    func aSheetThatRepeatsItselfIsReadWhole(people: [String], offsets: [String]) async throws {
        let rows = people.map { ["orderer": $0, "drink": "紅茶", "price": "35"] }
        try await LocalServer.with({ request, _ in Reply.page(of: rows, for: request) }) { server in
            let fetched = try await F.fetcher(F.toml(server, orders: "page_size = 2"), in: TestSupport.temporaryFolder()).fetch()
            #expect(fetched.orders.rows.map { $0.cells[fetched.orders.headers.firstIndex(of: "orderer")!] } == people)
            #expect(await server.requests.map { $0.query["offset"] } == offsets)
        }
    }

    @Test func aServerThatIgnoresOffsetWithRowsAllAlikeStopsAtMaxRows() async throws {
        let rows = Array(repeating: ["orderer": "a"], count: 2)
        try await LocalServer.with({ _, _ in Reply.page(of: rows, for: .init(path: "", query: [:])) }) { server in
            let fetcher = try F.fetcher(F.toml(server, orders: "page_size = 2\nmax_rows = 7"), in: TestSupport.temporaryFolder())
            let error = try #require(await F.failure(fetcher))
            #expect(error.description == "orders: \(server.host) sent more than 7 rows; raise orders.max_rows if the sheet really is that long")
            #expect(await server.requests.count == 4)
        }
    }

    @Test(arguments: [(5, 2, nil), (4, 2, 3), (4, 1000, 1), (3, 1, 4)] as [(Int, Int, Int?)])
    func aSheetLongerThanMaxRowsIsAnError(maxRows: Int, pageSize: Int, requests: Int?) async throws {
        try await LocalServer.with({ request, _ in Reply.page(of: F.rows, for: request) }) { server in
            let fetcher = try F.fetcher(F.toml(server, orders: "page_size = \(pageSize)\nmax_rows = \(maxRows)"), in: TestSupport.temporaryFolder())
            if let requests {
                let error = try #require(await F.failure(fetcher))
                #expect(error.description == "orders: \(server.host) sent more than \(maxRows) rows; raise orders.max_rows if the sheet really is that long")
                #expect(await server.requests.count == requests)
            } else {
                #expect(try await fetcher.fetch().orders.rows.count == 5)
            }
        }
    }

    @Test(arguments: ["json", "csv"])
    func aLocalSheetLongerThanMaxRowsIsAnError(format: String) async throws {
        let folder = TestSupport.temporaryFolder()
        let body = format == "json"
            ? "[" + (1...5).map { "{\"orderer\": \"P\($0)\"}" }.joined(separator: ",") + "]"
            : "orderer\n" + (1...5).map { "P\($0)\n" }.joined()
        TestSupport.write(["data/orders.\(format)": body], in: folder)
        let toml = "[orders]\npath = \"data/orders.\(format)\"\nmax_rows = 4\n"
        let error = try #require(await F.failure(try F.fetcher(toml, in: folder)))
        #expect(error.description == "orders: has more than 4 rows; raise orders.max_rows if the sheet really is that long")
        #expect(try await F.fetcher(toml.replacingOccurrences(of: "= 4", with: "= 5"), in: folder).fetch().orders.rows.count == 5)
    }
}
