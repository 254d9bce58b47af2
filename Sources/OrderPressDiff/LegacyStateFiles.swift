import Foundation
import OrderPressSupport

/// The state files that OrderPress wrote before the state database: `snapshot.json`, `history.json`
/// and `site-id`. They are only read, strictly as before, to be migrated into the database; the
/// migration removes them once the database holding their contents is committed.
struct LegacyStateFiles: Sendable {
    package var folder: URL

    var snapshotURL: URL { folder.appendingPathComponent("snapshot.json") }
    var historyURL: URL { folder.appendingPathComponent("history.json") }
    var siteIDURL: URL { folder.appendingPathComponent("site-id") }
    var all: [URL] { [snapshotURL, historyURL, siteIDURL] }

    /// The history file's layout.
    struct History: Codable, Equatable {
        var version: Int
        package var entries: [HistoryEntry]
    }

    var exists: Bool { all.contains { FileManager.default.fileExists(atPath: $0.path) } }

    package func snapshot() throws(DataError) -> Snapshot? {
        try load(Snapshot.self, from: snapshotURL, what: "snapshot", version: \.version)
    }

    /// Newest first, numbered from the oldest (1) up, as the database numbers them; their feed ids stay
    /// those of before (`HistoryEntry.numbered`).
    package func history() throws(DataError) -> [HistoryEntry] {
        let entries = try load(History.self, from: historyURL, what: "history", version: \.version)?.entries ?? []
        return entries.enumerated().map { place, entry in
            HistoryEntry(time: entry.time, changes: entry.changes, sequence: entries.count - place, numbered: false)
        }
    }

    /// Nil when there is no file or it holds no id (as before: a new id is then made).
    func siteID() throws(OutputError) -> UUID? {
        guard let data = try AtomicFile.contents(of: siteIDURL, below: folder) else { return nil }
        return UUID(uuidString: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Removes the files, after their contents were committed to the database.
    func remove() throws(OutputError) {
        for url in all { try AtomicFile.remove(url, below: folder) }
    }

    /// Reads one state file; `what` names it in messages ("snapshot", "history").
    private func load<T: Decodable>(
        _ type: T.Type, from url: URL, what: String, version: KeyPath<T, Int>
    ) throws(DataError) -> T? {
        let data: Data
        do throws(BoundedFile.Failure) {
            // As the build would write it: a link or a pipe in its place is not read through.
            data = try BoundedFile.read(url.path, followLinks: false)
        } catch .missing {
            return nil
        } catch {
            throw StateStore.unreadable(url.path, reason: error.reason)
        }
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw StateStore.unreadable(url.path, reason: "it is not a \(what) this version understands")
        }
        let found = value[keyPath: version]
        guard found >= 1 else {
            throw StateStore.unreadable(url.path, reason: "its version \(found) is not a version of OrderPress's \(what)")
        }
        guard found <= Snapshot.currentVersion else {
            throw DataError(message: "\(url.path) was written by a newer OrderPress (version \(found)); upgrade OrderPress")
        }
        return value
    }
}
