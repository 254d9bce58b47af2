import Foundation

/// Everything the state folder keeps for the next build, as one value: what a store read, and what it
/// compares a save against so that only the difference is written.
struct StateContents: Sendable, Equatable {
    var snapshot: Snapshot?
    /// Newest first, at most `StateStore.historyLimit` entries.
    var history: [HistoryEntry] = []
    var siteID: UUID?
    /// The last successful build's fingerprint (see `StateStore.lastBuildFingerprint`).
    var fingerprint: String?
}
