import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressDiff
import OrderPressTestSupport

@Suite struct DifferTests {

    static let base = [DiffFixtures.row("1", "Amy"), DiffFixtures.row("2", "Ben"), DiffFixtures.row("3", "Cat", "綠茶")]

    @Test func firstRunHasNothingToCompare() throws {
        let (snapshot, changes) = try DiffFixtures.compare(Self.base, previous: nil)
        #expect(changes == ChangeSet(firstRun: true, deleted: [], added: [], changed: []))
        #expect(changes.summary == "first run: nothing to compare")
        #expect(snapshot.rows.map(\.identity) == ["id:1", "id:2", "id:3"])
        #expect(snapshot.columns == ["id", "group", "orderer", "drink", "sugar", "price"])
        #expect(snapshot.secretColumns == ["editCode"])
    }

    @Test func withIdsDeletionsAdditionsAndFieldChanges() throws {
        let (before, _) = try DiffFixtures.compare(Self.base, previous: nil, time: "2026-11-21T09:00:00Z")
        let (after, changes) = try DiffFixtures.compare(
            [DiffFixtures.row("3", "Cat", "綠茶", sugar: "無糖"), DiffFixtures.row("1", "Amy"), DiffFixtures.row("4", "Dan")], previous: before)
        #expect(changes.deleted.map(\.person) == ["Ben"])
        #expect(changes.deleted.first?.firstSeen == "2026-11-21T09:00:00Z")
        #expect(changes.added.map(\.person) == ["Dan"])
        #expect(changes.changed.map(\.fields) == [["sugar": ["半糖", "無糖"]]])
        #expect(changes.summary == "1 deleted, 1 added, 1 changed")
        #expect(after.rows.map(\.firstSeen) == ["2026-11-21T09:00:00Z", "2026-11-21T09:00:00Z", "2026-11-21T10:00:00Z"])
        #expect(after.changedAt == "2026-11-21T10:00:00Z")
    }

    @Test func withoutIdsContentIsAMultiset() throws {
        let rows = [DiffFixtures.row("", "Amy"), DiffFixtures.row("", "Amy"), DiffFixtures.row("", "Ben")]
        let (before, _) = try DiffFixtures.compare(rows, previous: nil)
        #expect(before.rows[0].identity == before.rows[1].identity)
        let (_, changes) = try DiffFixtures.compare([DiffFixtures.row("", "Ben"), DiffFixtures.row("", "Amy")], previous: before)
        #expect(changes.deleted.map(\.person) == ["Amy"])
        #expect(changes.added == [])
        #expect(changes.changed == [])
    }

    /// Marking an order paid is a change of that order, with or without an id, never a deletion.
    @Test(arguments: ["1", ""])
    func aPaidCellThatChangesIsAFieldChange(id: String) throws {
        let configuration = try TestSupport.configuration("[orders]\npath = \"o.json\"\n[orders.columns]\noptions = []")
        let headers = ["id", "group", "orderer", "drink", "price", "paid"]
        func run(_ paid: String, previous: Snapshot?) throws -> (snapshot: Snapshot, changes: ChangeSet) {
            let table = TestSupport.table(headers, [[id, "Tea", "Amy", "紅茶", "35", paid], ["", "Tea", "Ben", "綠茶", "30", ""]])
            let sheet = try Validator(configuration: configuration).validateSheet(orders: table, groups: nil)
            let result = try Differ(hasher: SecretHasher(salt: "salt"), now: "2026-11-21T10:00:00Z")
                .compare(sheet, previous: previous.map(PreviousSnapshot.init))
            return (result.snapshot, result.changes)
        }
        let (before, _) = try run("", previous: nil)
        #expect(before.columns.contains("paid"))
        let (_, changes) = try run("已付", previous: before)
        #expect(changes.deleted == [])
        #expect(changes.added == [])
        #expect(changes.changed.map(\.fields) == [["paid": ["", "已付"]]])
    }

    @Test func duplicateIdsFallBackToContent() throws {
        let (before, _) = try DiffFixtures.compare([DiffFixtures.row("7", "Amy"), DiffFixtures.row("7", "Ben")], previous: nil)
        #expect(before.rows.allSatisfy { $0.identity.hasPrefix("content:") })
    }

