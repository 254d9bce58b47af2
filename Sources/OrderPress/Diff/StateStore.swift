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
        if let data = try AtomicFile.contents(of: siteIDURL, below: folder),
            let id = UUID(uuidString: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return id
        }
        let id = UUID()
        if create { try AtomicFile.write(Data((id.uuidString.lowercased() + "\n").utf8), to: siteIDURL, below: folder, durable: true) }
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
        try load(Snapshot.self, from: snapshotURL, what: "snapshot", version: \.version)
    }

    public func loadHistory() throws(DataError) -> [HistoryEntry] {
        try load(History.self, from: historyURL, what: "history", version: \.version)?.entries ?? []
    }

    /// Saves history first, then the snapshot, each flushed to disk; unchanged files are not rewritten.
    public func save(snapshot: Snapshot, history: [HistoryEntry]) throws(OutputError) {
        try AtomicFile.writeIfChanged(
            JSONOutput.encode(History(version: Snapshot.currentVersion, entries: Array(history.prefix(Self.historyLimit)))),
            to: historyURL, below: folder, durable: true)
        try AtomicFile.writeIfChanged(JSONOutput.encode(snapshot), to: snapshotURL, below: folder, durable: true)
    }

    /// Reads one state file; `what` names it in messages ("snapshot", "history").
    private func load<T: Decodable>(
        _ type: T.Type, from url: URL, what: String, version: KeyPath<T, Int>
    ) throws(DataError) -> T? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let startAfresh = "move it away to start afresh (the next build is then a first run)"
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
        } catch {
            let reason = error is DecodingError ? "it is not a \(what) this version understands" : IOFailure.reason(error)
            throw DataError(message: "\(url.path) cannot be read (\(reason)); \(startAfresh)")
        }
        let found = value[keyPath: version]
        guard found >= 1 else {
            throw DataError(message: "\(url.path) cannot be read (its version \(found) is not a version of OrderPress's \(what)); \(startAfresh)")
        }
        guard found <= Snapshot.currentVersion else {
            throw DataError(
                message: "\(url.path) was written by a newer OrderPress (version \(found)); upgrade OrderPress")
        }
        return value
    }
}
