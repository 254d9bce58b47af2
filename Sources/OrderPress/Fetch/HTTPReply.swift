import Foundation

/// What a server answered: any status, with the headers retries need and the whole body.
struct HTTPReply: Sendable, Equatable {
    var status: Int
    /// `Retry-After` in seconds, when the server sent one in that form.
    var retryAfter: Duration?
    var body: Data

    var succeeded: Bool { (200..<300).contains(status) }

    /// Worth asking again: rate limiting, a request timeout, or a failing server.
    var isTransient: Bool { status == 429 || status == 408 || (500..<600).contains(status) }

    /// Reads a `Retry-After` header: delay-seconds only (an HTTP date falls back to the backoff).
    static func retryAfter(_ header: String?) -> Duration? {
        guard let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
        return .seconds(seconds)
    }
}
