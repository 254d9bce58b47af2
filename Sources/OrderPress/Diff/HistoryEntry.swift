/// One run that changed something, as the history, the Changes page and the feed show it.
public struct HistoryEntry: Codable, Sendable, Equatable {
    /// When the run happened (ISO 8601; `SOURCE_DATE_EPOCH` fixes it).
    public var time: String
    public var changes: ChangeSet

    /// Stable across rebuilds: the same run always has the same id.
    public var id: String { "run-\(time.filter { $0.isNumber })" }
}