    @Test(arguments: [
        [DiffFixtures.row("3", "Cat", "綠茶"), DiffFixtures.row("2", "Ben"), DiffFixtures.row("1", "Amy")],
        [DiffFixtures.row("1", "  Amy "), DiffFixtures.row("2", "Ben\t"), DiffFixtures.row("3", "Cat", "綠茶")],
        [DiffFixtures.row("1", "Amy"), DiffFixtures.row("2", "Ben"), DiffFixtures.row("3", "Cat", "綠茶")].map { $0.map { $0.decomposedStringWithCanonicalMapping } },
    ])
    func reorderingWhitespaceAndNormalisationAreNoChange(rows: [[String]]) throws {
        let (before, _) = try DiffFixtures.compare(Self.base, previous: nil)
        let (_, changes) = try DiffFixtures.compare(rows, previous: before)
        #expect(changes.isEmpty)
        #expect(changes.summary == "")
    }

    /// A rejected row corrected, with an id or without one, is an order now counted: not an added one.
    @Test func aCorrectedRejectedRowIsNowCounted() throws {
        let (before, _) = try DiffFixtures.compare([DiffFixtures.row("1", "Amy", price: "US$35"), DiffFixtures.row("", "Ben", price: "-5")], previous: nil)
        #expect(before.rows.map(\.rejected) == [true, true])
        let (after, changes) = try DiffFixtures.compare([DiffFixtures.row("1", "Amy", price: "35"), DiffFixtures.row("", "Ben", price: "5")], previous: before)
        #expect(changes.added == [])
        #expect(changes.deleted == [])
        #expect(changes.changed == [])
        #expect(changes.nowCounted.map(\.fields) == [["price": ["US$35", "35"]], ["price": ["-5", "5"]]])
        #expect(changes.nowCounted.map(\.reasons) == [nil, nil])
        #expect(changes.summary == "2 now counted")
        #expect(after.rows.map(\.firstSeen) == before.rows.map(\.firstSeen))
    }

    /// A rejected row is no order: neither its arrival, its edits nor its removal is a change of orders.
    @Test func rejectedRowsComeAndGoWithoutChanges() throws {
        let (before, _) = try DiffFixtures.compare(Self.base + [DiffFixtures.row("9", "", price: "-5"), DiffFixtures.row("", "Eve", price: "x")], previous: nil)
        let (_, gone) = try DiffFixtures.compare(Self.base, previous: before)
        #expect(gone.isEmpty)
        let (_, edited) = try DiffFixtures.compare(Self.base + [DiffFixtures.row("9", "", price: "-6"), DiffFixtures.row("", "Eve", price: "y")], previous: before)
        #expect(edited.isEmpty)
        let (start, _) = try DiffFixtures.compare(Self.base, previous: nil)
        let (_, arrived) = try DiffFixtures.compare(Self.base + [DiffFixtures.row("", "", price: "")], previous: start)
        #expect(arrived.isEmpty)
    }

    /// An order whose row turns rejected is no longer counted, with the reasons, with or without an id.
    /// Without an id, one whose name is cleared as well is no longer that person's order: it is deleted
    /// (the guard counts it as turned rejected, see `theGuardCountsOrdersThatAreNowRejected`).
    @Test(arguments: ["1", ""])
    func anOrderThatTurnsRejectedIsNoLongerCounted(id: String) throws {
        let (before, _) = try DiffFixtures.compare([DiffFixtures.row(id, "Amy", price: "60"), DiffFixtures.row("", "Ben")], previous: nil)
        let (_, changes) = try DiffFixtures.compare([DiffFixtures.row(id, "Amy", price: "-60"), DiffFixtures.row("", "", price: "")], previous: before)
        #expect(changes.deleted.map(\.person) == ["Ben"])
        #expect(changes.added == [])
        #expect(changes.noLongerCounted.map(\.after.row) == [2])
        #expect(changes.noLongerCounted.map(\.before.person) == ["Amy"])
        #expect(changes.noLongerCounted.first?.fields == ["price": ["60", "-60"]])
        #expect(changes.noLongerCounted.first?.reasons == ["price must not be negative"])
        #expect(changes.summary == "1 deleted, 1 no longer counted")
    }

