import Foundation
import OrderPressConfig
import OrderPressDiff
import OrderPressSupport
import OrderPressValidate

/// The pages kept for 30 days after everything on them was deleted (docs/output.md): a person or a
/// group whose orders were all deleted keeps its page (same slug), saying what was deleted and when,
/// so that links and bookmarks keep working. Made from the deletions the state keeps (`RecentDeletions`:
/// none undone, none of a closed round) and the run's clock alone, so the same state and clock make the
/// same pages; the build's record is valid only until the first listed deletion expires (`expiry`,
/// `BuildInputs.validity`). A long list is split into pages as a group's orders are (`GroupOrderPages`).
package struct Tombstones: Sendable {
    static let days = RecentDeletions.days

    package struct Stone: Sendable {
        /// The person's key (`PersonKey.text`) or the group's name.
        package var key: String
        package var name: String
        /// Newest first, each with the time of the run that found it deleted (ISO 8601).
        var deleted: [Deletion]
        /// The end of the 30 days after the newest of them.
        var until: Date
    }

    struct Deletion: Sendable {
        var record: RowRecord
        package var time: String
    }

    package let people: [Stone]
    package let groups: [Stone]
    /// When the first listed deletion goes: a rerun on unchanged input must build again then.
    package let expiry: Date?

    package static let none = Tombstones(people: [], groups: [], expiry: nil)

    private init(people: [Stone], groups: [Stone], expiry: Date?) {
        (self.people, self.groups, self.expiry) = (people, groups, expiry)
    }

    /// People and groups that still have a page of their own get none: those with orders or rejected rows,
    /// and `keeping` (by person key: those with a carried debt, whose page stays).
    package init(deletions: RecentDeletions, now: Date, data: ValidatedData, keeping: Set<String> = []) {
        guard !deletions.entries.isEmpty else {
            self = .none
            return
        }
        // Only now, with deletions to look at: every current person's key.
        var people = keeping
        for order in data.orders { people.insert(order.personKey.text) }
        for row in data.rejected where !row.personKey.isEmpty { people.insert(row.personKey.text) }
        let groups = Set(data.groups.lazy.map(\.name))
        var times = RecentDeletions.TimeCache()
        // Each stone's place in its list, and each added to in place: no list is copied per deletion.
        var personStones: [Stone] = []
        var groupStones: [Stone] = []
        var personPlace: [String: Int] = [:]
        var groupPlace: [String: Int] = [:]
        var expiry: Date?
        func add(_ entry: RecentDeletions.Entry, end: Date, key: String, to stones: inout [Stone], places: inout [String: Int]) {
            let deletion = Deletion(record: entry.record, time: entry.time)
            expiry = min(expiry ?? end, end)
            if let place = places[key] {
                stones[place].deleted.append(deletion)
                stones[place].until = max(stones[place].until, end)
            } else {
                places[key] = stones.count
                stones.append(Stone(key: key, name: entry.record.person, deleted: [deletion], until: end))
            }
        }
        // Newest run first, each run's deletions in the order it found them.
        let entries = deletions.entries
        var runEnd = entries.count
        while runEnd > 0 {
            var runStart = runEnd - 1
            while runStart > 0, entries[runStart - 1].time == entries[runEnd - 1].time { runStart -= 1 }
            if let time = times.date(entries[runStart].time), case let end = RecentDeletions.end(of: time), end >= now {
                for entry in entries[runStart..<runEnd] {
                    let record = entry.record
                    if entry.person, case let person = PersonKey(record.person).text, !person.isEmpty, !people.contains(person) {
                        add(entry, end: end, key: person, to: &personStones, places: &personPlace)
                    }
                    if entry.group, !record.group.isEmpty, !groups.contains(record.group) {
                        add(entry, end: end, key: record.group, to: &groupStones, places: &groupPlace)
                    }
                }
            }
            runEnd = runStart
        }
        for index in groupStones.indices { groupStones[index].name = groupStones[index].key }
        self.people = personStones.sorted { $0.key < $1.key }
        self.groups = groupStones.sorted { $0.key < $1.key }
        self.expiry = expiry
    }
}

extension PageBuilder {
    func movedPage(name: String, slug: String) -> PageModels.MovedPage {
        PageModels.MovedPage(name: MarkdownEscaper.escape(name), notice: labels.markdown("moved_notice"), link: "\(slug).md")
    }

    /// Page `page` of the stone's list (`SiteContext.tombstonePages`): the heading is the name on each.
    func tombstonePage(_ stone: Tombstones.Stone, group: Bool, page: Int = 1) -> PageModels.TombstonePage {
        let zone = context.configuration.timeZone
        let until = "\(Timestamp.display(stone.until, timeZone: zone)) (\(zone.identifier))"
        let pages = context.tombstonePages(stone, group: group)
        let name = MarkdownEscaper.escape(stone.name)
        return PageModels.TombstonePage(
            name: page == 1 ? name : labels.markdown("group_orders_page", ["group": name, "page": String(page), "pages": String(pages.pageCount)]),
            notice: labels.markdown("tombstone_notice", ["date": until]),
            deleted: stone.deleted[pages.rows(ofPage: page)].map { deletion in
                let time = context.display(iso: deletion.time)
                let place = group ? "" : " · \(MarkdownEscaper.escape(deletion.record.group))"
                return "\(time) — ~~\(deletionLine(deletion.record))~~\(place)"
            },
            pager: pages.pager(page: page, labels: labels))
    }
}

extension SiteContext {
    /// A tombstone's list split into pages as a group's orders are: `<folder>/<slug>`, then `<slug>--2`, ….
    func tombstonePages(_ stone: Tombstones.Stone, group: Bool) -> GroupOrderPages {
        GroupOrderPages(
            folder: group ? "groups" : "people", slug: (group ? groupSlugs : personSlugs)[stone.key]!, count: stone.deleted.count,
            size: limits.groupOrderRows)
    }

    /// "黃俊傑: orders, page 2 of 5" for a page after the first.
    func tombstoneTitle(_ stone: Tombstones.Stone, group: Bool, page: Int) -> String {
        guard page > 1 else { return stone.name }
        return input.labels.text(
            "group_orders_page", ["group": stone.name, "page": String(page), "pages": String(tombstonePages(stone, group: group).pageCount)])
    }
}
