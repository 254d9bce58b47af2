import Foundation
import OrderPressConfig

/// How long the whole fetch of one source may take: a fixed multiple of its `timeout_seconds`,
/// counted from its first request. Each request is bounded by the timeout and each URL's retries by
/// `RetryPolicy.budgetInTimeouts`, but a server answering every page slowly (each within the timeout),
/// or redirecting again and again, could still hold the lock for hours without this.
package struct FetchDeadline: Sendable {
    /// The documented bound (docs/sources.md, "Live sources"): 20 × `timeout_seconds`, 10 minutes by default.
    static let timeoutsPerSource = 20

    let end: ContinuousClock.Instant
    package let seconds: Int
    package let timeouts: Int
    package let source: String
    let address: String

    package init(_ source: Configuration.SourceSettings, url: URL, timeouts: Int) {
        seconds = source.timeoutSeconds * timeouts
        self.timeouts = timeouts
        end = .now + .seconds(seconds)
        self.source = source.name
        address = SourceDescription(url).description
    }

    var remaining: Duration { end - .now }
    var passed: Bool { remaining <= .zero }

    var error: SourceError {
        SourceError(
            source: source,
            message: "reading \(address) took longer than \(seconds) s (\(timeouts) × \(source).timeout_seconds); the server is too slow, or raise \(source).timeout_seconds")
    }
}
