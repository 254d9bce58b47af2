import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressDiff
@testable import OrderPressValidate
import OrderPressTestSupport

/// The diff over rows validation handed over as kept (`SheetRow.kept`) decides what it decides over the
/// same rows validated in full: the same records, digests, kept records and changes, also when a kept
/// row's match is not its record (its id now shared, a row alike in every cell added before it).
@Suite struct KeptRowDiffTests {
    static let (key, rows) = (DiffFixtures.key, DiffFixtures.coded)

    static func sheet(_ rows: [[String]], known: KnownRows? = nil) throws -> ValidatedSheet {
        try DiffFixtures.validated(rows, known: known)
    }

    @Test(arguments: ["price", "sameid", "unshared", "copy", "delete"])
    func keptRowsDiffAsRowsValidatedInFull(_ kind: String) throws {
        let folder = TestSupport.temporaryFolder()
        let store = StateStore(folder: folder)
        var earlier = Self.rows
        // Row 4 had row 1's id: row 1, unchanged, is identified by it again.
        if kind == "unshared" { earlier[3][0] = "1" }
        let first = try DiffStep(now: "2026-11-21T10:00:00Z", key: Self.key).run(try Self.sheet(earlier), rates: nil, previous: nil, history: [])
        let staged = try store.stage(first.snapshot, digests: first.digests, reuse: first.reuse)
        try store.save(staged, history: first.history, lastBuild: nil)

        var rows = Self.rows
        switch kind {
        case "price": rows[2][5] = "40"
        // Row 4 takes row 1's id: row 1, unchanged, is no longer identified by it.
        case "sameid": rows[3][0] = "1"
        // Row 3 submitted again before it: two rows alike, their id shared.
        case "copy": rows.insert(rows[2], at: 1)
        case "unshared": break
        default: rows.remove(at: 1)
        }
        let previous = try #require(try StateStore(folder: folder).loadPrevious())
        let known = try #require(KnownRows(previous.index, key: Self.key))
        // The state's identities come with it, each by id or not as it was made.
        let made = try Self.sheet(earlier)
        #expect(known.byID == made.rows.map(\.identity.isID) && known.identities == made.rows.map(\.identityKey))
        let (kept, full) = (try Self.sheet(rows, known: known), try Self.sheet(rows))
        #expect(kept.keptRows >= 3 && full.keptRows == 0)
        // Each kept row's identity, the one the state holds or made again, is the one validation in full makes.
        #expect(kept.rows.map(\.identity.isID) == full.rows.map(\.identity.isID))
        #expect(kept.rows.map(\.identityKey) == full.rows.map(\.identityKey))
        func diff(_ sheet: ValidatedSheet) throws -> DiffDecision {
            try DiffStep(now: "2026-11-21T11:00:00Z", key: Self.key).run(
                sheet, rates: nil, previous: try StateStore(folder: folder).loadPrevious(), history: first.history)
        }
        let (fromKept, fromFull) = (try diff(kept), try diff(full))
        #expect(fromKept.snapshot == fromFull.snapshot)
        #expect(fromKept.digests == fromFull.digests)
        #expect(fromKept.reuse == fromFull.reuse)
        #expect(fromKept.changes == fromFull.changes)
        #expect(fromKept.history == fromFull.history)
    }
}
