import Foundation
import GRDB
import Testing

@testable import OrderPressDiff
import OrderPressTestSupport

/// The state's records keep their slots (schema v3) through the built binary: an order deleted from the
/// sheet deletes its record alone, whatever moved up behind it.
@Suite struct StateSlotsBinaryTests {
    /// Every record of the state at `site` by its slot, each as SQLite holds it.
    static func records(_ site: URL) throws -> [Int: [DatabaseValue]] {
        let queue = try StateDatabase.open(site.appendingPathComponent("output/state/state.sqlite"), readOnly: true)
        defer { try? queue.close() }
        return try queue.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT * FROM record").map { ($0["slot"] as Int, Array($0.databaseValues)) })
        }
    }

    static func snapshot(_ site: URL) throws -> Snapshot? {
        try StateStore(folder: site.appendingPathComponent("output/state"), writable: false).loadSnapshot()
    }

    /// The first, a middle and the last of the sample's 42 rows.
    @Test(arguments: [0, 20, 41])
    func aDeletedOrderDeletesItsRecordAlone(deleted: Int) throws {
        let site = try TestSupport.sampleSite()
        let first = try TestSupport.run(["build"], in: site, environment: DataTrustTests.firstRun)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Self.records(site)
        let saved = try #require(try Self.snapshot(site))

        var rows = try DataTrustTests.sampleRows(site)
        rows.remove(at: deleted)
        try JSONSerialization.data(withJSONObject: rows).write(to: site.appendingPathComponent("data/orders.json"))
        let second = try TestSupport.run(["build"], in: site, environment: DataTrustTests.secondRun)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains(" · 1 deleted · "), "\(second.stdout)")

        // One slot gone; every other record, its first-seen time too, byte for byte as it was.
        let after = try Self.records(site)
        #expect(Set(before.keys).subtracting(after.keys).count == 1)
        #expect(Set(after.keys).isSubset(of: before.keys))
        #expect(after.allSatisfy { before[$0.key] == $0.value })
        // Read back in sheet order: the rows that stayed, each at its new sheet row.
        var expected = saved
        expected.rows.remove(at: deleted)
        for index in expected.rows.indices { expected.rows[index].row = index + 2 }
        #expect(try Self.snapshot(site)?.rows == expected.rows)

        let rerun = try TestSupport.run(["diff"], in: site, environment: DataTrustTests.secondRun)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.hasPrefix("no changes since the build of "), "\(rerun.stdout)")
    }
}
