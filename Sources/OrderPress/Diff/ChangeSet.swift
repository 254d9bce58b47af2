/// What changed between the last snapshot and this run.
public struct ChangeSet: Codable, Sendable, Equatable {
    /// True when there was no snapshot to compare with.
    public var firstRun: Bool
    public var deleted: [RowRecord]
    public var added: [RowRecord]
    public var changed: [Change]

    /// A row matched across runs whose values differ.
    public struct Change: Codable, Sendable, Equatable {
        public var before: RowRecord
        public var after: RowRecord
        /// Column → [before, after]; secret columns show as `•••`.
        public var fields: [String: [String]]
    }

    public var isEmpty: Bool { !firstRun && deleted.isEmpty && added.isEmpty && changed.isEmpty }

    /// "3 deleted, 2 added, 1 changed", or "first run: nothing to compare".
    public var summary: String {
        if firstRun { return "first run: nothing to compare" }
        let parts = [(deleted.count, "deleted"), (added.count, "added"), (changed.count, "changed")]
        return parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    enum CodingKeys: String, CodingKey {
        case deleted, added, changed
        case firstRun = "first_run"
    }
}
