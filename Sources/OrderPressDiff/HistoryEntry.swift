/// One run that changed something, as the history, the Changes page and the feed show it.
public struct HistoryEntry: Codable, Sendable, Equatable {
    /// When the run happened (ISO 8601; `SOURCE_DATE_EPOCH` fixes it).
    public var time: String
    public var changes: ChangeSet
    /// The entry's number in the site's history, counting from 1, one more than the entry before it:
    /// two runs in the same second (or with a pinned `SOURCE_DATE_EPOCH`) still differ by it.
    public var sequence: Int
    /// False for an entry an earlier version saved, whose feed id was made of its time: it keeps that id,
    /// so that a feed reader does not show it again as new after an upgrade.
    public var numbered: Bool

    public init(time: String, changes: ChangeSet, sequence: Int, numbered: Bool = true) {
        self.time = time
        self.changes = changes
        self.sequence = sequence
        self.numbered = numbered
    }

    /// The entry after `previous` (the history's newest, nil for the first).
    public init(time: String, changes: ChangeSet, after previous: HistoryEntry?) {
        self.init(time: time, changes: changes, sequence: (previous?.sequence ?? 0) + 1)
    }

    /// Unique in the site and stable across rebuilds: the same entry always has the same id.
    public var id: String { numbered ? "entry-\(sequence)" : "run-\(time.filter { $0.isNumber })" }

    enum CodingKeys: String, CodingKey {
        case time, changes, sequence
    }

    /// `history.json`, written before the state database, has no numbers: 0 until the file is read whole
    /// (`LegacyStateFiles.history()` numbers its entries), and its entries keep their ids of before.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        time = try container.decode(String.self, forKey: .time)
        changes = try container.decode(ChangeSet.self, forKey: .changes)
        sequence = try container.decodeIfPresent(Int.self, forKey: .sequence) ?? 0
        numbered = false
    }
}
