import Foundation
import OrderPressSupport

/// A snapshot on its way into the state: the records that differ from the last snapshot's, written on
/// their own thread while the orders are aggregated and the first pages render, into a scratch database
/// beside the state (`staged.sqlite`), with neither journal nor flushing.
///
/// Held until the save, a million orders' new records were a quarter of the heap while the site rendered,
/// and inserting them took seconds after publishing. Staged, they are let go as soon as written, and the
/// snapshot step only copies the staged rows into the state, in the transaction that saves the rest,
/// after publishing as before. Until that commit the state is untouched: a build that fails or is killed
/// before it leaves the next run comparing against the same snapshot, and the next staging starts from an
/// empty file, whatever a killed build left.
package final class StagedSnapshot: Sendable {
    static let fileName = "staged.sqlite"

    /// The snapshot without its records.
    package let header: Snapshot
    /// How many records the snapshot has.
    package let count: Int
    /// How many the one it is staged over had; nil when there was none.
    let previousCount: Int?
    let url: URL
    private let work: Background<Result<SlotPlan.Counts, OutputError>>

    /// Starts writing what a save of `snapshot` over `previous` writes (`SlotPlan`): the records that
    /// equal none of the last snapshot's but for their sheet row, the slots freed, the order.
    /// `header` has no records; `records` are the snapshot's.
    package init(
        header: consuming Snapshot, records: consuming SnapshotRecords, digests: [RecordDigest], reuse: RecordReuse = .none,
        previous: SnapshotIndex?, folder: URL
    ) {
        url = folder.appendingPathComponent(Self.fileName)
        count = records.count
        previousCount = previous?.records.count
        let records = Records(rows: records, digests: digests, reuse: reuse, old: previous?.records ?? [])
        header.rows = []
        self.header = header
        let url = url
        // Its own thread, not a dispatch worker: aggregation keeps every worker busy.
        work = Background {
            let result = Result { () throws(OutputError) in
                try Self.write(records.rows, digests: records.digests, reuse: records.reuse, over: records.old, to: url)
            }
            // Let go now, not when the thread object goes, and the pages they held given back: the records'
            // small blocks are scattered among what later steps allocate, which would otherwise not reuse them.
            (records.rows, records.digests, records.reuse, records.old) = (SnapshotRecords(), [], .none, [])
            Allocator.releaseFreed()
            return result
        }
    }

    /// What the staging thread alone holds, until it has written it.
    private final class Records: @unchecked Sendable {
        var rows: SnapshotRecords
        var digests: [RecordDigest]
        var reuse: RecordReuse
        /// The last snapshot's index of records, which the new ones are staged over.
        var old: [SnapshotIndex.Stamp]

        init(rows: SnapshotRecords, digests: [RecordDigest], reuse: RecordReuse, old: [SnapshotIndex.Stamp]) {
            self.rows = rows
            self.digests = digests
            self.reuse = reuse
            self.old = old
        }
    }

    /// How much was staged (records, freed slots, the order), once it all is.
    package func staged() throws(OutputError) -> SlotPlan.Counts {
        try work.value.get()
    }

    /// Returns once the records are written, or failed to be (which `staged()` then tells).
    func wait() {
        _ = work.value
    }

    /// From this many records on, the diff step waits for them to be staged before the orders are
    /// aggregated. A million orders of a Google Form's sheet (a dozen long question titles and answers a
    /// row) passed the 1.5 GB limit while their records staged beside the aggregation; waiting keeps it
    /// under, for a slower diff step (docs/benchmarks.md).
    /// Below it the records are a few hundred MB at most, well within the limits, and the overlap is worth
    /// its time.
    static let waitedFrom = 250_000

    /// Waits for the staging when the snapshot has `waitedFrom` records or more (see there).
    package func waitWhenLarge() {
        if count >= Self.waitedFrom { wait() }
    }

    /// Waits for the staging to end, then removes its file: after the commit, or instead of it.
    package func discard() {
        wait()
        try? FileManager.default.removeItem(at: url)
    }

    private static func write(
        _ rows: SnapshotRecords, digests: [RecordDigest], reuse: RecordReuse, over old: [SnapshotIndex.Stamp], to url: URL
    ) throws(OutputError) -> SlotPlan.Counts {
        do {
            // A file a killed build left is no part of this snapshot.
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            let staged = try StateDatabase.openScratch(url)
            let count = try staged.write { db in try StateDatabase.stage(rows, digests: digests, reuse: reuse, over: old, in: db) }
            try staged.close()
            TestHook.reached(.staged)
            return count
        } catch {
            throw OutputError(path: url.path, reason: StateStore.reason(error), cannotCreate: false)
        }
    }
}
