/// What the diff step decides: the state this run leaves, and what changed.
struct DiffOutcome: Sendable {
    /// What the snapshot step saves, last (staged before that: see `StagedSnapshot`).
    var snapshot: Snapshot
    /// Its records' digests, which the save compares and stores.
    var digests: [RecordDigest]
    var changes: ChangeSet
    /// Runs that changed something, newest first, this one included.
    var history: [HistoryEntry]
}
