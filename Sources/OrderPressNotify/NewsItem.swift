import OrderPressConfig

/// One thing a run found that a person must act on: an order deleted since the last run, a row newly
/// rejected, a source that started or stopped failing, or a build the mass-deletion guard refused.
/// Built from the snapshot's records and redacted failure messages, which hold no secret in plain text.
public struct NewsItem: Sendable, Equatable, Codable {
    /// Declared with the settings that choose kinds (`[notify] print`).
    public typealias Kind = NewsKind

    public var kind: Kind
    /// The sheet row it was (deleted) or is (rejected) on; 0 for news about a source or the guard.
    public var row: Int
    public var id: String?
    public var group: String
    public var person: String
    /// "1 × 熟成紅茶 L 半糖 少冰".
    public var what: String
    /// "35 TWD" for a deleted order; nil for a rejected row, which has no amount.
    public var amount: String?
    /// Why a rejected row is not counted (English, as the terminal shows reasons); for a failing source
    /// or a refused build, its one-line redacted reason.
    public var reasons: [String]
    /// The line in the site's language (with a link to the page about it when `base_url` is set), made
    /// by `NewsText`; nil for an item made without one, which shows `line`.
    public var text: String?

    public init(
        kind: Kind, row: Int, id: String?, group: String, person: String, what: String, amount: String?, reasons: [String],
        text: String? = nil
    ) {
        (self.kind, self.row, self.id, self.group, self.person, self.what) = (kind, row, id, group, person, what)
        (self.amount, self.reasons, self.text) = (amount, reasons, text)
    }

    /// What `--quiet` prints and the webhook's `text` carries: the line in the site's language.
    public var shown: String { text ?? line }

    /// "deleted: row 12 (id 11) Ben: 1 × 熟成紅茶 L 半糖 少冰 · 週五下午茶 · 35 TWD", or
    /// "rejected: row 18 Ben: 1 × 熟成紅茶 · 週五下午茶 · price must not be negative".
    /// Not yet escaped for a terminal: the printer does that. What the row does not name is left out
    /// ("rejected: row 32: person is missing …" for a checkbox ticked on an empty row), not printed empty.
    public var line: String {
        guard kind == .deleted || kind == .rejected else { return "\(kind.rawValue): \(reasons.joined(separator: "; "))" }
        let id = id.map { " (id \($0))" } ?? ""
        let who = person.isEmpty ? "" : " \(person)"
        // `what` is "1 × " and nothing more when the row names no item.
        let item = what.split(separator: "×", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let parts = [item.isEmpty ? "" : what, group, amount ?? reasons.joined(separator: "; ")].filter { !$0.isEmpty }
        return "\(kind.rawValue): row \(row)\(id)\(who): \(parts.joined(separator: " · "))"
    }
}
