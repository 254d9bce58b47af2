import Foundation

/// One HTTP GET, without retries: the seam between the fetch logic and the network,
/// so that tests can count and shape requests.
package protocol HTTPTransport: Sendable {
    /// Sends `GET url` with `headers`; gives up when no answer comes within `timeout`.
    func get(_ url: URL, headers: [String: String], timeout: Duration) async throws(HTTPFailure) -> HTTPReply
    /// Sends `POST url` with `body` (a webhook's news, a service account's token request).
    func post(_ url: URL, headers: [String: String], body: Data, timeout: Duration) async throws(HTTPFailure) -> HTTPReply
}
