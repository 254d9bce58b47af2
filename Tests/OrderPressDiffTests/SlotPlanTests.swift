import Foundation
import PropertyBased
import Testing

@testable import OrderPressDiff
import OrderPressTestSupport

/// Records keep their slots while they stay the same records (`SlotPlan`, state schema v3): a save
/// writes only the records that equal no old one but for their sheet row, whatever moved.
@Suite struct SlotPlanTests {
    /// The index as a state of these records holds it, without the slots they went to.
    static func unslotted(_ index: SnapshotIndex?) -> SnapshotIndex? {
        guard var index else { return nil }
        for position in index.records.indices { index.records[position].slot = 0 }
        return index
    }

    /// Deleting one order of sixty moves every later record up a position and a sheet row: none of them
    /// is written, the deleted one's slot is removed, the order rewritten. What is read back is what a
    /// state made afresh from the new sheet reads: records in order, their rows and first-seen times.
    @Test(arguments: [0, 30, 59])
    func deletingOneOrderWritesNoRecord(deleted: Int) throws {
        let rows = (1...60).map { DiffFixtures.row("\($0)", "P\($0)") }
        let store = StateStore(folder: TestSupport.temporaryFolder())
        let (before, _) = try DiffFixtures.compare(rows, previous: nil, time: "2026-11-21T09:00:00Z")
        try store.save(snapshot: before, history: [], lastBuild: nil)

        var fewer = rows
        fewer.remove(at: deleted)
        let editing = StateStore(folder: store.folder)
        let (after, changes) = try DiffFixtures.compare(fewer, previous: try editing.loadSnapshot())
        #expect(changes.deleted.count == 1 && changes.changed.isEmpty && changes.added.isEmpty)
        // Every record below the deleted one has another sheet row now.
        var kept = before.rows
        kept.remove(at: deleted)
        #expect(zip(after.rows, kept).filter { $0.row != $1.row }.count == 59 - deleted)
        let staged = try editing.stage(after, digests: after.rows.map(RecordDigest.init))
        #expect(try staged.staged() == SlotPlan.Counts(written: 0, removed: 1, reordered: true))
        try editing.save(staged, history: [], lastBuild: nil)
        // The deleted record, the order, the snapshot's changed_at.
        #expect(editing.rowsWritten == 3)

        let afresh = StateStore(folder: TestSupport.temporaryFolder())
        try afresh.save(snapshot: after, history: [], lastBuild: nil)
        let read = StateStore(folder: store.folder)
        #expect(try read.loadSnapshot() == after)
        #expect(try read.loadSnapshot() == afresh.loadSnapshot())
        #expect(try Self.unslotted(read.contents().snapshot) == Self.unslotted(StateStore(folder: afresh.folder).contents().snapshot))
        #expect(try read.loadSnapshot()?.rows.map(\.firstSeen) == Array(repeating: "2026-11-21T09:00:00Z", count: 59))
    }

    /// One sheet after another, each made from the last by inserting, deleting, moving, editing and
    /// copying rows, among few distinct ones (so many identical): after each save the state reads back
    /// exactly the records saved, in order, and the save wrote only the records that equal no old one
    /// but for their row (counted as a multiset), and deleted only the old slots no new record took.
    @Test func everySaveReadsBackWhatWasSaved() async {
        await propertyCheck(count: 80, input: Self.sheets) { sheets in
            do {
                let folder = TestSupport.temporaryFolder()
                let header = try DiffFixtures.compare(DifferTests.base, previous: nil).snapshot
                var previous: [RowRecord] = []
                for rows in sheets {
                    var snapshot = header
                    snapshot.rows = rows
                    let store = StateStore(folder: folder)
                    let staged = try store.stage(snapshot, digests: rows.map(RecordDigest.init))
                    let counts = try staged.staged()
                    try store.save(staged, history: [], lastBuild: nil)
                    let read = StateStore(folder: folder)
                    #expect(try read.loadSnapshot() == snapshot)
                    #expect(try Self.unslotted(read.contents().snapshot) == Self.unslotted(SnapshotIndex(snapshot)))
                    let kept = Self.kept(rows, over: previous)
                    #expect(counts.written == rows.count - kept)
                    // The old slots left over take the new records first; only the rest are deleted.
                    #expect(counts.removed == max(0, previous.count - rows.count))
                    // Rows that moved rewrite the order; a sheet unchanged writes nothing at all.
                    #expect(counts.reordered || rows.map(\.row) == previous.map(\.row))
                    if rows == previous { #expect(counts == .none) }
                    previous = rows
                }
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// How many new records can each keep an old one's slot: per stamp but for the row, the fewer of the two.
    static func kept(_ new: [RowRecord], over old: [RowRecord]) -> Int {
        func key(_ record: RowRecord) -> String {
            "\(RecordDigest(record))|\(record.identity)|\(record.rejected)|\(record.firstSeen)"
        }
        var available = Dictionary(old.map { (key($0), 1) }, uniquingKeysWith: +)
        var kept = 0
        for record in new where available[key(record), default: 0] > 0 {
            available[key(record), default: 0] -= 1
            kept += 1
        }
        return kept
    }

    /// Two to six sheets of up to twenty rows, drawn from five kinds of row.
    static let sheets = Generator<[[RowRecord]], Shrink.None<[[RowRecord]]>> { rng in
        func record(_ kind: Int) -> RowRecord {
            RowRecord(
                row: 0, id: nil, identity: "c:P\(kind)", values: ["P\(kind)", "紅茶"], secrets: [""], rejected: kind == 4,
                group: "週五", person: "P\(kind)", item: "紅茶", options: [], quantity: 1, amount: kind == 4 ? nil : "35",
                currency: "TWD", firstSeen: "2026-11-2\(kind % 2)T09:00:00Z")
        }
        func kind() -> Int { Int.random(in: 0..<5, using: &rng) }
        var rows = (0..<Int.random(in: 0...20, using: &rng)).map { _ in record(kind()) }
        var sheets: [[RowRecord]] = []
        for _ in 0..<Int.random(in: 2...6, using: &rng) {
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let at = Int.random(in: 0...rows.count, using: &rng)
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: rows.insert(record(kind()), at: at)
                case 1 where !rows.isEmpty: rows.remove(at: Int.random(in: 0..<rows.count, using: &rng))
                case 2 where !rows.isEmpty:
                    let moved = rows.remove(at: Int.random(in: 0..<rows.count, using: &rng))
                    rows.insert(moved, at: Int.random(in: 0...rows.count, using: &rng))
                case 3 where !rows.isEmpty: rows[Int.random(in: 0..<rows.count, using: &rng)] = record(kind())
                case 4 where !rows.isEmpty: let copied = Int.random(in: 0..<rows.count, using: &rng); rows.insert(rows[copied], at: copied)
                case 5 where !rows.isEmpty: rows[Int.random(in: 0..<rows.count, using: &rng)].firstSeen = "2026-11-22T09:00:00Z"
                default: break
                }
            }
            // Sheet rows in order, now and then a blank row between.
            var row = 1
            for index in rows.indices {
                row += Int.random(in: 0..<5, using: &rng) == 0 ? 2 : 1
                rows[index].row = row
            }
            sheets.append(rows)
        }
        return sheets
    }
}
