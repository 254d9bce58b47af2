import Foundation
import OrderPressFetch
import OrderPressSupport

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

    /// The request body. `text` is escaped so that data cannot notify a channel or make a link: Slack's
    /// markup (`&`, `<`, `>`: no `<!channel>`, no `<url|text>`), Markdown's link brackets (`[x](…)` stays
    /// text in Mattermost and Discord), and an `@` before a word (`@channel`, `@all`, `@here`, `@everyone`
    /// mention no one), and control characters as on a terminal. `changes` keeps the values as written.
    static func payload(site: String, items: [NewsItem]) -> Data {
        struct Payload: Encodable {
            var site: String
            var text: String
            var changes: [NewsItem]
        }
        let text = items.map { escaped($0.shown) }.joined(separator: "\n")
        return JSONOutput.encode(Payload(site: site, text: text, changes: items))
    }

    static func escaped(_ line: String) -> String {
        var result = ""
        result.reserveCapacity(line.utf8.count)
        for character in TerminalEscaper.escape(line) {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "[": result += "\\["
            case "]": result += "\\]"
            // A zero-width space after the `@`: shown the same, but no mention.
            case "@": result += "@\u{200B}"
            default: result.append(character)
            }
        }
        return result
    }

    /// At most this many items, and about this many bytes, in one POST: a large outbox goes out in batches, in order.
    static let batchItems = 500
    static let batchBytes = 1 << 20

    /// `items` split into the bodies of the POSTs that carry them, in order, each with how many items it
    /// holds: each item is measured once (its text and its `changes` entry), so the split is linear. An
    /// item larger than the byte bound alone goes alone.
    static func batches(site: String, items: ArraySlice<NewsItem>) -> [(count: Int, body: Data)] {
        var result: [(Int, Data)] = []
        var start = items.startIndex
        while start < items.endIndex {
            var end = start
            // The site's name and the JSON around the lists, then each item's two parts.
            var size = site.utf8.count * 2 + 64
            while end < items.endIndex, end - start < batchItems {
                let item = items[end]
                let cost = JSONOutput.encode(item).count + escaped(item.shown).utf8.count * 2 + 16
                if end > start, size + cost > batchBytes { break }
                size += cost
                end += 1
            }
            result.append((end - start, payload(site: site, items: Array(items[start..<end]))))
            start = end
        }
        return result
    }

    /// Posts `items`; nil when the webhook took them (2xx), else why not, in a few words without the URL.
    public func deliver(site: String, items: [NewsItem]) async -> String? {
        await post(Self.payload(site: site, items: items))
    }

    /// Posts one body; nil when the webhook took it (2xx), else why not, in a few words without the URL.
    func post(_ body: Data) async -> String? {
        do {
            let reply = try await transport.post(url, headers: ["Content-Type": "application/json"], body: body, timeout: timeout)
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
