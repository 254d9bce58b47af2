import Foundation
import GRDB
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressCatalogue
@testable import OrderPressOutput
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressSlugs
@testable import OrderPressAggregate
@testable import OrderPressDiff

/// A state folder as an earlier release wrote it (`StateDatabaseTests`, and the binary's migration of it).
package enum StateFixtures {
    /// A state as the release before slots wrote it (schema v2: records by position, with their sheet
    /// rows and digests), of a snapshot whose rows have a gap (an order was deleted).
    package static func v2State() throws -> (folder: URL, queue: DatabaseQueue, snapshot: Snapshot, history: [HistoryEntry]) {
        let rows = (1...12).map { DiffFixtures.row("\($0)", "P\($0)") }
        let (first, changes) = try DiffFixtures.compare(rows, previous: nil, time: "2026-11-21T09:00:00Z")
        var snapshot = first
        snapshot.rows.remove(at: 4)
        let history = [HistoryEntry(time: "2026-11-21T09:00:00Z", changes: changes, sequence: 1)]
        let folder = TestSupport.temporaryFolder()
        let contents = StateContents(
            snapshot: SnapshotIndex(snapshot), history: history, siteID: DiffFixtures.siteID, lastBuild: LastBuild(fingerprint: "f1"))
        let queue = try DatabaseQueue(path: folder.appendingPathComponent(StateDatabase.fileName).path)
        try StateDatabase.migrator(importing: .init(contents: contents, records: snapshot.rows)).migrate(queue, upTo: "v2")
        return (folder, queue, snapshot, history)
    }

    package static func migrations(_ queue: DatabaseQueue) throws -> [String] {
        try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
    }
}