    /// Without ids, an order edited in place is one changed order, not a deletion and an addition; of
    /// one person's same orders, each pairs with the nearest row.
    @Test func withoutIdsAnEditedOrderIsAChange() throws {
        let rows = [DiffFixtures.row("", "Amy", price: "60"), DiffFixtures.row("", "Ben"), DiffFixtures.row("", "Amy", sugar: "無糖", price: "60"), DiffFixtures.row("", "Cat")]
        let (before, _) = try DiffFixtures.compare(rows, previous: nil, time: "2026-11-21T09:00:00Z")
        var edited = rows
        edited[0][5] = "65"
        edited[2][4] = "微糖"
        edited[2][5] = "61"
        let (after, changes) = try DiffFixtures.compare(edited, previous: before)
        #expect(changes.deleted == [])
        #expect(changes.added == [])
        #expect(changes.changed.map(\.fields) == [["price": ["60", "65"]], ["sugar": ["無糖", "微糖"], "price": ["60", "61"]]])
        #expect(changes.changed.map(\.before.row) == [2, 4])
        #expect(changes.summary == "2 changed")
        #expect(after.rows.allSatisfy { $0.firstSeen == "2026-11-21T09:00:00Z" })
        // Another person or item is another order.
        var renamed = rows
        renamed[1][2] = "Bob"
        let (_, other) = try DiffFixtures.compare(renamed, previous: before)
        #expect(other.deleted.map(\.person) == ["Ben"])
        #expect(other.added.map(\.person) == ["Bob"])
        #expect(other.changed == [])
    }

    @Test func aChangedEditCodeShowsMasked() throws {
        let (before, _) = try DiffFixtures.compare(Self.base, previous: nil)
        var rows = Self.base
        rows[1] = DiffFixtures.row("2", "Ben", code: "n3wC0de")
        let (_, changes) = try DiffFixtures.compare(rows, previous: before)
        #expect(changes.changed.map(\.fields) == [["editCode": ["•••", "•••"]]])
    }

    @Test func aMaskedSecretFromACachedCopyIsNoChangeAndKeepsTheKnownHash() throws {
        let (before, _) = try DiffFixtures.compare(Self.base, previous: nil)
        let masked = Self.base.map { row in row.enumerated().map { $0.offset == 6 ? "•••" : $0.element } }
        let (after, changes) = try DiffFixtures.compare(masked, previous: before)
        #expect(changes.isEmpty)
        #expect(after.rows.map(\.secrets) == before.rows.map(\.secrets))
        #expect(!after.rows.contains { $0.secrets.contains(.unknown) })
    }

