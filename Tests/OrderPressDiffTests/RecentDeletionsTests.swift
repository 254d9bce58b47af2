import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressDiff
import OrderPressTestSupport

/// The deletions tombstones list (`RecentDeletions`): kept by the clock, not by a number of runs, none
/// undone or of a closed round, and appended to without copying what is there.
@Suite struct RecentDeletionsTests {

    @Test func anOrderBackUndoesItsDeletionOnly() {
        var deletions = RecentDeletions()
        deletions.record(DeletionFixtures.changes(deleted: [DeletionFixtures.record(1), DeletionFixtures.record(2)]), at: DeletionFixtures.time(0))
        // Another order reusing the id of a deleted one is not that order back.
        deletions.record(DeletionFixtures.changes(added: [DeletionFixtures.record(1), DeletionFixtures.record(9), DeletionFixtures.record(2, person: "Ben")]), at: DeletionFixtures.time(5))
        #expect(deletions.entries.map(\.record.id) == ["2"])
        // Kept without values or secret hashes.
        #expect(deletions.entries.allSatisfy { $0.record.values.isEmpty && $0.record.secrets.isEmpty })
        #expect(deletions.entries[0].record.identity == "id:2")
    }

    /// The same order deleted, back, deleted again and back again: each time back undoes the newest deletion.
    @Test func anOrderBackUndoesItsNewestDeletion() {
        var deletions = RecentDeletions()
        deletions.record(DeletionFixtures.changes(deleted: [DeletionFixtures.record(1)]), at: DeletionFixtures.time(0))
        deletions.record(DeletionFixtures.changes(added: [DeletionFixtures.record(1)]), at: DeletionFixtures.time(5))
        deletions.record(DeletionFixtures.changes(deleted: [DeletionFixtures.record(1)]), at: DeletionFixtures.time(10))
        #expect(deletions.entries.map(\.time) == [DeletionFixtures.time(10)])
        deletions.record(DeletionFixtures.changes(deleted: [DeletionFixtures.record(2)]), at: DeletionFixtures.time(15))
        deletions.record(DeletionFixtures.changes(added: [DeletionFixtures.record(1)]), at: DeletionFixtures.time(20))
        #expect(deletions.entries.map(\.record.id) == ["2"])
    }

    /// A closed round takes its group's deletions off the group's tombstone and its people's off theirs;
    /// another group's deletion of one of them stays on that group's.
    @Test func aClosedRoundTakesItsGroupAndPeopleOff() {
        var deletions = RecentDeletions()
        let deleted = [DeletionFixtures.record(1), DeletionFixtures.record(2, group: "Lunch"), DeletionFixtures.record(3, person: "Ben")]
        deletions.record(DeletionFixtures.changes(deleted: deleted), at: DeletionFixtures.time(0))
        deletions.record(DeletionFixtures.changes(closed: [DeletionFixtures.record(4, person: "ＡＭＹ")]), at: DeletionFixtures.time(5))
        #expect(deletions.entries.map(\.record.id) == ["2", "3"])
        #expect(deletions.entries.map(\.person) == [false, true])
        #expect(deletions.entries.map(\.group) == [true, false])
    }

    /// 300 runs after a deletion (more than the history keeps), it stays until its 30 days end.
    @Test func expiresByTheClockNotByRuns() throws {
        var deletions = RecentDeletions()
        deletions.record(DeletionFixtures.changes(deleted: [DeletionFixtures.record(1)]), at: DeletionFixtures.time(0))
        for run in 1...300 {
            deletions.record(DeletionFixtures.changes(added: [DeletionFixtures.record(1_000 + run)]), at: DeletionFixtures.time(run * 5))
            deletions.expire(now: DeletionFixtures.start.addingTimeInterval(Double(run * 5) * 60))
        }
        #expect(deletions.entries.count == 1)
        deletions.expire(now: DeletionFixtures.start.addingTimeInterval(30 * 86_400))
        #expect(deletions.entries.count == 1)
        deletions.expire(now: DeletionFixtures.start.addingTimeInterval(30 * 86_400 + 1))
        #expect(deletions.entries.isEmpty)
    }

    /// A state saved before the list was kept: its history replayed gives what recording each run gave,
    /// and the stored text reads back as it was.
    @Test func replayingTheHistoryEqualsRecordingEachRun() throws {
        let runs = [
            DeletionFixtures.changes(deleted: [DeletionFixtures.record(1), DeletionFixtures.record(2, person: "Ben")]),
            DeletionFixtures.changes(added: [DeletionFixtures.record(1)]),
            DeletionFixtures.changes(deleted: [DeletionFixtures.record(3, group: "Lunch")], closed: [DeletionFixtures.record(4, person: "Ben")]),
        ]
        var recorded = RecentDeletions()
        var history: [HistoryEntry] = []
        for (index, changes) in runs.enumerated() {
            recorded.record(changes, at: DeletionFixtures.time(index))
            history.insert(HistoryEntry(time: DeletionFixtures.time(index), changes: changes, after: history.first), at: 0)
        }
        #expect(RecentDeletions(replaying: history) == recorded)
        #expect(RecentDeletions(text: recorded.text) == recorded)
        #expect(RecentDeletions(text: nil) == nil)
        #expect(RecentDeletions(text: "not json") == nil)
    }
}
