import Crypto
import OrderPressFetch
import OrderPressSupport
import OrderPressValidate

/// The diff step whole, from values to values: this run's rows against the last snapshot, the deletion
/// guard, and the history entry of a run that changed something. Reading and saving the state is the
/// pipeline's; what the state becomes is decided here.
package struct DiffStep: Sendable {
    /// Nil when `--accept-deletions` lets any loss through.
    package var deletionGuard: DeletionGuard?
    /// This run's time (ISO 8601).
    package var now: String
    /// With `[rounds] close_after_deadline`: finished rounds are taken out of the deletions first.
    package var rounds: RoundCloser? = nil
    /// Told which groups lost orders when the guard refuses, so that the state remembers since when
    /// they were missing (`RoundWatch`).
    package var refused: (@Sendable (Set<String>) -> Void)? = nil
    /// The state folder's key for secret hashes (`SecretKey`); nil where there is none (a dry run before the
    /// first build, `orderpress diff` without the file), and this run's secrets are hashed with a key of its own.
    package var key: [UInt8]? = nil
    /// From how many rows a first run's records are made when staged (`Differ.madeWhenStagedFrom`); tests set fewer.
    package var madeWhenStagedFrom = Differ.madeWhenStagedFrom

    package func run(
        _ sheet: ValidatedSheet, rates: RateTable?, previous: PreviousSnapshot?, history: [HistoryEntry]
    ) throws(DataError) -> DiffDecision {
        var sheet = sheet
        return try run(taking: &sheet, rates: rates, previous: previous, history: history)
    }

    /// As `run(_:rates:previous:history:)`, leaving `sheet` without its rows and secret cells (see
    /// `Differ.compare(taking:previous:keepSecrets:)`): for the build, which reads neither afterwards.
    package func run(
        taking sheet: inout ValidatedSheet, rates: RateTable?, previous: PreviousSnapshot?, history: [HistoryEntry]
    ) throws(DataError) -> DiffDecision {
        let keyed = SecretHasher(key: key ?? Self.runKey())
        // A state made before keyed hashes: compared with its own salt, so that an unchanged edit code stays
        // unchanged, then every hash is made again with the key (`rehash`).
        let salted = previous.map(\.index.header.salt).flatMap { $0 == SecretHasher.keyedMarker ? nil : SecretHasher(salt: $0) }
        // The key of the state folder, not one of this run's: records hashed with another are made again.
        let context = key.flatMap { sheet.context?.keyed(by: $0) }
        var differ = Differ(hasher: salted ?? keyed, now: now)
        differ.madeWhenStagedFrom = madeWhenStagedFrom
        if salted == nil { differ.context = context }
        var (snapshot, records, digests, reuse, changes, newRejected) = try differ.compare(taking: &sheet, previous: previous, keepSecrets: salted != nil)
        let closedRounds = rounds?.close(&changes, data: sheet.data, columns: previous?.index.header.columns ?? [], closedAt: now) ?? []
        do {
            try deletionGuard?.check(
                changes, previous: previous?.index, newRejectedRows: newRejected + sheet.data.malformedRows,
                closedOrders: changes.roundClosed?.count ?? 0)
        } catch {
            if let rounds, let refused {
                let groups = Set(changes.deleted.map(\.group) + changes.noLongerCounted.map(\.before.group))
                let ahead = rounds.beforeDeadline(groups, data: sheet.data)
                if !ahead.isEmpty { refused(ahead) }
            }
            throw error
        }
        var history = history
        // A build killed between saving the history and the snapshot left this very entry
        // behind already; the rerun finds the same changes again and must not record them twice.
        if !changes.isEmpty, history.first?.changes != changes {
            history.insert(HistoryEntry(time: snapshot.changedAt, changes: changes, after: history.first), at: 0)
        }
        snapshot.rates = rates.map(Snapshot.Rates.init)
        if salted != nil {
            Self.rehash(&snapshot, records: &records, digests: &digests, history: &history, secrets: sheet.secrets.rows, with: keyed)
            snapshot.context = context
        }
        return DiffDecision(
            header: snapshot, records: records, digests: digests, reuse: reuse, changes: changes, history: history, closedRounds: closedRounds)
    }

    /// A key for this run alone, where the state has none to give.
    static func runKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<SecretKey.length).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Replaces an older state's salted hashes: this run's secrets hashed again with the key (one this run
    /// could not see is unknown), each record's digest made again, and the hashes the history holds (of
    /// values no longer at hand) forgotten, so that no salted hash is saved again.
    /// An older state's records are all made afresh (it has no context), so none is kept.
    static func rehash(
        _ snapshot: inout Snapshot, records: inout SnapshotRecords, digests: inout [RecordDigest], history: inout [HistoryEntry],
        secrets: [[SecretValue]], with hasher: SecretHasher
    ) {
        // Records made when read are made from the same secret cells: hashed with the key from now on.
        if records.rehashWhenRead(with: hasher) {
            for index in records.indices where index < digests.count { digests[index] = RecordDigest(records[index]) }
        } else {
            for index in records.indices where index < secrets.count && records.isFresh(index) {
                records[index].secrets = secrets[index].map { $0.isUnknown ? .unknown : hasher.hash($0) }
                if index < digests.count { digests[index] = RecordDigest(records[index]) }
            }
        }
        snapshot.salt = hasher.salt
        for index in history.indices { history[index].changes.forgetSecretHashes() }
    }
    package init(deletionGuard: DeletionGuard? = nil, now: String, rounds: RoundCloser? = nil, refused: (@Sendable (Set<String>) -> Void)? = nil, key: [UInt8]? = nil) {
        self.deletionGuard = deletionGuard
        self.now = now
        self.rounds = rounds
        self.refused = refused
        self.key = key
    }
}
