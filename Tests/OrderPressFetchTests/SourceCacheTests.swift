import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch
import OrderPressTestSupport

/// The cached copy of each URL source: rates outages, `refresh_minutes`, `--offline`, and what the copy may hold.
@Suite struct SourceCacheTests {
    typealias F = FetchFixture
    typealias Feed = SourceCacheFixture.Feed

    @Test func ratesDownWithACacheUseTheCachedRatesAndSaySo() async throws {
        let feed = Feed()
        try await LocalServer.with(SourceCacheFixture.serve(feed)) { server in
            let folder = TestSupport.temporaryFolder()
            let first = try await F.fetcher(SourceCacheFixture.toml(server), in: folder).fetch()
            #expect(first.rates?.fromCache == false)
            #expect(first.warnings == [])

            await feed.set(.status(500))
            let later = F.now.addingTimeInterval(3600)
            let second = try await F.fetcher(SourceCacheFixture.toml(server), in: folder, now: later, maxAttempts: 1).fetch()
            let rates = try #require(second.rates)
            #expect(rates.fromCache)
            #expect(rates.rates["TWD"] == Decimal(string: "32.125"))
            #expect(second.warnings == [DataWarning(
                row: nil,
                message: "rates: \(server.host) answered HTTP 500 Internal Server Error; the service is failing; try again later; using the rates fetched 2026-11-21 16:00 (Asia/Taipei)")])
            #expect(second.requests == 2)
        }
    }

    @Test func ratesDownWithoutACacheStopTheFetch() async throws {
        let feed = Feed()
        await feed.set(.status(503))
        try await LocalServer.with(SourceCacheFixture.serve(feed)) { server in
            let error = try #require(await F.failure(try F.fetcher(SourceCacheFixture.toml(server), in: TestSupport.temporaryFolder(), maxAttempts: 1)))
            #expect(error.description == "rates: \(server.host) answered HTTP 503 Service Unavailable; the service is failing; try again later; no earlier rates are cached, so nothing is published")
        }
    }

    @Test func ratesThatAreNotARatesDocumentAlsoFallBackOnTheCache() async throws {
        let feed = Feed()
        try await LocalServer.with(SourceCacheFixture.serve(feed)) { server in
            let folder = TestSupport.temporaryFolder()
            _ = try await F.fetcher(SourceCacheFixture.toml(server), in: folder).fetch()
            await feed.set(.html)
            let fetched = try await F.fetcher(SourceCacheFixture.toml(server), in: folder).fetch()
            #expect(fetched.rates?.fromCache == true)
            #expect(fetched.warnings.map(\.message) == [
                "rates: is not a rter rates document (expected a JSON object); using the rates fetched 2026-11-21 16:00 (Asia/Taipei)"
            ])
            // The bad body did not replace the good copy.
            let cached = folder.appendingPathComponent("output/state/cache/rates.body")
            #expect(try Data(contentsOf: cached) == Data(F.rter.utf8))
        }
    }

    @Test func aCopyFromAnotherAddressIsNotUsed() async throws {
        try await LocalServer.with(SourceCacheFixture.serve(Feed())) { server in
            let folder = TestSupport.temporaryFolder()
            _ = try await F.fetcher(SourceCacheFixture.toml(server), in: folder).fetch()
            let moved = SourceCacheFixture.toml(server).replacingOccurrences(of: "/capi.php", with: "/other.php")
            let error = try #require(await F.failure(try F.fetcher(moved, in: folder, offline: true)))
            #expect(error.message.hasPrefix("--offline, but "))
            #expect(error.source == "rates")
        }
    }

    @Test func refreshMinutesReusesAFreshCopyAndCountsNoRequest() async throws {
        try await LocalServer.with(SourceCacheFixture.serve(Feed())) { server in
            let folder = TestSupport.temporaryFolder()
            let runs: [(minutes: Double, requests: Int)] = [(0, 2), (30, 0), (59, 0), (61, 2), (62, 0), (-5, 2)]
            var total = 0
            for run in runs {
                let fetched = try await F.fetcher(SourceCacheFixture.toml(server, refresh: 60), in: folder, now: F.now.addingTimeInterval(run.minutes * 60)).fetch()
                #expect(fetched.requests == run.requests, "at \(run.minutes) minutes")
                #expect(fetched.orders.rows.count == 5)
                #expect(fetched.rates?.fromCache == false)
                total += run.requests
            }
            #expect(await server.requests.count == total)
        }
    }

    @Test func refreshMinutesZeroAsksEveryTime() async throws {
        try await LocalServer.with(SourceCacheFixture.serve(Feed())) { server in
            let folder = TestSupport.temporaryFolder()
            for _ in 0..<2 {
                let fetched = try await F.fetcher(SourceCacheFixture.toml(server), in: folder).fetch()
                #expect(fetched.requests == 2)
            }
            #expect(await server.requests.count == 4)
        }
    }

    @Test func offlineUsesOnlyTheCacheAndNeedsNoToken() async throws {
        try await LocalServer.with(SourceCacheFixture.serve(Feed())) { server in
            let folder = TestSupport.temporaryFolder()
            let online = try await F.fetcher(SourceCacheFixture.toml(server), in: folder).fetch()
            let offline = try await F.fetcher(SourceCacheFixture.toml(server), in: folder, environment: [:], offline: true).fetch()
            #expect(offline.requests == 0)
            #expect(await server.requests.count == 2)
            #expect(offline.rates == online.rates)
            #expect(offline.orders.headers == online.orders.headers)
            #expect(offline.orders.rows.map(\.number) == online.orders.rows.map(\.number))
        }
    }

    @Test func offlineWithoutACacheNamesTheSourceAndWhatToDo() async throws {
        try await LocalServer.with(SourceCacheFixture.serve(Feed())) { server in
            let folder = TestSupport.temporaryFolder()
            let error = try #require(await F.failure(try F.fetcher(SourceCacheFixture.toml(server), in: folder, offline: true)))
            #expect(error.description == "orders: --offline, but the state folder holds no copy of \(server.host); run once without --offline")
            #expect(await server.requests.count == 0)
        }
    }

    @Test func aDamagedCopyIsNamedOfflineAndReplacedOnline() async throws {
        try await LocalServer.with(SourceCacheFixture.serve(Feed())) { server in
            let folder = TestSupport.temporaryFolder()
            _ = try await F.fetcher(SourceCacheFixture.toml(server, refresh: 60), in: folder).fetch()
            let body = folder.appendingPathComponent("output/state/cache/orders.body").standardizedFileURL
            try Data(#"[{"orderer": "#.utf8).write(to: body)

            let error = try #require(await F.failure(try F.fetcher(SourceCacheFixture.toml(server, refresh: 60), in: folder, offline: true)))
            #expect(error.description == "orders: the cached copy of orders in the state folder is not valid JSON (it is cut short or malformed); expected an array of row objects; run once without --offline to replace it")

            // Still fresh by the clock, but unreadable: the orders are asked for again, the rates are not.
            let fetched = try await F.fetcher(SourceCacheFixture.toml(server, refresh: 60), in: folder).fetch()
            #expect(fetched.requests == 1)
            #expect(fetched.orders.rows.count == 5)
            #expect(try SheetParser.parseJSON(Data(contentsOf: body), source: "orders").rows.count == 5)
        }
    }

    @Test func aDryRunKeepsNoCopy() async throws {
        try await LocalServer.with(SourceCacheFixture.serve(Feed())) { server in
            let folder = TestSupport.temporaryFolder()
            let configuration = try TestSupport.configuration(SourceCacheFixture.toml(server), in: folder)
            let fetcher = try Fetcher(
                configuration: configuration, clock: Clock(now: F.now), environment: [F.tokenVariable: F.token],
                options: .init(saveCache: false))
            #expect(try await fetcher.fetch().requests == 2)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("output/state").path))
        }
    }
}
