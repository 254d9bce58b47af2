import Foundation
import OrderPressSupport

/// News the webhook has not taken yet, kept in the state folder (`webhook-outbox.json`): a run's news is
/// added, flushed to disk, before anything is posted, and an item leaves only once the webhook answered
/// 2xx for it. So each item is delivered at least once, a run killed while posting included, and once
/// delivered never again. Holds only what the news lines show (no secret, never the webhook's URL).
///
/// Every read-modify-write of the file holds a lock (`OutboxLock`), so two overlapping runs cannot lose
/// each other's items: each run adds its own, and removes only the ones it sent.
public struct NewsOutbox: Sendable {
    public var state: URL
    static let fileName = "webhook-outbox.json"
    private static let threads = NSLock()

    public init(state: URL) { self.state = state }

    var url: URL { state.appendingPathComponent(Self.fileName) }

    /// The file: the items waiting, each numbered in the order it was added, the next number, and
    /// whether the webhook's last answer was a failure (so that it is said once, and its recovery once).
    struct Contents: Codable, Equatable {
        var next = 0
        package var failing: String?
        var entries: [Entry] = []
    }

    struct Entry: Codable, Equatable {
        var number: Int
        var item: NewsItem
    }

    /// What is waiting; an unreadable file counts as nothing waiting (at worst an item is not re-sent).
    /// A file of an older version (a plain list of items) is read as it was.
    func contents() -> Contents {
        guard let data = try? AtomicFile.contents(of: url, below: state) else { return Contents() }
        if let contents = try? JSONDecoder().decode(Contents.self, from: data) { return contents }
        let items = (try? JSONDecoder().decode([NewsItem].self, from: data)) ?? []
        return Contents(next: items.count, entries: items.enumerated().map { Entry(number: $0.offset, item: $0.element) })
    }

    /// Adds `items` after what is waiting (linear in both), flushed to disk before it returns; the
    /// numbers they were given, for `remove` when the run that added them fails before its snapshot.
    @discardableResult
    public func add(_ items: [NewsItem]) throws(OutputError) -> Set<Int> {
        guard !items.isEmpty else { return [] }
        return try changing { contents in
            let first = contents.next
            contents.entries.reserveCapacity(contents.entries.count + items.count)
            for (offset, item) in items.enumerated() { contents.entries.append(Entry(number: first + offset, item: item)) }
            contents.next = first + items.count
            return Set(first..<contents.next)
        }
    }

    /// Takes out the items numbered `numbers` (sent, or added by a run that then failed), leaving any
    /// another run added meanwhile.
    public func remove(_ numbers: Set<Int>) throws(OutputError) {
        guard !numbers.isEmpty else { return }
        try changing { contents in contents.entries.removeAll { numbers.contains($0.number) } }
    }

    /// Records whether the webhook is failing (`reason`) or works (nil); the last state, as it was.
    func noteFailing(_ reason: String?) throws(OutputError) -> String? {
        try changing { contents in
            let was = contents.failing
            contents.failing = reason
            return was
        }
    }

    /// Keeps `items` alone (tests and older callers): what is waiting is replaced.
    public func save(_ items: [NewsItem]) throws(OutputError) {
        try changing { contents in
            contents.entries = items.enumerated().map { Entry(number: contents.next + $0.offset, item: $0.element) }
            contents.next += items.count
        }
    }

    /// Reads, changes and writes the file under the outbox lock; the file goes when nothing is left in it.
    private func changing<T>(_ change: (inout Contents) -> T) throws(OutputError) -> T {
        // A record lock keeps other processes out, not other threads of this one.
        Self.threads.lock()
        defer { Self.threads.unlock() }
        try AtomicFile.createFolder(state)
        let lock = try OutboxLock(state: state, name: OutboxLock.file)
        try lock.hold(wait: true)
        defer { lock.release() }
        var contents = self.contents()
        let before = contents
        let result = change(&contents)
        if contents != before {
            if contents.entries.isEmpty && contents.failing == nil {
                try AtomicFile.remove(url, below: state)
            } else {
                try AtomicFile.write(JSONOutput.encode(contents), to: url, below: state, durable: true)
            }
        }
        return result
    }
}
