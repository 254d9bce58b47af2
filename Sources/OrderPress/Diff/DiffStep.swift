/// The diff step whole, from values to values: this run's rows against the last snapshot, the deletion
/// guard, and the history entry of a run that changed something. Reading and saving the state is the
/// pipeline's; what the state becomes is decided here.
struct DiffStep: Sendable {
    /// Nil when `--accept-deletions` lets any loss through.
    var deletionGuard: DeletionGuard?
    /// This run's time (ISO 8601).
    var now: String

    func run(
        _ data: ValidatedData, secrets: SecretCells, rates: RateTable?, previous: PreviousSnapshot?, history: [HistoryEntry]
    ) throws(DataError) -> DiffOutcome {
        let differ = Differ(hasher: SecretHasher(salt: previous?.index.header.salt ?? SecretHasher.newSalt()), now: now)
        var (snapshot, digests, changes) = try differ.compare(data, secrets: secrets, previous: previous)
        try deletionGuard?.check(changes, previous: previous?.index, malformedRows: data.malformedRows)
        var history = history
        // A build killed between saving the history and the snapshot left this very entry
        // behind already; the rerun finds the same changes again and must not record them twice.
        if !changes.isEmpty, history.first?.changes != changes {
            history.insert(HistoryEntry(time: snapshot.changedAt, changes: changes), at: 0)
        }
        snapshot.rates = rates.map(Snapshot.Rates.init)
        return DiffOutcome(snapshot: snapshot, digests: digests, changes: changes, history: history)
    }
}
