/// What the diff decides: the state this run leaves, and what changed. The build's diff step
/// (`Pipeline.diff(_:rates:store:_:)`) consumes it whole: it stages the snapshot and its digests for the
/// snapshot step and hands on the rest, each part to the step that reads it, as a `DiffResult`.
struct DiffDecision: Sendable {
    /// What the snapshot step saves, last (staged before that: see `StagedSnapshot`).
    var snapshot: Snapshot
    /// Its records' digests, which the save compares and stores.
    var digests: [RecordDigest]
    var changes: ChangeSet
    /// Runs that changed something, newest first, this one included.
    var history: [HistoryEntry]
    /// Rounds this run closed (`RoundCloser`), to be archived.
    var closedRounds: [RoundArchive] = []
}
