import Foundation

/// Everything the state folder keeps for the next build, as one value: what a store read, and what it
/// compares a save against so that only the difference is written.
package struct StateContents: Sendable, Equatable {
    /// The snapshot's index: its records themselves are read when needed (`StateStore.records(at:)`).
    package var snapshot: SnapshotIndex?
    /// Newest first, at most `StateStore.historyLimit` entries.
    package var history: [HistoryEntry] = []
    /// The first history entry whose feed id is made of its number (`HistoryEntry.numbered`): the entries
    /// before it were saved by a version that made ids of their times. Nil until the first save sets it.
    var numberedFrom: Int?
    var siteID: UUID?
    /// What the last successful build read and reported (see `StateStore.lastBuild`).
    package var lastBuild: LastBuild?
    /// The pages' slugs the last successful build handed out (`PageSlugs`), as stored; nil before any was kept.
    package var pageSlugs: String?
    /// The finished rounds' archives (`RoundArchive`), as stored; nil before the first.
    package var archives: String?
    /// When the last snapshot was made and since when refused runs found orders missing (`RoundWatch`), as stored.
    package var roundWatch: String?
    /// The deletions tombstones may list (`RecentDeletions`), as stored; nil before the first was kept.
    package var deletions: String?
}
