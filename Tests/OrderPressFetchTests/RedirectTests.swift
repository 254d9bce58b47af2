import Foundation
import Testing

@testable import OrderPressFetch
import OrderPressTestSupport

/// Redirects between two real servers on 127.0.0.1: the token goes only to the configured URL's origin.
/// One test at a time: each starts two servers.
@Suite(.serialized) struct RedirectTests {
    typealias F = FetchFixture

    /// Where the first server sends `/api/v1/abc`, set once both servers have their ports.
    actor Target {
        var servers: (LocalServer, LocalServer)?
        func set(_ servers: (LocalServer, LocalServer)) { self.servers = servers }
        func url(_ make: @Sendable (LocalServer, LocalServer) -> String) -> String { servers.map { make($0.0, $0.1) } ?? "" }
    }

    /// Server A redirects `/api/v1/abc` (the configured URL) to `location(A, B)` with `status`; both serve
    /// the sheet's pages at `/data`. Returns what each server saw.
    static func fetchThroughRedirect(
        status: Int = 302, _ location: @escaping @Sendable (LocalServer, LocalServer) -> String
    ) async throws -> (fetched: FetchedData, a: [LocalServer.Request], b: [LocalServer.Request]) {
        let target = Target()
        let respond: LocalServer.Responder = { request, _ in
            guard request.path == "/api/v1/abc" else { return Reply.page(of: F.rows, for: request) }
            let query = "limit=\(request.query["limit"] ?? "")&offset=\(request.query["offset"] ?? "")"
            return Reply.status(status, headers: ["Location": await target.url(location) + "?" + query])
        }
        return try await LocalServer.with(respond) { a in
            try await LocalServer.with(respond) { b in
                await target.set((a, b))
                let fetched = try await F.fetcher(F.toml(a, orders: "page_size = 2"), in: TestSupport.temporaryFolder()).fetch()
                return (fetched, await a.requests, await b.requests)
            }
        }
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectToAnotherPortIsFollowedWithoutTheToken(status: Int) async throws {
        let (fetched, a, b) = try await Self.fetchThroughRedirect(status: status) { _, b in b.url("/data") }
        #expect(fetched.orders.rows.count == 5)
        // Three pages, two requests each.
        #expect(fetched.requests == 6)
        #expect(a.map(\.path) == ["/api/v1/abc", "/api/v1/abc", "/api/v1/abc"])
        #expect(a.map(\.authorization) == Array(repeating: "Bearer \(F.token)", count: 3))
        #expect(b.map(\.path) == ["/data", "/data", "/data"])
        #expect(b.map(\.query) == [["limit": "2", "offset": "0"], ["limit": "2", "offset": "2"], ["limit": "2", "offset": "4"]])
        #expect(b.map(\.authorization) == [nil, nil, nil])
    }

    @Test func aRedirectToLocalhostIsAnotherHostEvenOnTheSamePort() async throws {
        let (fetched, a, b) = try await Self.fetchThroughRedirect { a, _ in "http://localhost:\(a.port)/data" }
        #expect(fetched.orders.rows.count == 5)
        #expect(b == [])
        #expect(a.map(\.path) == ["/api/v1/abc", "/data", "/api/v1/abc", "/data", "/api/v1/abc", "/data"])
        #expect(a.map(\.authorization) == [
            "Bearer \(F.token)", nil, "Bearer \(F.token)", nil, "Bearer \(F.token)", nil,
        ])
    }

    @Test(arguments: ["relative", "absolute", "upper-case scheme"])
    func aRedirectOnTheSameOriginKeepsTheToken(form: String) async throws {
        let (fetched, a, b) = try await Self.fetchThroughRedirect { a, _ in
            switch form {
            case "relative": return "/data"
            case "absolute": return a.url("/data")
            default: return "HTTP://127.0.0.1:\(a.port)/data"
            }
        }
        #expect(fetched.orders.rows.count == 5)
        #expect(b == [])
        #expect(a.map(\.path) == ["/api/v1/abc", "/data", "/api/v1/abc", "/data", "/api/v1/abc", "/data"])
        #expect(a.map(\.authorization) == Array(repeating: "Bearer \(F.token)", count: 6))
    }

    @Test func aRedirectLoopEndsInOneLine() async throws {
        try await LocalServer.with({ _, _ in Reply.status(302, headers: ["Location": "/api/v1/abc?sheet=orders"]) }) { server in
            let sleeps = F.Sleeps()
            let error = try #require(await F.failure(try F.fetcher(F.toml(server), in: TestSupport.temporaryFolder(), sleeps: sleeps)))
            #expect(error.description == "orders: \(server.host) redirected more than 10 times; check [orders] url")
            // The first request and ten hops, not retried.
            #expect(await server.requests.count == 11)
            #expect(await sleeps.durations == [])
        }
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "http://"])
    func aRedirectToSomethingNotOnTheWebIsNotFollowed(location: String) async throws {
        try await LocalServer.with({ _, _ in Reply.status(302, headers: ["Location": location]) }) { server in
            let error = try #require(await F.failure(try F.fetcher(F.toml(server), in: TestSupport.temporaryFolder())))
            #expect(error.description == "orders: \(server.host) redirected to an address that is not http or https; check [orders] url")
            #expect(await server.requests.count == 1)
        }
    }

    @Test(arguments: [
        ("http://example.com/a", "http://EXAMPLE.com:80/b?c", true),
        ("https://example.com/a", "https://example.com:443/", true),
        ("http://example.com/", "https://example.com/", false),
        ("http://example.com/", "http://example.com:8080/", false),
        ("https://example.com/", "http://example.com:443/", false),
        ("http://127.0.0.1:8080/", "http://localhost:8080/", false),
        ("http://example.com/", "http://example.com.evil.org/", false),
        ("http://user:pw@example.com/", "http://example.com/", true),
    ])
    func originsCompareSchemeHostAndPort(first: String, second: String, same: Bool) throws {
        let origin = { (text: String) throws in Downloader.Origin(try #require(URL(string: text))) }
        #expect((try origin(first) == origin(second)) == same)
    }
}
