/// The diff step whole, from values to values: this run's rows against the last snapshot, the deletion
/// guard, and the history entry of a run that changed something. Reading and saving the state is the
/// pipeline's; what the state becomes is decided here.
struct DiffStep: Sendable {
    /// Nil when `--accept-deletions` lets any loss through.
    var deletionGuard: DeletionGuard?
    /// This run's time (ISO 8601).
    var now: String
    /// With `[rounds] close_after_deadline`: finished rounds are taken out of the deletions first.
    var rounds: RoundCloser? = nil
    /// Told which groups lost orders when the guard refuses, so that the state remembers since when
    /// they were missing (`RoundWatch`).
    var refused: (@Sendable (Set<String>) -> Void)? = nil

    func run(
        _ sheet: ValidatedSheet, rates: RateTable?, previous: PreviousSnapshot?, history: [HistoryEntry]
    ) throws(DataError) -> DiffOutcome {
        let differ = Differ(hasher: SecretHasher(salt: previous?.index.header.salt ?? SecretHasher.newSalt()), now: now)
        var (snapshot, digests, changes, newRejected) = try differ.compare(sheet, previous: previous)
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
        return DiffOutcome(
            snapshot: snapshot, digests: digests, orderDigests: Self.orderDigests(sheet, digests: digests), changes: changes,
            history: history, closedRounds: closedRounds)
    }

    /// The valid rows' digests: each valid row made the order at its place among the valid rows.
    /// Checked by sheet row, and given up (empty) on any mismatch.
    static func orderDigests(_ sheet: ValidatedSheet, digests: [RecordDigest]) -> [RecordDigest] {
        let data = sheet.data
        guard sheet.rows.count == digests.count else { return [] }
        var result: [RecordDigest] = []
        result.reserveCapacity(data.orders.count)
        for (row, digest) in zip(sheet.rows, digests) where !row.rejected {
            guard result.count < data.orders.count, data.orders[result.count].row == row.row else { return [] }
            result.append(digest)
        }
        return result.count == data.orders.count ? result : []
    }
}
