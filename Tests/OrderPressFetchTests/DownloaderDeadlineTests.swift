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

    /// A POST (the service account's token request) that is retried until the deadline cuts its next
    /// wait says it ran out of the source's time, as a GET does.
    struct BusyTokenEndpoint: HTTPTransport {
        func get(_ url: URL, headers: [String: String], timeout: Duration) async throws(HTTPFailure) -> HTTPReply {
            throw .unreachable(reason: "no gets here")
        }

        func post(_ url: URL, headers: [String: String], body: Data, timeout: Duration) async throws(HTTPFailure) -> HTTPReply {
            // Busy while a request may wait its whole timeout; once the deadline cuts the wait, the timer
            // fires early, as the transport's may.
            guard timeout == .seconds(1) else { throw .timedOut }
            return HTTPReply(status: 503, body: Data())
        }
    }

    @Test func aPostCutByTheDeadlineIsNamedByTheDeadline() async throws {
        // Retried every millisecond or so until the 2 s deadline leaves less than the 1 s timeout.
        var policy = RetryPolicy(maxAttempts: 1_000_000, baseDelay: .milliseconds(2), maxDelay: .milliseconds(2), random: { 0 })
        policy.timeoutsPerSource = 2
        let toml = "base_currency = \"TWD\"\n[orders]\nurl = \"http://127.0.0.1:9/start\"\ntimeout_seconds = 1\n"
        let configuration = try TestSupport.configuration(toml, in: TestSupport.temporaryFolder())
        let downloader = Downloader(transport: BusyTokenEndpoint(), policy: policy)
        let url = try #require(URL(string: "http://127.0.0.1:9/token"))
        // How many requests fit before the cut depends on the machine's load; what the cut is reported as does not.
        var requests = 0
        let attempt = await downloader.post(
            url, form: Data(), timeout: .seconds(1), deadline: downloader.deadline(for: configuration.orders, url: url), requests: &requests)
        guard case .outOfTime = attempt else {
            Issue.record("the cut request was reported as its own answer: \(attempt)")
            return
        }
    }
}
