/// What changed between the last snapshot and this run, in valid orders: a rejected row is no order,
/// so it is never added or deleted; an order that turns rejected or valid says so.
public struct ChangeSet: Codable, Sendable, Equatable {
    /// True when there was no snapshot to compare with.
    public var firstRun: Bool
    /// Valid orders of the last run that are no longer in the sheet.
    public var deleted: [RowRecord]
    /// Valid orders that were not in the last run's sheet.
    public var added: [RowRecord]
    /// Valid orders still valid whose values differ.
    public var changed: [Change]
    /// Valid orders of the last run whose row is now rejected, each with its reasons.
    public var noLongerCounted: [Change]
    /// Rows rejected in the last run that are now valid orders.
    public var nowCounted: [Change]
    /// Valid orders of the last run that went with a finished round (`RoundCloser`): not deletions.
    /// Nil when there are none, so that change sets without rounds read and encode as before.
    public var roundClosed: [RowRecord]?

    /// A row matched across runs whose values differ.
    public struct Change: Codable, Sendable, Equatable {
        public var before: RowRecord
        public var after: RowRecord
        /// Column → [before, after]; secret columns show as `•••`.
        public var fields: [String: [String]]
        /// Why the row is now rejected (English), for an order that is no longer counted; nil otherwise.
        public var reasons: [String]?

        public init(before: RowRecord, after: RowRecord, fields: [String: [String]], reasons: [String]? = nil) {
            self.before = before
            self.after = after
            self.fields = fields
            self.reasons = reasons
        }
    }

    public init(
        firstRun: Bool, deleted: [RowRecord], added: [RowRecord], changed: [Change], noLongerCounted: [Change] = [],
        nowCounted: [Change] = []
    ) {
        self.firstRun = firstRun
        self.deleted = deleted
        self.added = added
        self.changed = changed
        self.noLongerCounted = noLongerCounted
        self.nowCounted = nowCounted
    }

    /// Each finished round's group with how many of its orders went, by group name.
    public var closedRounds: [(group: String, orders: Int)] {
        var counts: [String: Int] = [:]
        for record in roundClosed ?? [] { counts[record.group, default: 0] += 1 }
        return counts.keys.sorted().map { ($0, counts[$0]!) }
    }

    public var isEmpty: Bool {
        !firstRun && deleted.isEmpty && added.isEmpty && changed.isEmpty && noLongerCounted.isEmpty && nowCounted.isEmpty
            && (roundClosed ?? []).isEmpty
    }

    /// "3 deleted, 1 no longer counted, 2 added, 1 changed", losses first, or "first run: nothing to compare".
    public var summary: String {
        if firstRun { return "first run: nothing to compare" }
        let parts = [
            (deleted.count, "deleted"), (noLongerCounted.count, "no longer counted"), (added.count, "added"),
            (changed.count, "changed"), (nowCounted.count, "now counted"),
        ]
        let rounds = Set((roundClosed ?? []).map(\.group)).sorted()
        let closed = rounds.isEmpty ? [] : ["round closed: \(rounds.joined(separator: ", "))"]
        return (closed + parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }).joined(separator: ", ")
    }

    enum CodingKeys: String, CodingKey {
        case deleted, added, changed
        case firstRun = "first_run"
        case noLongerCounted = "no_longer_counted"
        case nowCounted = "now_counted"
        case roundClosed = "round_closed"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        firstRun = try container.decode(Bool.self, forKey: .firstRun)
        deleted = try container.decode([RowRecord].self, forKey: .deleted)
        added = try container.decode([RowRecord].self, forKey: .added)
        changed = try container.decode([Change].self, forKey: .changed)
        roundClosed = try container.decodeIfPresent([RowRecord].self, forKey: .roundClosed)
        if let noLongerCounted = try container.decodeIfPresent([Change].self, forKey: .noLongerCounted),
            let nowCounted = try container.decodeIfPresent([Change].self, forKey: .nowCounted)
        {
            (self.noLongerCounted, self.nowCounted) = (noLongerCounted, nowCounted)
        } else {
            // Saved by a version that listed rejected rows as added, deleted and changed orders: read as
            // this one tells them, so that the Changes page of an upgraded site shows no row as an order.
            deleted.removeAll(where: \.rejected)
            added.removeAll(where: \.rejected)
            noLongerCounted = changed.filter { !$0.before.rejected && $0.after.rejected }
            nowCounted = changed.filter { $0.before.rejected && !$0.after.rejected }
            changed.removeAll { $0.before.rejected || $0.after.rejected }
        }
    }

    /// Every record's secret hashes made unknown: what the history keeps of an older state's salted hashes.
    mutating func forgetSecretHashes() {
        func forget(_ record: inout RowRecord) {
            record.secrets = record.secrets.map { $0 == .empty ? .empty : .unknown }
        }
        for index in deleted.indices { forget(&deleted[index]) }
        for index in added.indices { forget(&added[index]) }
        for list in [\ChangeSet.changed, \ChangeSet.noLongerCounted, \ChangeSet.nowCounted] {
            for index in self[keyPath: list].indices {
                forget(&self[keyPath: list][index].before)
                forget(&self[keyPath: list][index].after)
            }
        }
        if var closed = roundClosed {
            for index in closed.indices { forget(&closed[index]) }
            roundClosed = closed
        }
    }
}
