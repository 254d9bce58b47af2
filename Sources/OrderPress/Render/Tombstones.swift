import Foundation

/// The pages kept for 30 days after everything on them was deleted (docs/output.md): a person or a
/// group whose orders were all deleted keeps its page (same slug), saying what was deleted and when,
/// so that links and bookmarks keep working. Derived from the history (each run's deleted orders and
/// its time) and the run's clock alone, so the same state and clock make the same pages; the build's
/// record is valid only until the first of them expires (`expiry`, `BuildInputs.validity`).
struct Tombstones: Sendable {
    static let days = 30

    struct Stone: Sendable {
        /// The person's key (`Text.lowercased` of the name) or the group's name.
        var key: String
        var name: String
        /// Newest first, each with the time of the run that found it deleted (ISO 8601).
        var deleted: [Deletion]
        /// The end of the 30 days after the newest of them.
        var until: Date
    }

    struct Deletion: Sendable {
        var record: RowRecord
        var time: String
    }

    let people: [Stone]
    let groups: [Stone]

    /// When the first page goes: a rerun on unchanged input must build again then.
    var expiry: Date? { (people + groups).map(\.until).min() }

    static let none = Tombstones(people: [], groups: [])

    private init(people: [Stone], groups: [Stone]) {
        (self.people, self.groups) = (people, groups)
    }

    /// `history` newest first; people and groups that still have a page of their own get none.
    init(history: [HistoryEntry], now: Date, data: ValidatedData) {
        let window = Double(Self.days) * 86_400
        var recent: [(entry: HistoryEntry, time: Date)] = []
        for entry in history where !entry.changes.deleted.isEmpty {
            guard let time = Timestamp.parseUTC(entry.time), now.timeIntervalSince(time) < window else { continue }
            recent.append((entry, time))
        }
        guard !recent.isEmpty else {
            self = .none
            return
        }
        // Only now, with deletions to look at: every current person's key.
        var people = Set(data.orders.lazy.map(\.personKey))
        for row in data.rejected where !row.personKey.isEmpty { people.insert(row.personKey) }
        let groups = Set(data.groups.lazy.map(\.name))
        var personStones: [String: Stone] = [:]
        var groupStones: [String: Stone] = [:]
        func add(_ record: RowRecord, at time: Date, entry: HistoryEntry, key: String, name: String, to stones: inout [String: Stone]) {
            let until = time.addingTimeInterval(window)
            let deletion = Deletion(record: record, time: entry.time)
            if var stone = stones[key] {
                stone.deleted.append(deletion)
                stone.until = max(stone.until, until)
                stones[key] = stone
            } else {
                stones[key] = Stone(key: key, name: name, deleted: [deletion], until: until)
            }
        }
        for (entry, time) in recent {
            for record in entry.changes.deleted {
                let person = Text.lowercased(record.person)
                if !person.isEmpty, !people.contains(person) {
                    add(record, at: time, entry: entry, key: person, name: record.person, to: &personStones)
                }
                if !record.group.isEmpty, !groups.contains(record.group) {
                    add(record, at: time, entry: entry, key: record.group, name: record.group, to: &groupStones)
                }
            }
        }
        self.people = personStones.values.sorted { $0.key < $1.key }
        self.groups = groupStones.values.sorted { $0.key < $1.key }
    }
}

extension PageBuilder {
    func tombstonePage(_ stone: Tombstones.Stone, group: Bool) -> PageModels.TombstonePage {
        let zone = context.configuration.timeZone
        let until = "\(Timestamp.display(stone.until, timeZone: zone)) (\(zone.identifier))"
        return PageModels.TombstonePage(
            name: MarkdownEscaper.escape(stone.name),
            notice: labels.markdown("tombstone_notice", ["date": until]),
            deleted: stone.deleted.map { deletion in
                let time = context.display(iso: deletion.time)
                let place = group ? "" : " · \(MarkdownEscaper.escape(deletion.record.group))"
                return "\(time) — ~~\(deletionLine(deletion.record))~~\(place)"
            })
    }
}
