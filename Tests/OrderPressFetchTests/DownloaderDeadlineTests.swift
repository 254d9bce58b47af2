import Foundation
import Testing

@testable import OrderPressFetch
@testable import OrderPressSupport
import OrderPressTestSupport

/// A redirect hop that the source's deadline shortened and that then timed out is reported as the
/// deadline, not as the hop's timeout: the transport's timer may fire a moment before the deadline
/// holds as passed, and the message must say what the user can change.
@Suite struct DownloaderDeadlineTests {
    /// `/start` redirects to `/next` after `pause`; `/next` times out at once, as a timer that fires
    /// early would.
    struct Transport: HTTPTransport {
        let pause: Duration

        func get(_ url: URL, headers: [String: String], timeout: Duration) async throws(HTTPFailure) -> HTTPReply {
            guard url.path == "/start" else { throw .timedOut }
            try? await Task.sleep(for: pause)
            return HTTPReply(status: 302, location: "/next", body: Data())
        }

        func post(_ url: URL, headers: [String: String], body: Data, timeout: Duration) async throws(HTTPFailure) -> HTTPReply {
            throw .unreachable(reason: "no posts here")
        }
    }

    @Test(arguments: [
        // The first hop leaves 0.8 s of the 2 s deadline: the next hop's wait is cut, so its timeout is the deadline's.
        (Duration.milliseconds(1200), "reading 127.0.0.1:9 took longer than 2 s (2 × orders.timeout_seconds); the server is too slow, or raise orders.timeout_seconds"),
        // The next hop had its whole second: a timeout of its own.
        (Duration.zero, "127.0.0.1:9 did not answer within 1 s; check the address, or raise orders.timeout_seconds"),
    ])
    func aTimedOutRedirectHopIsNamedByWhatCutIt(pause: Duration, message: String) async throws {
        var policy = RetryPolicy(maxAttempts: 1)
        policy.timeoutsPerSource = 2
        let toml = "base_currency = \"TWD\"\n[orders]\nurl = \"http://127.0.0.1:9/start\"\ntimeout_seconds = 1\n"
        let fetcher = try Fetcher(
            configuration: TestSupport.configuration(toml, in: TestSupport.temporaryFolder()), clock: Clock(now: FetchFixture.now),
            environment: [:], options: .init(offline: false), transport: Transport(pause: pause), retryPolicy: policy)
        let error = await FetchFixture.failure(fetcher, within: .seconds(30))
        #expect(error?.message == message)
    }
}
