import Foundation

/// Posts a run's news to an incoming webhook (Slack, Discord-compatible, Mattermost) as
/// `{"site": …, "text": "…one line per item…", "changes": [items]}`.
///
/// The URL is a secret (a Slack webhook URL is its own credential): no message here names it. Sent
/// through `URLSessionTransport`, so the whole exchange is bounded by `timeout` and a redirect is never
/// followed (it is a failure: the news must not go to another origin, nor be re-posted as a GET).
public struct Webhook: Sendable {
    var url: URL
    var timeout: Duration
    var transport: URLSessionTransport

    /// Nil when `text` is not an http or https address with a host.
    public init?(_ text: String, timeout: Duration) {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else { return nil }
        self.url = url
        self.timeout = timeout
        transport = URLSessionTransport(maxBodyBytes: 64 << 10)
    }

    /// The request body. `text` is escaped for Slack's markup (`&`, `<`, `>`: a cell cannot ping the
    /// channel with `<!channel>` or make a link), and control characters as on a terminal.
    static func payload(site: String, items: [NewsItem]) -> Data {
        struct Payload: Encodable {
            var site: String
            var text: String
            var changes: [NewsItem]
        }
        let text = items.map { item in
            TerminalEscaper.escape(item.line).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }.joined(separator: "\n")
        return JSONOutput.encode(Payload(site: site, text: text, changes: items))
    }

    /// Posts `items`; nil when the webhook took them (2xx), else why not, in a few words without the URL.
    public func deliver(site: String, items: [NewsItem]) async -> String? {
        do {
            let reply = try await transport.post(
                url, headers: ["Content-Type": "application/json"], body: Self.payload(site: site, items: items), timeout: timeout)
            if reply.succeeded { return nil }
            if (300..<400).contains(reply.status) { return "it answered a redirect (HTTP \(reply.status)), which is not followed; set the address it redirects to" }
            return "it answered HTTP \(reply.status)"
        } catch {
            switch error {
            case .timedOut: return "it did not answer within \(timeout.components.seconds) s"
            case .unreachable(let reason): return "it could not be reached (\(reason))"
            case .tooLarge: return "its answer was too large"
            case .badRedirect: return "it answered a redirect, which is not followed"
            }
        }
    }
}
