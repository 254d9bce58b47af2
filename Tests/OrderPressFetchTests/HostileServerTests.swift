import FlyingFox
import FlyingSocks
import Foundation
import Testing

@testable import OrderPressFetch
import OrderPressTestSupport

/// Servers that misbehave on purpose. Whatever they do, the fetch ends soon, in one line (exit 69),
/// holding at most the body limit in memory.
@Suite struct HostileServerTests {
    typealias F = FetchFixture

    /// Long enough for any of these fetches on a busy machine, far shorter than a hang.
    static let bound = Duration.seconds(30)

    static func gzipped(_ body: Data) -> HTTPResponse {
        HTTPResponse(
            statusCode: .ok, headers: [.contentType: "application/json", HTTPHeader("Content-Encoding"): "gzip"], body: body)
    }

    static let firstPage = "/api/v1/abc?sheet=orders&limit=1000&offset=0"

    enum Sender: String, CaseIterable {
        case plain, gzip, endlessChunks, hugeContentLength
    }

    @Test(arguments: Sender.allCases)
    func aBodyPastTheLimitIsRefusedAsItArrives(sender: Sender) async throws {
        let limit = 4096
        let check = { (url: String, fetcher: Fetcher) async in
            let error = await F.failure(fetcher, within: Self.bound)
            #expect(error?.description == "orders: \(url) sent more than 4096 bytes (decompressed); check [orders] url")
        }
        switch sender {
        case .plain, .gzip:
            // 100 kB of JSON once inflated; gzipped, a few hundred bytes that no length header gives away.
            let text = "[" + String(repeating: " ", count: 100_000) + "]"
            let body = sender == .plain ? nil : try await F.gzip("printf '['; head -c 100000 /dev/zero | tr '\\0' ' '; printf ']'")
            try await LocalServer.with({ _, _ in body.map(Self.gzipped) ?? Reply.text(text) }) { server in
                await check(server.host, try F.fetcher(F.toml(server), in: TestSupport.temporaryFolder(), maxBodyBytes: limit))
                #expect(await server.requests.count == 1)
            }
        case .endlessChunks, .hugeContentLength:
            let script = sender == .endlessChunks
                ? RawReply.drip(String(repeating: " ", count: 1000), every: .milliseconds(1)) : RawReply.length(10_000_000_000, body: "[")
            try await RawServer.with(script) { server in
                let toml = "[orders]\nurl = \"\(server.url("/api/v1/abc?sheet=orders"))\"\n"
                await check(server.host, try F.fetcher(toml, in: TestSupport.temporaryFolder(), maxBodyBytes: limit))
            }
        }
    }

    @Test(arguments: [4096, 4097])
    func aBodyOfExactlyTheLimitIsRead(size: Int) async throws {
        let text = "[" + String(repeating: " ", count: size - 2) + "]"
        try await LocalServer.with({ _, _ in Reply.text(text) }) { server in
            let fetcher = try F.fetcher(F.toml(server), in: TestSupport.temporaryFolder(), maxBodyBytes: 4096)
            if size == 4096 {
                #expect(try await fetcher.fetch().orders.rows == [])
            } else {
                #expect(await F.failure(fetcher)?.message.hasSuffix("sent more than 4096 bytes (decompressed); check [orders] url") == true)
            }
        }
    }

    /// URLSession's own timeout restarts with every packet, so a byte every 100 ms would keep it waiting
    /// for ever; the transport's deadline ends the exchange however the server behaves.
    @Test(arguments: ["drip", "silence", "endless headers"])
    func aServerThatNeverFinishesTimesOut(behaviour: String) async throws {
        let script: RawServer.Script = switch behaviour {
        case "drip": RawReply.drip(every: .milliseconds(100))
        case "silence": RawReply.silence
        default: RawReply.endlessHeaders
        }
        try await RawServer.with(script) { server in
            let toml = "[orders]\nurl = \"\(server.url("/api/v1/abc?sheet=orders"))\"\ntimeout_seconds = 1\n"
            let fetcher = try F.fetcher(toml, in: TestSupport.temporaryFolder(), maxAttempts: 2, budgetInTimeouts: 10)
            let error = await F.failure(fetcher, within: Self.bound)
            let timedOut = "orders: \(server.host) did not answer within 1 s; check the address, or raise orders.timeout_seconds"
            // curl may give up on endless headers by itself (past its header limit) before the timeout.
            let tooManyHeaders = "orders: cannot reach \(server.host) (malformed HTTP response); check the network and [orders] url"
            #expect(error?.description == timedOut || (behaviour == "endless headers" && error?.description == tooManyHeaders))
        }
    }

