import Foundation
import GRDB
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressDiff
import OrderPressTestSupport

/// The diff against the last snapshot's index (`SnapshotIndex`, records read on demand) decides
/// exactly what the differ that held every record decided, and reads only the records that differ.
@Suite struct IndexedDiffTests {
    static let earlier = "2026-11-21T09:00:00Z"
    static let later = "2026-11-21T10:00:00Z"

    /// Two runs' rows: ids unique, shared (content decides) or blank; rejected rows; and the second run
    /// with rows deleted, edited (a masked edit code, a name cleared or recased, an item among the
    /// edits), added, corrected, turned rejected, or reordered.
    struct History: Sendable, CustomStringConvertible {
        var previous: [[String]]
        var current: [[String]]
        /// The second run maps `sugar` as an option, or not: other columns, so digests cannot be compared.
        var sugarIsAnOption: Bool
        var description: String { "\(previous) → \(current), sugar option \(sugarIsAnOption)" }
    }

    static let histories = Generator<History, Shrink.None<History>> { rng in
        func pick(_ values: [String]) -> String { values.randomElement(using: &rng)! }
        func row(_ index: Int) -> [String] {
            DiffFixtures.row(
                pick([String(index + 1), String(index + 1), "7", ""]), pick(["Amy", "Ben"]), pick(["紅茶", "綠茶"]),
                sugar: pick(["半糖", "無糖"]), price: pick(["35", "35", "40", "x"]), code: pick(["c1", "c2", ""]))
        }
        let previous = (0..<Int.random(in: 0...30, using: &rng)).map(row)
        var current: [[String]] = []
        for var row in previous {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: continue
            case 1: row[4] = pick(["半糖", "無糖", "微糖"])
            case 2: row[5] = pick(["35", "41", "x"])
            case 3: row[6] = pick(["c1", "c3", "•••"])
            case 4: row[2] = pick(["Amy", "Cat", "amy", ""])
            case 5: row[3] = pick(["紅茶", "奶茶"])
            default: break
            }
            current.append(row)
        }
        for index in 0..<Int.random(in: 0...3, using: &rng) {
            current.insert(row(100 + index), at: Int.random(in: 0...current.count, using: &rng))
        }
        if Int.random(in: 0..<4, using: &rng) == 0 { current.shuffle(using: &rng) }
        return History(previous: previous, current: current, sugarIsAnOption: Int.random(in: 0..<5, using: &rng) > 0)
    }

    static func validated(_ rows: [[String]], sugarIsAnOption: Bool = true) throws -> ValidatedSheet {
        let configuration = try TestSupport.configuration(
            "[orders]\npath = \"o.json\"\n[orders.columns]\noptions = \(sugarIsAnOption ? "[\"sugar\"]" : "[]")\nquantity = \"q\"\ncurrency = \"c\"\ntime = \"t\"\nnote = \"n\"")
        let table = TestSupport.table(DiffFixtures.headers, rows)
        return try Validator(configuration: configuration).validateSheet(orders: table, groups: nil)
    }

    /// The positions a diff asked the state for, in full.
    final class Requests: @unchecked Sendable {
        private var positions: [Int] = []
        private let lock = NSLock()
        var all: [Int] { lock.withLock { positions } }
        func add(_ more: [Int]) { lock.withLock { positions += more } }

        /// `previous`, telling this which records it reads.
        func watching(_ previous: PreviousSnapshot) -> PreviousSnapshot {
            PreviousSnapshot(index: previous.index) { positions throws(DataError) in
                self.add(positions)
                return try previous.records(positions)
            }
        }
    }

    @Test func theIndexedDiffEqualsTheDiffOfWholeRecords() async {
        await propertyCheck(count: 150, input: Self.histories) { history in
            do {
                let hasher = SecretHasher(salt: "salt")
                let before = try Self.validated(history.previous)
                let reference = ReferenceDiffer(hasher: hasher, now: Self.earlier).compare(before, previous: nil).snapshot
                let first = try Differ(hasher: hasher, now: Self.earlier).compare(before, previous: nil)
                #expect(first.snapshot == reference)
                #expect(first.digests == reference.rows.map(RecordDigest.init))
                let store = StateStore(folder: TestSupport.temporaryFolder())
                try store.save(snapshot: first.snapshot, digests: first.digests, history: [], lastBuild: nil)

                // A fresh store, as the next build opens it: the index read, records on demand.
                let next = StateStore(folder: store.folder)
                let requests = Requests()
                let previous = try #require(try next.loadPrevious())
                let after = try Self.validated(history.current, sugarIsAnOption: history.sugarIsAnOption)
                let expected = ReferenceDiffer(hasher: hasher, now: Self.later).compare(after, previous: reference)
                let result = try Differ(hasher: hasher, now: Self.later).compare(after, previous: requests.watching(previous))
                #expect(result.changes == expected.changes)
                #expect(result.newRejected == expected.newRejected)
                #expect(result.snapshot == expected.snapshot)
                #expect(result.digests == expected.snapshot.rows.map(RecordDigest.init))
                // Never more than the records that are gone or changed, or were rejected, or whose match was
                // not known by digest, or whose identity changed with another row's id (one that other rows shared).
                let masked = history.current.count { $0[6] == SecretMask.text }
                let changes = expected.changes
                let touched = changes.deleted.count + changes.changed.count + changes.noLongerCounted.count + changes.nowCounted.count
                let shared = reference.rows.count { $0.id != nil && !$0.identity.hasPrefix("id:") }
                let bound = history.sugarIsAnOption ? touched + reference.rows.count(where: \.rejected) + shared + masked : history.previous.count
                #expect(Set(requests.all).count == requests.all.count)
                #expect(requests.all.count <= bound)

                try next.save(snapshot: result.snapshot, digests: result.digests, history: [], lastBuild: nil)
                #expect(try StateStore(folder: store.folder).loadSnapshot() == expected.snapshot)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// The bench's case: one price changed among many orders reads one record, and an unchanged rerun none.
    @Test func oneChangedOrderReadsOneRecord() throws {
        let rows = (1...500).map { DiffFixtures.row(String($0), "P\($0 % 37)", price: String(30 + $0 % 9)) }
        let data = try Self.validated(rows)
        let hasher = SecretHasher(salt: "salt")
        let first = try Differ(hasher: hasher, now: Self.earlier).compare(data, previous: nil)
        let store = StateStore(folder: TestSupport.temporaryFolder())
        try store.save(snapshot: first.snapshot, digests: first.digests, history: [], lastBuild: nil)

        let unchanged = Requests()
        let same = try Differ(hasher: hasher, now: Self.later)
            .compare(data, previous: unchanged.watching(try #require(try StateStore(folder: store.folder).loadPrevious())))
        #expect(same.changes.isEmpty)
        #expect(unchanged.all == [])

        var edited = rows
        edited[249][5] = "99"
        let editedData = try Self.validated(edited)
        let requests = Requests()
        let next = StateStore(folder: store.folder)
        let result = try Differ(hasher: hasher, now: Self.later)
            .compare(editedData, previous: requests.watching(try #require(try next.loadPrevious())))
        #expect(requests.all == [249])
        #expect(result.changes.changed.map(\.fields) == [["price": ["37", "99"]]])
        try next.save(snapshot: result.snapshot, digests: result.digests, history: [], lastBuild: nil)
        #expect(next.rowsWritten == 2)  // the record, and the snapshot's changed_at
    }

    /// Enough rows for the records and digests to be built in ranges on both cores: in sheet order,
    /// each with its own digest, as one pass builds them.
    @Test func manyRowsAreBuiltInRangesInOrder() throws {
        let rows = (1...12_000).map { DiffFixtures.row(String($0), "P\($0 % 97)", price: String(30 + $0 % 11), code: "c\($0)") }
        let data = try Self.validated(rows)
        let hasher = SecretHasher(salt: "salt")
        let result = try Differ(hasher: hasher, now: Self.earlier).compare(data, previous: nil)
        let expected = ReferenceDiffer(hasher: hasher, now: Self.earlier).compare(data, previous: nil).snapshot
        #expect(result.snapshot == expected)
        #expect(result.digests == expected.rows.map(RecordDigest.init))
        #expect(Set(result.digests).count == rows.count)
    }

    /// `orderpress diff` holds no lock: a record that a build saved after the index was read is not
    /// mixed into the comparison, and the race is said as one (75: run again), not as bad data.
    @Test func aRecordChangedSinceTheIndexWasReadIsRefused() throws {
        let (store, snapshot) = try StateStoreTests.saved()
        let reader = StateStore(folder: store.folder, writable: false)
        let previous = try #require(try reader.loadPrevious())
        var edited = snapshot
        edited.rows[1].values[0] = "changed"
        try StateStore(folder: store.folder).save(snapshot: edited, history: [])
        #expect(try previous.records([0]) == [snapshot.rows[0]])
        #expect(throws: DataError(message: "\(store.databaseURL.path) changed while it was being read (a build saved meanwhile?); run again", status: .tempFail)) {
            try previous.records([1])
        }
    }

    /// A database as the release before digests wrote it (schema v1): read as it is without writing
    /// (dry run, `orderpress diff`), and given its digests, once, by the first build that reads it.
    @Test func aDatabaseWithoutDigestsIsReadThenMigrated() throws {
        let (snapshot, changes) = try DiffFixtures.compare(DifferTests.base + [DiffFixtures.row("9", "Eve", price: "x")], previous: nil)
        let history = [HistoryEntry(time: Self.earlier, changes: changes, sequence: 1)]
        let folder = TestSupport.temporaryFolder()
        let url = folder.appendingPathComponent(StateDatabase.fileName)
        let contents = StateContents(snapshot: SnapshotIndex(snapshot), history: history, siteID: DiffFixtures.siteID, lastBuild: LastBuild(fingerprint: "f1"))
        let queue = try DatabaseQueue(path: url.path)
        try StateDatabase.migrator(importing: .init(contents: contents, records: snapshot.rows)).migrate(queue, upTo: "v1")
        func migrations() throws -> [String] {
            try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
        }
        #expect(try queue.read { try $0.columns(in: "record").map(\.name) }.contains("digest") == false)

        let reader = StateStore(folder: folder, writable: false)
        #expect(try reader.loadSnapshot() == snapshot)
        #expect(try reader.loadHistory() == history)
        #expect(try reader.lastBuild()?.fingerprint == "f1")
        let data = try Self.validated(Array(DifferTests.base.dropFirst()))
        let expected = ReferenceDiffer(hasher: SecretHasher(salt: snapshot.salt), now: Self.later).compare(data, previous: snapshot)
        let result = try Differ(hasher: SecretHasher(salt: snapshot.salt), now: Self.later)
            .compare(data, previous: try #require(try reader.loadPrevious()))
        #expect(result.changes == expected.changes)
        #expect(try migrations() == ["v1"])

        let build = StateStore(folder: folder)
        #expect(try build.loadSnapshot() == snapshot)
        #expect(try migrations() == ["v1", "v2", "v3", "v4"])
        let digests = try queue.read { try Data.fetchAll($0, sql: "SELECT digest FROM record ORDER BY slot") }
        #expect(digests == snapshot.rows.map { Data(RecordDigest($0).bytes) })
        #expect(try build.siteID(create: false) == DiffFixtures.siteID)
        #expect(try StateStore(folder: folder).loadHistory() == history)
        try queue.close()
    }
}

extension IndexedDiffTests {
    /// The pairing of this run's identities with the last snapshot's (`Differ.matches`: looked up on both
    /// cores, chains walked from a cursor) is the one pass that takes each identity's first untaken
    /// position, for lists with few identities and many repeats of each.
    @Test func identitiesPairAsOnePassPairsThem() async {
        let lists = Gen.int(in: 0...5).array(of: 0...40).array(of: 2...2)
        await propertyCheck(count: 400, input: lists) { pair in
            let old = pair[0].map { "id\($0)" }
            let new = pair[1].map { "id\($0)" }
            let stamps = old.indices.map { Self.stamp(old[$0], row: $0 + 2) }
            let found = Differ.matches(count: new.count, in: IdentityChains(stamps)) { IdentityKey(new[$0]) }
            #expect(found == Self.onePass(old, new), "\(old) → \(new)")
        }
    }

    /// Staging compares each record with the last snapshot's stamps without making its stamp: the answer
    /// is the one comparing made stamps gives but for the sheet row (a record that moved keeps its slot),
    /// for records that differ in any stamped field, their rows' fingerprints included.
    @Test func aRecordIsComparedWithAStampAsItsOwnStampWouldBe() async {
        let pairs = Generator<(RowRecord, RowRecord, Bool), Shrink.None<(RowRecord, RowRecord, Bool)>> { rng in
            let record = RecordDigestTests.records.run(using: &rng)
            var other = Bool.random(using: &rng) ? record : RecordDigestTests.records.run(using: &rng)
            switch Int.random(in: 0...5, using: &rng) {
            case 0: other.row += 1
            case 1: other.identity += "x"
            case 2: other.firstSeen = record.firstSeen + "x"
            case 3: other.rejected.toggle()
            default: break
            }
            return (record, other, Bool.random(using: &rng))
        }
        await propertyCheck(count: 500, input: pairs) { record, other, sameDigest in
            let digest = RecordDigest(record)
            let otherDigest = sameDigest ? digest : RecordDigest(other)
            let fingerprints: [Digest128?] = [nil, Digest128(high: 1, low: 2), Digest128(high: 1, low: 3)]
            let fingerprint = fingerprints[Int(digest.value.low % 3)]
            let otherFingerprint = sameDigest ? fingerprint : fingerprints[Int(otherDigest.value.high % 3)]
            let stamp = SnapshotIndex.Stamp(record, digest: digest, fingerprint: fingerprint)
            var moved = other
            moved.row = record.row
            #expect(
                stamp.stamps(other, digest: otherDigest, fingerprint: otherFingerprint)
                    == (stamp == SnapshotIndex.Stamp(moved, digest: otherDigest, fingerprint: otherFingerprint)))
            #expect(stamp.stamps(record, digest: digest, fingerprint: fingerprint))
        }
    }

    static func stamp(_ identity: String, row: Int) -> SnapshotIndex.Stamp {
        SnapshotIndex.Stamp(identity: IdentityKey(identity), digest: RecordDigest(high: 0, low: 0), row: row, firstSeen: "", rejected: false)
    }

    /// Each new identity takes the first position of the same identity that no earlier one took.
    static func onePass(_ old: [String], _ new: [String]) -> [Int] {
        var taken = Set<Int>()
        var result: [Int] = []
        for identity in new {
            let position = old.indices.first { old[$0] == identity && !taken.contains($0) } ?? -1
            if position >= 0 { taken.insert(position) }
            result.append(position)
        }
        return result
    }
}
