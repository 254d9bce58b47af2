import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressDiff
@testable import OrderPressRender

/// The deletions tombstones list (`RecentDeletions`): kept by the clock, not by a number of runs, none
/// undone or of a closed round, and appended to without copying what is there.
@Suite struct RecentDeletionsTests {
    static func record(_ id: Int, person: String = "Amy", group: String = "Tea", values: [String] = ["x"]) -> RowRecord {
        RowRecord(
            row: id + 1, id: "\(id)", identity: "id:\(id)", values: values, secrets: [SecretHash(text: "ab")], rejected: false, group: group,
            person: person, item: "紅茶", options: [], quantity: 1, amount: "35", currency: "TWD", firstSeen: "2026-11-21T09:00:00Z")
    }

    static func changes(deleted: [RowRecord] = [], added: [RowRecord] = [], closed: [RowRecord]? = nil) -> ChangeSet {
        var changes = ChangeSet(firstRun: false, deleted: deleted, added: added, changed: [])
        changes.roundClosed = closed
        return changes
    }

    static let start = Date(timeIntervalSince1970: 1_795_255_200)
    static func time(_ minutes: Int) -> String { Timestamp.iso8601(start.addingTimeInterval(Double(minutes) * 60)) }

    @Test func anOrderBackUndoesItsDeletionOnly() {
        var deletions = RecentDeletions()
        deletions.record(Self.changes(deleted: [Self.record(1), Self.record(2)]), at: Self.time(0))
        // Another order reusing the id of a deleted one is not that order back.
        deletions.record(Self.changes(added: [Self.record(1), Self.record(9), Self.record(2, person: "Ben")]), at: Self.time(5))
        #expect(deletions.entries.map(\.record.id) == ["2"])
        // Kept without values or secret hashes.
        #expect(deletions.entries.allSatisfy { $0.record.values.isEmpty && $0.record.secrets.isEmpty })
        #expect(deletions.entries[0].record.identity == "id:2")
    }

    /// The same order deleted, back, deleted again and back again: each time back undoes the newest deletion.
    @Test func anOrderBackUndoesItsNewestDeletion() {
        var deletions = RecentDeletions()
        deletions.record(Self.changes(deleted: [Self.record(1)]), at: Self.time(0))
        deletions.record(Self.changes(added: [Self.record(1)]), at: Self.time(5))
        deletions.record(Self.changes(deleted: [Self.record(1)]), at: Self.time(10))
        #expect(deletions.entries.map(\.time) == [Self.time(10)])
        deletions.record(Self.changes(deleted: [Self.record(2)]), at: Self.time(15))
        deletions.record(Self.changes(added: [Self.record(1)]), at: Self.time(20))
        #expect(deletions.entries.map(\.record.id) == ["2"])
    }

    /// A closed round takes its group's deletions off the group's tombstone and its people's off theirs;
    /// another group's deletion of one of them stays on that group's.
    @Test func aClosedRoundTakesItsGroupAndPeopleOff() {
        var deletions = RecentDeletions()
        let deleted = [Self.record(1), Self.record(2, group: "Lunch"), Self.record(3, person: "Ben")]
        deletions.record(Self.changes(deleted: deleted), at: Self.time(0))
        deletions.record(Self.changes(closed: [Self.record(4, person: "ＡＭＹ")]), at: Self.time(5))
        #expect(deletions.entries.map(\.record.id) == ["2", "3"])
        #expect(deletions.entries.map(\.person) == [false, true])
        #expect(deletions.entries.map(\.group) == [true, false])
    }

    /// 300 runs after a deletion (more than the history keeps), it stays until its 30 days end.
    @Test func expiresByTheClockNotByRuns() throws {
        var deletions = RecentDeletions()
        deletions.record(Self.changes(deleted: [Self.record(1)]), at: Self.time(0))
        for run in 1...300 {
            deletions.record(Self.changes(added: [Self.record(1_000 + run)]), at: Self.time(run * 5))
            deletions.expire(now: Self.start.addingTimeInterval(Double(run * 5) * 60))
        }
        #expect(deletions.entries.count == 1)
        deletions.expire(now: Self.start.addingTimeInterval(30 * 86_400))
        #expect(deletions.entries.count == 1)
        deletions.expire(now: Self.start.addingTimeInterval(30 * 86_400 + 1))
        #expect(deletions.entries.isEmpty)
    }

    /// A state saved before the list was kept: its history replayed gives what recording each run gave,
    /// and the stored text reads back as it was.
    @Test func replayingTheHistoryEqualsRecordingEachRun() throws {
        let runs = [
            Self.changes(deleted: [Self.record(1), Self.record(2, person: "Ben")]),
            Self.changes(added: [Self.record(1)]),
            Self.changes(deleted: [Self.record(3, group: "Lunch")], closed: [Self.record(4, person: "Ben")]),
        ]
        var recorded = RecentDeletions()
        var history: [HistoryEntry] = []
        for (index, changes) in runs.enumerated() {
            recorded.record(changes, at: Self.time(index))
            history.insert(HistoryEntry(time: Self.time(index), changes: changes, after: history.first), at: 0)
        }
        #expect(RecentDeletions(replaying: history) == recorded)
        #expect(RecentDeletions(text: recorded.text) == recorded)
        #expect(RecentDeletions(text: nil) == nil)
        #expect(RecentDeletions(text: "not json") == nil)
    }

    /// Issue 36 item 7: 50,000 deletions in one group, one run at a time, each appended in place, make one
    /// tombstone listing all of them newest first (before, each was appended by copying the list so far).
    @Test func fiftyThousandDeletionsAreAppendedInLinearTime() throws {
        let began = ContinuousClock.now
        var deletions = RecentDeletions()
        for index in 0..<50_000 {
            deletions.record(Self.changes(deleted: [Self.record(index, person: "P\(index % 50)")]), at: Self.time(index / 100))
        }
        deletions.expire(now: Self.start)
        let data = ValidatedData(groups: [], orders: [], rejected: [], warnings: [], rowsRead: 0)
        let tombstones = Tombstones(deletions: deletions, now: Self.start, data: data)
        #expect(tombstones.groups.map(\.key) == ["Tea"])
        let tea = try #require(tombstones.groups.first)
        #expect(tea.deleted.count == 50_000)
        #expect(tea.deleted.first?.record.id == "49900")
        #expect(tea.deleted.last?.record.id == "99")
        #expect(tombstones.people.count == 50)
        #expect(tombstones.people.allSatisfy { $0.deleted.count == 1_000 })
        #expect(tombstones.expiry == RecentDeletions.end(of: Self.start))
        // Quadratic copying of 50,000 records takes minutes; this takes well under a second.
        #expect(ContinuousClock.now - began < .seconds(30))
    }
}
