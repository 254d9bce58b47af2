import Foundation

/// News the webhook has not taken yet, kept in the state folder (`webhook-outbox.json`) and sent with
/// the next run's: each item at least once, and, once the webhook answered 2xx, never again. Holds
/// only what the news lines show (no secret, and never the webhook's URL).
public struct NewsOutbox: Sendable {
    public var state: URL
    static let fileName = "webhook-outbox.json"

    public init(state: URL) { self.state = state }

    var url: URL { state.appendingPathComponent(Self.fileName) }

    /// What is waiting; an unreadable file counts as nothing waiting (at worst an item is not re-sent).
    public func load() -> [NewsItem] {
        guard let data = try? AtomicFile.contents(of: url, below: state) else { return [] }
        return (try? JSONDecoder().decode([NewsItem].self, from: data)) ?? []
    }

    /// Keeps `items` for the next run, or removes the file when there are none.
    public func save(_ items: [NewsItem]) throws(OutputError) {
        if items.isEmpty {
            try AtomicFile.remove(url, below: state)
        } else {
            try AtomicFile.createFolder(state)
            try AtomicFile.write(JSONOutput.encode(items), to: url, below: state, durable: true)
        }
    }
}
