import Foundation

/// The snapshot and the history in the state folder: read strictly, written durably and atomically.
public struct StateStore: Sendable {
    public var folder: URL
    /// How many runs the history keeps; the Changes page shows fewer.
    static let historyLimit = 200

    public init(folder: URL) {
        self.folder = folder
    }

    var snapshotURL: URL { folder.appendingPathComponent("snapshot.json") }
    var historyURL: URL { folder.appendingPathComponent("history.json") }
    var siteIDURL: URL { folder.appendingPathComponent("site-id") }

    /// The site's own random id, made on its first build and kept, so that two sites built from
    /// similar configurations never share a feed id. With `create` false (a dry run) a missing id
    /// is made up for this run only.
    public func siteID(create: Bool) throws(OutputError) -> UUID {
        if let data = FileManager.default.contents(atPath: siteIDURL.path),
            let id = UUID(uuidString: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return id
        }
        let id = UUID()
        if create { try AtomicFile.write(Data((id.uuidString.lowercased() + "\n").utf8), to: siteIDURL, durable: true) }
        return id
    }

    /// The history file: runs that changed something, newest first.
    struct History: Codable, Equatable {
        var version: Int
        var entries: [HistoryEntry]
    }

    /// The last snapshot, or nil before the first build. A snapshot that cannot be read is an error,
    /// never silently replaced: that would turn every order into an addition.
    public func loadSnapshot() throws(DataError) -> Snapshot? {
        try load(Snapshot.self, from: snapshotURL, version: \.version)
    }

    public func loadHistory() throws(DataError) -> [HistoryEntry] {
        try load(History.self, from: historyURL, version: \.version)?.entries ?? []
    }

    /// Saves history first, then the snapshot, each flushed to disk; unchanged files are not rewritten.
    public func save(snapshot: Snapshot, history: [HistoryEntry]) throws(OutputError) {
        try AtomicFile.writeIfChanged(
            JSONOutput.encode(History(version: Snapshot.currentVersion, entries: Array(history.prefix(Self.historyLimit)))),
            to: historyURL, durable: true)
        try AtomicFile.writeIfChanged(JSONOutput.encode(snapshot), to: snapshotURL, durable: true)
    }

    private func load<T: Decodable>(_ type: T.Type, from url: URL, version: KeyPath<T, Int>) throws(DataError) -> T? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
        } catch {
            throw DataError(
                message: "\(url.path) cannot be read (\(Self.reason(error))); move it away to start afresh (the next build is then a first run)")
        }
        guard value[keyPath: version] <= Snapshot.currentVersion else {
            throw DataError(
                message: "\(url.path) was written by a newer OrderPress (version \(value[keyPath: version])); upgrade OrderPress")
        }
        return value
    }

    private static func reason(_ error: any Error) -> String {
        if error is DecodingError { return "it is not a snapshot this version understands" }
        return IOFailure.reason(error)
    }
}
