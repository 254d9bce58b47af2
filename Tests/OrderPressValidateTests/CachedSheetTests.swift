import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch
@testable import OrderPressValidate
import OrderPressTestSupport

/// What validation reads from a URL source's cached copy is what it read from the server.
@Suite struct CachedSheetTests {
    typealias F = FetchFixture

    @Test func theCachedSheetKeepsNoSecretOrUnmappedValueAndReadsBackTheSame() async throws {
        try await LocalServer.with(SourceCacheFixture.serve(SourceCacheFixture.Feed())) { server in
            let folder = TestSupport.temporaryFolder()
            let online = try await F.fetcher(SourceCacheFixture.toml(server), in: folder).fetch()
            let cache = folder.appendingPathComponent("output/state/cache")
            #expect(TestSupport.files(in: cache) == ["orders.body", "orders.meta.json", "rates.body", "rates.meta.json"])
            let body = try String(contentsOf: cache.appendingPathComponent("orders.body"), encoding: .utf8)
            for row in F.rows {
                #expect(!body.contains(row["editCode"]!))
                #expect(!body.contains(row["phone"]!))
                #expect(body.contains(row["orderer"]!))
            }
            #expect(try Data(contentsOf: cache.appendingPathComponent("rates.body")) == Data(F.rter.utf8))
            // The meta also holds the digest of the pages the copy was made from, and of the copy it was
            // written for (`SourceFingerprint`): a build from the copy sees the input the fetch saw.
            let meta = try String(contentsOf: cache.appendingPathComponent("orders.meta.json"), encoding: .utf8)
            #expect(meta.hasPrefix("{\"fetched_at\": \"2026-11-21T08:00:00Z\", \"location\": \"\(server.url("/api/v1/abc?sheet=orders"))\", \"pages\": \"1:"))
            #expect(meta.contains("\", \"body_sha256\": \"") && meta.hasSuffix("\"}\n"))
            let entry = SourceCache(state: folder.appendingPathComponent("output/state")).read("orders", location: server.url("/api/v1/abc?sheet=orders"))
            #expect(entry?.pages?.count == 1)

            // What validation sees from the copy is what it saw from the server: secrets masked, unmapped columns empty.
            let copy = try SheetParser.parseJSON(Data(body.utf8), source: "orders")
            #expect(copy.headers == online.orders.headers)
            let configuration = try TestSupport.configuration(SourceCacheFixture.toml(server), in: folder)
            let validator = Validator(configuration: configuration)
            #expect(try validator.validate(orders: copy, groups: nil) == validator.validate(orders: online.orders, groups: nil))
            for file in TestSupport.files(in: cache) {
                #expect(!(try String(contentsOf: cache.appendingPathComponent(file), encoding: .utf8)).contains(F.token))
            }
        }
    }
}
