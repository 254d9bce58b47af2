import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressDiff
@testable import OrderPressRender
import OrderPressTestSupport

/// Tombstones made from the deletions the state keeps (`RecentDeletions`).
@Suite struct TombstonesTests {
    /// Issue 36 item 7: 50,000 deletions in one group, one run at a time, each appended in place, make one
    /// tombstone listing all of them newest first (before, each was appended by copying the list so far).
    @Test func fiftyThousandDeletionsAreAppendedInLinearTime() throws {
        let began = ContinuousClock.now
        var deletions = RecentDeletions()
        for index in 0..<50_000 {
            deletions.record(DeletionFixtures.changes(deleted: [DeletionFixtures.record(index, person: "P\(index % 50)")]), at: DeletionFixtures.time(index / 100))
        }
        deletions.expire(now: DeletionFixtures.start)
        let data = ValidatedData(groups: [], orders: [], rejected: [], warnings: [], rowsRead: 0)
        let tombstones = Tombstones(deletions: deletions, now: DeletionFixtures.start, data: data)
        #expect(tombstones.groups.map(\.key) == ["Tea"])
        let tea = try #require(tombstones.groups.first)
        #expect(tea.deleted.count == 50_000)
        #expect(tea.deleted.first?.record.id == "49900")
        #expect(tea.deleted.last?.record.id == "99")
        #expect(tombstones.people.count == 50)
        #expect(tombstones.people.allSatisfy { $0.deleted.count == 1_000 })
        #expect(tombstones.expiry == RecentDeletions.end(of: DeletionFixtures.start))
        // Quadratic copying of 50,000 records takes minutes; this takes well under a second.
        #expect(ContinuousClock.now - began < .seconds(30))
    }
}