    @Test func noEditCodeIsStoredInTheState() throws {
        let folder = TestSupport.temporaryFolder()
        let (before, _) = try DiffFixtures.compare(Self.base, previous: nil)
        let (after, changes) = try DiffFixtures.compare([DiffFixtures.row("1", "Amy", code: "zz9Secret")], previous: before)
        let store = StateStore(folder: folder)
        try store.save(snapshot: after, history: [HistoryEntry(time: "2026-11-21T10:00:00Z", changes: changes, sequence: 1)])
        #expect(TestSupport.files(in: folder) == ["state.sqlite"])
        for file in TestSupport.files(in: folder) {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
            for secret in ["k9Xq2PzT", "zz9Secret"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file) holds an edit code")
            }
        }
        #expect(try store.loadSnapshot() == after)
        #expect(try store.loadHistory().count == 1)
    }

    @Test(arguments: [(2, 0.5, false), (1, 0.5, true), (3, 0.99, false), (3, 1.0, true)])
    func theGuardRefusesMassDeletions(deleted: Int, fraction: Double, allowed: Bool) throws {
        let (before, _) = try DiffFixtures.compare(Self.base, previous: nil)
        let (_, changes) = try DiffFixtures.compare(Array(Self.base.dropFirst(deleted)), previous: before)
        let guardrail = DeletionGuard(maxDeletedFraction: fraction)
        if allowed {
            try guardrail.check(changes, previous: SnapshotIndex(before), newRejectedRows: 0)
        } else {
            #expect(throws: DataError.self) { try guardrail.check(changes, previous: SnapshotIndex(before), newRejectedRows: 0) }
        }
    }

    /// Orders that are still rows but no longer valid orders are lost just the same: they show as no
    /// longer counted, with an id or without one; a malformed row is rejected too.
    @Test(arguments: [
        ("every price turned into text, with ids", [DiffFixtures.row("1", "Amy", price: "free"), DiffFixtures.row("2", "Ben", price: "free"), DiffFixtures.row("3", "Cat", "綠茶", price: "free")], 0,
         "3 of the last run's 3 orders are no longer valid orders (3 now rejected), more than 50%; nothing was published; if that is right, run again with --accept-deletions"),
        ("every price turned into text, without ids", [DiffFixtures.row("", "Amy", price: "free"), DiffFixtures.row("", "Ben", price: "free"), DiffFixtures.row("", "Cat", "綠茶", price: "free")], 0,
         "3 of the last run's 3 orders are no longer valid orders (3 now rejected), more than 50%; nothing was published; if that is right, run again with --accept-deletions"),
        ("one gone, one rejected, one malformed", [DiffFixtures.row("1", "Amy", price: "-1")], 1,
         "3 of the last run's 3 orders are no longer valid orders (1 gone, 2 now rejected), more than 50%; nothing was published; if that is right, run again with --accept-deletions"),
        ("all gone", [], 0,
         "3 of the last run's 3 orders are no longer valid orders (3 gone), more than 50%; nothing was published; if that is right, run again with --accept-deletions"),
    ] as [(String, [[String]], Int, String)])
    func theGuardCountsOrdersThatAreNowRejected(_ name: String, rows: [[String]], malformed: Int, message: String) throws {
        let previousRows = Self.base.map { row in name.contains("without ids") ? [""] + row.dropFirst() : row }
        let (before, _) = try DiffFixtures.compare(previousRows, previous: nil)
        let (_, changes) = try DiffFixtures.compare(rows, previous: before)
        #expect(throws: Self.refusal(message)) {
            try DeletionGuard(maxDeletedFraction: 0.5).check(changes, previous: SnapshotIndex(before), newRejectedRows: malformed)
        }
    }

    /// The guard's refusal: its message, and the counts it names ("2 of the last run's 3 orders") kept for
    /// the news and `status.json`.
    static func refusal(_ message: String) -> DataError {
        let counts = message.firstMatch(of: /^(\d+) of the last run's (\d+) orders/)!
        return DataError(message: message, refusal: .init(lost: Int(counts.1)!, previous: Int(counts.2)!))
    }

    @Test func theGuardCountsOnlyTheLastRunsValidOrders() throws {
        // Two of five rows were rejected last run; losing two of the three valid orders is 67%, not 40%.
        let (before, _) = try DiffFixtures.compare(Self.base + [DiffFixtures.row("8", "Dan", price: "x"), DiffFixtures.row("9", "Eve", price: "y")], previous: nil)
        let (_, changes) = try DiffFixtures.compare([Self.base[0]] + [DiffFixtures.row("8", "Dan", price: "x"), DiffFixtures.row("9", "Eve", price: "y")], previous: before)
        #expect(throws: Self.refusal("2 of the last run's 3 orders are no longer valid orders (2 gone), more than 60%; nothing was published; if that is right, run again with --accept-deletions")) {
            try DeletionGuard(maxDeletedFraction: 0.6).check(changes, previous: SnapshotIndex(before), newRejectedRows: 0)
        }
        // A rejected row that disappears is no lost order.
        let (_, fixed) = try DiffFixtures.compare(Self.base, previous: before)
        try DeletionGuard(maxDeletedFraction: 0).check(fixed, previous: SnapshotIndex(before), newRejectedRows: 0)
    }

    @Test(arguments: ["{not json", "{\"version\": 1}", "[]"])
    func aCorruptedSnapshotIsAnErrorNotAFreshStart(contents: String) {
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["snapshot.json": contents], in: folder)
        do {
            _ = try StateStore(folder: folder).loadSnapshot()
            Issue.record("expected an error")
        } catch {
            let path = folder.appendingPathComponent("snapshot.json").path
            #expect(error.description == "\(path) cannot be read (it is not a snapshot this version understands); move it away to start afresh (the next build is then a first run)")
            #expect(error.exitStatus == .dataError)
        }
    }

    @Test func aSnapshotFromANewerVersionIsRefused() throws {
        let folder = TestSupport.temporaryFolder()
        var (snapshot, _) = try DiffFixtures.compare(Self.base, previous: nil)
        snapshot.version = 99
        TestSupport.write(["snapshot.json": String(decoding: JSONOutput.encode(snapshot), as: UTF8.self)], in: folder)
        #expect(throws: DataError.self) { try StateStore(folder: folder).loadSnapshot() }
    }

    /// The diff step decides the state a run leaves: the guard refuses before anything is recorded, and a
    /// rerun that finds the same changes (after a build killed between history and snapshot) adds no entry.
    @Test func theDiffStepGuardsThenRecordsEachRunOnce() throws {
        let configuration = try TestSupport.configuration("[orders]\npath = \"o.json\"\n[orders.columns]\noptions = [\"sugar\"]")
        func validated(_ rows: [[String]]) throws -> ValidatedSheet {
            try Validator(configuration: configuration).validateSheet(orders: TestSupport.table(DiffFixtures.headers, rows), groups: nil)
        }
        // The state folder's key, the same for every run.
        let step = DiffStep(deletionGuard: DeletionGuard(maxDeletedFraction: 0.5), now: "2026-11-21T10:00:00Z", key: DiffFixtures.key)
        let first = try validated(Self.base)
        let start = try step.run(first, rates: nil, previous: nil, history: [])
        #expect(start.history.map(\.changes.firstRun) == [true])

        let edited = try validated(Array(Self.base.dropLast()))
        let next = try step.run(edited, rates: nil, previous: PreviousSnapshot(start.snapshot), history: start.history)
        #expect(next.history.count == 2)
        let again = try step.run(edited, rates: nil, previous: PreviousSnapshot(start.snapshot), history: next.history)
        #expect(again.history == next.history)

        let emptied = try validated([])
        #expect(throws: DataError.self) {
            try step.run(emptied, rates: nil, previous: PreviousSnapshot(start.snapshot), history: start.history)
        }
        let accepted = try DiffStep(deletionGuard: nil, now: "2026-11-21T10:00:00Z")
            .run(emptied, rates: nil, previous: PreviousSnapshot(start.snapshot), history: start.history)
        #expect(accepted.changes.deleted.count == 3)
    }

    /// The build's diff lets go of the rows and their secret cells once the records are made, and decides
    /// exactly as the diff that leaves them to its caller; a state with salted hashes keeps the secrets to
    /// hash them again with the key.
    @Test(arguments: [false, true]) func takingTheRowsDecidesTheSame(salted: Bool) throws {
        let configuration = try TestSupport.configuration(
            "[orders]\npath = \"o.json\"\n[orders.columns]\noptions = [\"sugar\"]\nquantity = \"q\"\ncurrency = \"c\"\ntime = \"t\"\nnote = \"n\"")
        let validator = Validator(configuration: configuration)
        let step = DiffStep(deletionGuard: nil, now: "2026-11-21T10:00:00Z", key: DiffFixtures.key)
        var before = try DiffFixtures.compare(Self.base, previous: nil).snapshot
        if !salted { before = try step.run(validator.validateSheet(orders: TestSupport.table(DiffFixtures.headers, Self.base), groups: nil), rates: nil, previous: nil, history: []).snapshot }
        let rows = [DiffFixtures.row("3", "Cat", "綠茶", sugar: "無糖"), DiffFixtures.row("1", "Amy", code: "changed1"), DiffFixtures.row("4", "Dan")]
        var sheet = try validator.validateSheet(orders: TestSupport.table(DiffFixtures.headers, rows), groups: nil)
        let kept = try step.run(sheet, rates: nil, previous: PreviousSnapshot(before), history: [])
        let taken = try step.run(taking: &sheet, rates: nil, previous: PreviousSnapshot(before), history: [])
        #expect(sheet.rows.isEmpty)
        #expect(sheet.secrets.rows.isEmpty == !salted)
        #expect(taken.snapshot == kept.snapshot)
        #expect(taken.digests == kept.digests)
        #expect(taken.changes == kept.changes && taken.history == kept.history)
        #expect(taken.changes.summary == "1 deleted, 1 added, 2 changed")
    }
}
