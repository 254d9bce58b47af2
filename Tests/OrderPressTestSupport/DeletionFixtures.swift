import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressDiff

/// Deleted records and the times they were deleted at (`RecentDeletionsTests`, `TombstonesTests`).
package enum DeletionFixtures {
    package static func record(_ id: Int, person: String = "Amy", group: String = "Tea", values: [String] = ["x"]) -> RowRecord {
        RowRecord(
            row: id + 1, id: "\(id)", identity: "id:\(id)", values: values, secrets: [SecretHash(text: "ab")], rejected: false, group: group,
            person: person, item: "紅茶", options: [], quantity: 1, amount: "35", currency: "TWD", firstSeen: "2026-11-21T09:00:00Z")
    }

    package static func changes(deleted: [RowRecord] = [], added: [RowRecord] = [], closed: [RowRecord]? = nil) -> ChangeSet {
        var changes = ChangeSet(firstRun: false, deleted: deleted, added: added, changed: [])
        changes.roundClosed = closed
        return changes
    }

    package static let start = Date(timeIntervalSince1970: 1_795_255_200)

    package static func time(_ minutes: Int) -> String { Timestamp.iso8601(start.addingTimeInterval(Double(minutes) * 60)) }
}
