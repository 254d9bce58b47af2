/// One thing a run found that a person must act on: an order deleted since the last run, or a row
/// newly rejected. Built from the snapshot's records, which hold no secret in plain text.
public struct NewsItem: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case deleted, rejected
    }

    public var kind: Kind
    /// The sheet row it was (deleted) or is (rejected) on.
    public var row: Int
    public var id: String?
    public var group: String
    public var person: String
    /// "1 × 熟成紅茶 L 半糖 少冰".
    public var what: String
    /// "35 TWD" for a deleted order; nil for a rejected row, which has no amount.
    public var amount: String?
    /// Why a rejected row is not counted (English, as the terminal shows reasons).
    public var reasons: [String]

    /// "deleted: row 12 (id 11) Ben: 1 × 熟成紅茶 L 半糖 少冰 · 週五下午茶 · 35 TWD", or
    /// "rejected: row 18 Ben: 1 × 熟成紅茶 · 週五下午茶 · price must not be negative".
    /// Not yet escaped for a terminal: the printer does that. What the row does not name is left out
    /// ("rejected: row 32: person is missing …" for a checkbox ticked on an empty row), not printed empty.
    public var line: String {
        let id = id.map { " (id \($0))" } ?? ""
        let who = person.isEmpty ? "" : " \(person)"
        // `what` is "1 × " and nothing more when the row names no item.
        let item = what.split(separator: "×", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let parts = [item.isEmpty ? "" : what, group, amount ?? reasons.joined(separator: "; ")].filter { !$0.isEmpty }
        return "\(kind.rawValue): row \(row)\(id)\(who): \(parts.joined(separator: " · "))"
    }
}
