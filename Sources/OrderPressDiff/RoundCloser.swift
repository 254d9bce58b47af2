import Foundation
import OrderPressConfig
import OrderPressSlugs
import OrderPressSupport
import OrderPressValidate

/// `[rounds] close_after_deadline`: a group whose deadline has passed (by the run's clock) and whose
/// orders are all gone is a finished round, not a mass deletion. Its deleted orders leave the change set's
/// `deleted` for `roundClosed` before the deletion guard looks (so the guard does not count them, and no
/// deletion news is made of them), and its final state becomes a `RoundArchive`.
///
/// "All gone": the group has no valid order left, and none of its orders turned into a rejected row (that
/// is a broken sheet, not a reset). Its deadline is read from this run's groups source: a group that left
/// the groups source too has no deadline, so clearing it stays a deletion, guarded as ever; so does
/// clearing a group whose deadline has not passed. Nor does a round close whose orders may have vanished
/// before its deadline (`RoundWatch`): the last published snapshot must have been made after the deadline,
/// and no refused run may have found the group's orders missing before it.
package struct RoundCloser: Sendable {
    var timeZone: TimeZone
    package var now: Date
    /// When the last published snapshot was made, and since when refused runs found groups' orders missing.
    package var watch = RoundWatch()
    /// The orders' `paid` column, if the sheet has it among the snapshot's columns.
    var paidColumn: String
    var organizerSettled: Bool

    package init(configuration: Configuration, now: Date) {
        timeZone = configuration.timeZone
        self.now = now
        paidColumn = configuration.orderColumns.paid
        organizerSettled = configuration.rounds.organizerSettled
    }

    /// Moves the orders of finished rounds from `changes.deleted` to `changes.roundClosed`, and returns
    /// their archives, one per group, in the groups source's order. `columns` are the last snapshot's.
    func close(_ changes: inout ChangeSet, data: ValidatedData, columns: [String], closedAt: String) -> [RoundArchive] {
        guard !changes.deleted.isEmpty else { return [] }
        var deletedByGroup: [String: [RowRecord]] = [:]
        for record in changes.deleted { deletedByGroup[record.group, default: []].append(record) }
        let ordering = Set(data.orders.map(\.group))
        let turnedRejected = Set(changes.noLongerCounted.map(\.before.group))
        let paidIndex = columns.firstIndex(of: paidColumn)
        // Unknown (no snapshot time at all) is never after a deadline.
        let seenAt = watch.seenAt.flatMap(Timestamp.parseUTC)
        var archives: [RoundArchive] = []
        var closed: Set<String> = []
        for group in data.groups where !closed.contains(group.name) {
            guard let records = deletedByGroup[group.name], !ordering.contains(group.name), !turnedRejected.contains(group.name),
                let deadline = group.deadlineTime(timeZone: timeZone), deadline < now,
                let seenAt, seenAt > deadline, watch.missingSince[group.name].flatMap(Timestamp.parseUTC).map({ $0 > deadline }) ?? true
            else { continue }
            closed.insert(group.name)
            let shown = group.deadlineShown(timeZone: timeZone) ?? Timestamp.display(deadline, timeZone: timeZone)
            var slug = Slugger.slug(group.name)
            if slug.isEmpty || Slugger.reserved.contains(slug) { slug = "group-" + Slugger.hash(group.name, length: 8) }
            let organizer = group.organizerKey
            archives.append(
                RoundArchive(
                    group: group.name, slug: slug, date: String(shown.prefix(10)), deadline: shown, organizer: group.organizer,
                    shop: group.shop, closedAt: closedAt,
                    orders: records.map { record in
                        var paid: Bool? = nil
                        if let paidIndex, paidIndex < record.values.count {
                            var ignored: [DataWarning] = []
                            paid = PaidText.read(record.values[paidIndex], column: paidColumn, row: record.row, warnings: &ignored)
                                || (organizerSettled && !organizer.isEmpty && PersonKey(record.person) == organizer)
                        }
                        return RoundArchive.Line(
                            person: record.person, item: record.item, options: record.options, quantity: record.quantity,
                            amount: record.amount ?? "0", currency: record.currency, paid: paid)
                    },
                    currency: group.fee > 0 || group.discount > 0 ? group.currency : nil, fee: group.fee > 0 ? "\(group.fee)" : nil,
                    discount: group.discount > 0 ? "\(group.discount)" : nil, payment: group.payment.isEmpty ? nil : group.payment))
        }
        guard !closed.isEmpty else { return [] }
        changes.roundClosed = changes.deleted.filter { closed.contains($0.group) }
        changes.deleted.removeAll { closed.contains($0.group) }
        return archives
    }

    /// Those of `groups` whose deadline is still ahead: orders of theirs missing now vanished before it.
    func beforeDeadline(_ groups: Set<String>, data: ValidatedData) -> Set<String> {
        Set(data.groups.filter { groups.contains($0.name) && ($0.deadlineTime(timeZone: timeZone).map { $0 >= now } ?? false) }.map(\.name))
    }

    /// The archives kept so far with this run's added: one per round, so a second round of a group closed
    /// on the same day gets its own page (a suffix), never the first one's.
    package static func merged(_ kept: [RoundArchive], _ new: [RoundArchive]) -> [RoundArchive] {
        var list = kept
        for var archive in new {
            // The same group's earlier round that day: the next number. Another group whose name makes the
            // same slug: a folder of its own.
            var number = 2
            while list.contains(where: { $0.path == archive.path && $0.group == archive.group }) {
                archive.number = number
                number += 1
            }
            let base = archive.slug
            number = 2
            while list.contains(where: { $0.path == archive.path }) {
                archive.slug = "\(base)-\(number)"
                number += 1
            }
            list.append(archive)
        }
        return list
    }
}
