import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressPipeline
import OrderPressTestSupport

/// A build makes its URL session only when a source needs one (runs a server: a loopback suite).
@Suite struct TransportSessionTests {
    typealias F = FetchFixture

    /// The URLSession is made by the first request, not with the transport: a build that reads only
    /// local files makes none (making one lists the executable's folder), and a request still works.
    @Test func theSessionIsMadeByTheFirstRequest() async throws {
        let site = try TestSupport.sampleSite()
        let pipeline = Pipeline(
            configuration: try ConfigurationLoader.load(from: site.appendingPathComponent("orderpress.toml")), clock: Clock(now: F.now))
        let report = try await pipeline.build()
        #expect(report.orders > 0)
        #expect((pipeline.transport as? URLSessionTransport)?.hasSession == false)

        let transport = URLSessionTransport()
        try await LocalServer.with({ request, _ in Reply.page(of: F.rows, for: request) }) { server in
            let fetcher = try Fetcher(
                configuration: TestSupport.configuration(F.toml(server), in: TestSupport.temporaryFolder()), clock: Clock(now: F.now),
                environment: [F.tokenVariable: F.token], options: .init(), transport: transport, retryPolicy: RetryPolicy())
            #expect(!transport.hasSession)
            #expect(try await fetcher.fetch().orders.rows.count == F.rows.count)
            #expect(transport.hasSession)
        }
    }
}
