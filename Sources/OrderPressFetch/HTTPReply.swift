import Foundation

/// What a server answered: any status, with the headers retries and redirects need and the whole body.
package struct HTTPReply: Sendable, Equatable {
    package var status: Int
    /// `Retry-After` in seconds, when the server sent one in that form.
    package var retryAfter: Duration?
    /// The `Location` header, for a redirect.
    package var location: String?
    package var body: Data

    package init(status: Int, retryAfter: Duration? = nil, location: String? = nil, body: Data) {
        self.status = status
        self.retryAfter = retryAfter
        self.location = location
        self.body = body
    }

    package var succeeded: Bool { (200..<300).contains(status) }

    /// Worth asking again: rate limiting, a request timeout, or a failing server.
    var isTransient: Bool { status == 429 || status == 408 || (500..<600).contains(status) }

    /// A redirect that says where to: the statuses that browsers follow.
    var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) && location != nil }

    /// Reads a `Retry-After` header: delay-seconds only. An HTTP-date is not supported and falls back
    /// to the backoff (SheetDB and the rates feeds send seconds, and a date needs a trusted clock).
    package static func retryAfter(_ header: String?) -> Duration? {
        guard let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
        return .seconds(seconds)
    }
}
