import Foundation
import OrderPressSupport
import OrderPressValidate

/// The deleted orders a tombstone may list (`Tombstones`): each valid order deleted in the last
/// `days` days by the run's clock, with the time of the run that found it deleted. Kept in the
/// state (`StateDatabase.deletionsKey`), not read from the history, which keeps a number of runs, not days
/// (a five-minute cron dropped a deletion after about 17 days).
///
/// What a tombstone says must be true: a deletion undone later (the same order back, by `orderpress
/// restore` or pasted) is taken out, and a round that closes takes its group's deletions off the group's
/// tombstone and its people's off theirs: their orders went with the round, they were not deleted.
/// Every change is one pass over the list: nothing is copied per deletion.
package struct RecentDeletions: Sendable, Equatable {
    /// How long a deletion is listed (`Tombstones`).
    package static let days = 30

    package struct Entry: Codable, Sendable, Equatable {
        /// When the run that found the order deleted ran (ISO 8601).
        package var time: String
        /// The order as it was, without its values and secrets (its identity keeps what matches it).
        package var record: RowRecord
        /// Whether it may still be listed on its person's tombstone, and on its group's.
        package var person: Bool
        package var group: Bool
    }

    /// Oldest first, each run's in the order it found them.
    package private(set) var entries: [Entry] = []

    package init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// What an earlier version's state says, where no list was kept: its history's runs, oldest first.
    package init(replaying history: [HistoryEntry]) {
        for entry in history.reversed() { record(entry.changes, at: entry.time) }
    }

    /// The stored list; nil when none was kept, or it cannot be read (the history is replayed instead).
    package init?(text: String?) {
        guard let text, let entries = try? JSONDecoder().decode([Entry].self, from: Data(text.utf8)) else { return nil }
        self.entries = entries
    }

    /// As stored: sorted keys, so the same list is the same text.
    package var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only strings, numbers, bools, arrays and string-keyed objects: encoding cannot fail.
        return String(decoding: (try? encoder.encode(entries)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// A run's changes at `time`: what it added undoes as many deletions of the same order (newest first),
    /// what a finished round took leaves its group's and people's tombstones, and what it deleted is added.
    package mutating func record(_ changes: ChangeSet, at time: String) {
        if !changes.added.isEmpty, !entries.isEmpty { undo(changes.added) }
        if let closed = changes.roundClosed, !closed.isEmpty, !entries.isEmpty { close(closed) }
        for record in changes.deleted where !record.rejected {
            var kept = record
            // Only what a tombstone shows and what matches the order again: no values, no secret hashes.
            kept.values = []
            kept.secrets = []
            entries.append(Entry(time: time, record: kept, person: true, group: true))
        }
    }

    /// Drops what is more than `days` days old by `now`.
    package mutating func expire(now: Date) {
        var times = TimeCache()
        entries.removeAll { entry in times.date(entry.time).map { now > Self.end(of: $0) } ?? true }
    }

    /// The last moment a deletion at `time` is listed: the page says it stays until then, and a build
    /// record valid until then (`BuildInputs.holds`) is valid at that moment too.
    package static func end(of time: Date) -> Date { time.addingTimeInterval(Double(Self.days) * 86_400) }

    /// What makes an order the same one back: its identity, and what a tombstone shows of it (another order
    /// that reuses a deleted one's id is not that order back).
    static func sameOrder(_ record: RowRecord) -> String {
        [
            record.identity, record.group, PersonKey(record.person).text, record.item, record.options.joined(separator: "\u{1F}"),
            String(record.quantity), record.amount ?? "", record.currency,
        ].joined(separator: "\u{1E}")
    }

    /// Keyed by the entries (few), not by what was added (a million on a first run of a big sheet): an added
    /// order's key is made only when its group has a deletion kept.
    private mutating func undo(_ added: [RowRecord]) {
        var kept: [String: [Int]] = [:]
        for index in entries.indices { kept[Self.sameOrder(entries[index].record), default: []].append(index) }
        let groups = Set(entries.lazy.map(\.record.group))
        var undone = Set<Int>()
        for record in added where groups.contains(record.group) {
            let key = Self.sameOrder(record)
            // The newest deletion of that order is the one undone.
            guard var indices = kept[key], let newest = indices.popLast() else { continue }
            undone.insert(newest)
            kept[key] = indices
        }
        guard !undone.isEmpty else { return }
        var index = -1
        entries.removeAll { _ in
            index += 1
            return undone.contains(index)
        }
    }

    private mutating func close(_ closed: [RowRecord]) {
        let groups = Set(closed.map(\.group))
        let people = Set(closed.map { PersonKey($0.person).text })
        for index in entries.indices {
            if groups.contains(entries[index].record.group) { entries[index].group = false }
            if entries[index].person, people.contains(PersonKey(entries[index].record.person).text) { entries[index].person = false }
        }
        entries.removeAll { !$0.person && !$0.group }
    }

    /// Each distinct time parsed once: a run's deletions share its time.
    package struct TimeCache {
        private var parsed: [String: Date?] = [:]

        package mutating func date(_ text: String) -> Date? {
            if let known = parsed[text] { return known }
            let date = Timestamp.parseUTC(text)
            parsed[text] = date
            return date
        }
        package init(parsed: [String: Date?] = [:]) {
            self.parsed = parsed
        }
    }
}
