/// What the diff decides: the state this run leaves, and what changed. The build's diff step
/// (`Pipeline.diff(_:rates:store:_:)`) consumes it whole: it stages the snapshot and its digests for the
/// snapshot step and hands on the rest, each part to the step that reads it, as a `DiffResult`.
package struct DiffDecision: Sendable {
    /// What the snapshot step saves, last (staged before that: see `StagedSnapshot`), without its records.
    package var header: Snapshot
    /// The snapshot's records, those the diff kept only as where they were (`SnapshotRecords`).
    package var records: SnapshotRecords
    /// Its records' digests, which the save compares and stores.
    package var digests: [RecordDigest]
    /// Its records' row fingerprints, and those kept rather than made again, which the save must not write.
    package var reuse: RecordReuse = .none
    package var changes: ChangeSet
    /// Runs that changed something, newest first, this one included.
    package var history: [HistoryEntry]
    /// Rounds this run closed (`RoundCloser`), to be archived.
    package var closedRounds: [RoundArchive] = []
}
