import Foundation

/// Everything the state folder keeps for the next build, as one value: what a store read, and what it
/// compares a save against so that only the difference is written.
struct StateContents: Sendable, Equatable {
    /// The snapshot's index: its records themselves are read when needed (`StateStore.records(at:)`).
    var snapshot: SnapshotIndex?
    /// Newest first, at most `StateStore.historyLimit` entries.
    var history: [HistoryEntry] = []
    var siteID: UUID?
    /// What the last successful build read and reported (see `StateStore.lastBuild`).
    var lastBuild: LastBuild?
    /// The pages' slugs the last successful build handed out (`PageSlugs`), as stored; nil before any was kept.
    var pageSlugs: String?
}
