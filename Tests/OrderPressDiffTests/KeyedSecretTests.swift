import Crypto
import Foundation
import GRDB
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
@testable import OrderPressDiff
import OrderPressTestSupport

/// Secrets are kept as HMAC-SHA-256 with the state folder's key, kept in a file of its own: the database
/// alone confirms no guess. A state made before (salted SHA-256, the salt in the database) is compared with
/// its own hashes once, then saved keyed, its history's hashes forgotten.
@Suite struct KeyedSecretTests {
    typealias D = DifferTests

    static func sheet(_ rows: [[String]]) throws -> ValidatedSheet {
        let configuration = try TestSupport.configuration("[orders]\npath = \"o.json\"\n[orders.columns]\noptions = [\"sugar\"]")
        return try Validator(configuration: configuration).validateSheet(orders: TestSupport.table(DiffFixtures.headers, rows), groups: nil)
    }

    @Test(arguments: ["", "1234", "k9Xq2PzT", "編輯碼", String(repeating: "x", count: 200)])
    func aKeyedHashIsHMACSHA256(_ value: String) {
        let key = (0..<32).map { UInt8($0 * 7 % 256) }
        let hash = SecretHasher(key: key).hash(SecretValue(value))
        if value.isEmpty {
            #expect(hash == .empty)
        } else {
            let mac = HMAC<SHA256>.authenticationCode(for: Data(value.utf8), using: SymmetricKey(data: key))
            #expect(hash == .sha256(ContentDigest(hex: Hex.lowercase(Array(mac)))!))
        }
    }

    /// The first run after the upgrade: an unchanged code is unchanged, a changed one changed; what it
    /// saves holds keyed hashes only, and the history forgets the salted ones; the same whether its records
    /// are held or made when read (`madeWhenStagedFrom`).
    @Test(arguments: [Differ.madeWhenStagedFrom, 0])
    func aSaltedStateIsComparedThenSavedKeyed(madeWhenStagedFrom: Int) throws {
        let salted = Differ(hasher: SecretHasher(salt: "oldsalt"), now: "2026-11-21T09:00:00Z")
        let before = try salted.compare(Self.sheet(D.base), previous: nil).snapshot
        let history = [HistoryEntry(time: "2026-11-21T09:00:00Z", changes: ChangeSet(firstRun: false, deleted: before.rows, added: [], changed: []), sequence: 1)]
        var rows = D.base
        rows[1] = DiffFixtures.row("2", "Ben", code: "newCode")
        var step = DiffStep(deletionGuard: nil, now: "2026-11-21T10:00:00Z", key: DiffFixtures.key)
        step.madeWhenStagedFrom = madeWhenStagedFrom
        let outcome = try step.run(Self.sheet(rows), rates: nil, previous: PreviousSnapshot(before), history: history)
        #expect(outcome.changes.changed.map(\.after.person) == ["Ben"])
        #expect(outcome.changes.changed.first?.fields == ["editCode": ["•••", "•••"]])
        #expect(outcome.snapshot.salt == SecretHasher.keyedMarker)
        let keyed = SecretHasher(key: DiffFixtures.key)
        #expect(outcome.snapshot.rows.map(\.secrets) == rows.map { [keyed.hash(SecretValue($0[6]))] })
        #expect(outcome.digests == outcome.snapshot.rows.map(RecordDigest.init))
        let salt = SecretHasher(salt: "oldsalt")
        let old = rows.map { salt.hash(SecretValue($0[6])) } + D.base.map { salt.hash(SecretValue($0[6])) }
        let kept = outcome.history.flatMap { entry in
            entry.changes.deleted + entry.changes.added + entry.changes.changed.flatMap { [$0.before, $0.after] }
        }.flatMap(\.secrets)
        #expect(!kept.isEmpty && kept.allSatisfy { !old.contains($0) })

        // The next run, keyed on both sides: nothing changed.
        let next = try DiffStep(deletionGuard: nil, now: "2026-11-21T11:00:00Z", key: DiffFixtures.key)
            .run(Self.sheet(rows), rates: nil, previous: PreviousSnapshot(outcome.snapshot), history: outcome.history)
        #expect(next.changes.isEmpty)
    }
}
