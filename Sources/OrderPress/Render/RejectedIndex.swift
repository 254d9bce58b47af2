/// The rejected rows by the person and the group their cells name, for the person pages ("not
/// counted — ask … or answer the form again") and the group pages' count. A row whose cells are not
/// shown (malformed, shifted) names nobody and stays on the Attention page only.
struct RejectedIndex: Sendable {
    /// By person key (`RejectedRow.personKey`), in sheet order.
    let byPerson: [String: [RejectedRow]]
    /// How many rejected rows name each group.
    let countByGroup: [String: Int]

    /// The people the rejected rows name who have no valid order (so no page of their own otherwise), by
    /// key with their name as first written, in sheet order: each gets a page listing their rejected rows.
    let onlyRejected: [(key: String, name: String)]

    init(_ rejected: [RejectedRow], orders: [Order]) {
        var byPerson: [String: [RejectedRow]] = [:]
        var countByGroup: [String: Int] = [:]
        for row in rejected {
            if !row.personKey.isEmpty { byPerson[row.personKey, default: []].append(row) }
            if !row.group.isEmpty { countByGroup[row.group, default: 0] += 1 }
        }
        self.byPerson = byPerson
        self.countByGroup = countByGroup
        onlyRejected = Self.peopleOnlyRejected(rejected, orders: orders)
    }

    /// See `onlyRejected`; a scan of the orders' keys only when some rejected row names a person.
    static func peopleOnlyRejected(_ rejected: [RejectedRow], orders: [Order]) -> [(key: String, name: String)] {
        guard rejected.contains(where: { !$0.personKey.isEmpty }) else { return [] }
        let known = Set(orders.lazy.map(\.personKey))
        var seen = Set<String>()
        var found: [(key: String, name: String)] = []
        for row in rejected where !row.personKey.isEmpty {
            if !known.contains(row.personKey), seen.insert(row.personKey).inserted { found.append((row.personKey, row.person)) }
        }
        return found
    }
}

extension RejectedRow {
    /// The (normalised) cell of `column`, or "" when the row does not show it.
    func value(of column: String) -> String {
        values.first { $0.column == column }?.value ?? ""
    }
}