    @Test func aBodyShorterThanItsContentLengthIsAnError() async throws {
        try await RawServer.with(RawReply.length(1000, body: "[{\"orderer\": \"Amy\"}]")) { server in
            let toml = "[orders]\nurl = \"\(server.url("/api/v1/abc?sheet=orders"))\"\n"
            let error = await F.failure(try F.fetcher(toml, in: TestSupport.temporaryFolder(), maxAttempts: 2), within: Self.bound)
            #expect(error?.description == "orders: cannot reach \(server.host) (malformed HTTP response); check the network and [orders] url")
        }
    }

    /// Each page comes well within the timeout, but slowly; the whole source stops at its deadline,
    /// here 1 × timeout_seconds (the real multiple, 20, is the same code with a longer wait).
    @Test func aSlowServerIsStoppedByTheDeadlineOfTheWholeSource() async throws {
        let rows = (1...100).map { ["orderer": "P\($0)"] }
        try await LocalServer.with({ request, _ in
            try? await Task.sleep(for: .milliseconds(200))
            return Reply.page(of: rows, for: request)
        }) { server in
            let fetcher = try F.fetcher(
                F.toml(server, orders: "timeout_seconds = 4\npage_size = 1"), in: TestSupport.temporaryFolder(), timeoutsPerSource: 1)
            let error = await F.failure(fetcher, within: Self.bound)
            #expect(error?.description == "orders: reading \(server.host) took longer than 4 s (1 × orders.timeout_seconds); the server is too slow, or raise orders.timeout_seconds")
            // At most twenty pages fit in four seconds; far fewer than the hundred the sheet has.
            #expect(await server.requests.count <= 20)
        }
    }

    @Test(arguments: [
        ("deeply nested", Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8),
         "is not valid JSON (it is cut short or malformed); expected an array of row objects"),
        ("not UTF-8", Data([0x5B, 0x7B, 0x22, 0x6F, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D, 0x5D]),
         "row 2 is not valid UTF-8; the sheet must be sent as UTF-8"),
    ])
    func aBodyJSONCannotReadIsAnErrorNotACrash(kind: String, body: Data, message: String) async throws {
        try await LocalServer.with({ _, _ in HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body) }) { server in
            let error = await F.failure(try F.fetcher(F.toml(server), in: TestSupport.temporaryFolder()), within: Self.bound)
            #expect(error?.description == "orders: \(server.host): \(message)")
        }
    }

    /// A byte that is not UTF-8 on a later page is named at its sheet row, not its place in the page.
    @Test func invalidUTF8OnALaterPageIsNamedAtItsSheetRow() async throws {
        let pages = [Data(#"[{"o": "a"}, {"o": "b"}]"#.utf8), Data(#"[{"o": "c"}, {"o": "d"#.utf8) + Data([0xFF]) + Data(#""}]"#.utf8)]
        try await LocalServer.with({ request, _ in
            let offset = Int(request.query["offset"] ?? "0") ?? 0
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: pages[min(offset / 2, 1)])
        }) { server in
            let fetcher = try F.fetcher(F.toml(server, orders: "page_size = 2"), in: TestSupport.temporaryFolder())
            let error = await F.failure(fetcher, within: Self.bound)
            #expect(error?.description.hasSuffix(": row 5 is not valid UTF-8; the sheet must be sent as UTF-8") == true)
        }
    }
}
