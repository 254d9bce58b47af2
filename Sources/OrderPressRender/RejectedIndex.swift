import OrderPressValidate

/// The rejected rows by the person and the group their cells name, for the person pages ("not
/// counted — ask … or answer the form again") and the group pages' count. A row whose cells are not
/// shown (malformed, shifted) names nobody and stays on the Attention page only.
package struct RejectedIndex: Sendable {
    /// By person key (`RejectedRow.personKey`), in sheet order.
    package let byPerson: [String: [RejectedRow]]
    /// How many rejected rows name each group.
    package let countByGroup: [String: Int]
    /// The people the rejected rows of each group name, once each by key with their name as shown, in sheet
    /// order: the group page links their pages, which list the rows and what to do.
    package let peopleByGroup: [String: [(key: String, name: String)]]

    /// The people the rejected rows name who have no valid order (so no page of their own otherwise), by
    /// key with their name as shown (`PersonSpellings`), in sheet order: each gets a page listing their rejected rows.
    let onlyRejected: [(key: String, name: String)]

    init(_ rejected: [RejectedRow], orders: [Order], spellings: PersonSpellings = PersonSpellings()) {
        var byPerson: [String: [RejectedRow]] = [:]
        var countByGroup: [String: Int] = [:]
        var peopleByGroup: [String: [(key: String, name: String)]] = [:]
        var seen = Set<[String]>()
        for row in rejected {
            if !row.personKey.isEmpty { byPerson[row.personKey.text, default: []].append(row) }
            if !row.group.isEmpty { countByGroup[row.group, default: 0] += 1 }
            if !row.group.isEmpty, !row.personKey.isEmpty, seen.insert([row.group, row.personKey.text]).inserted {
                peopleByGroup[row.group, default: []].append((row.personKey.text, spellings.shown(row.personKey.text, else: row.person)))
            }
        }
        self.byPerson = byPerson
        self.countByGroup = countByGroup
        self.peopleByGroup = peopleByGroup
        onlyRejected = Self.peopleOnlyRejected(rejected, orders: orders).map { ($0.key, spellings.shown($0.key, else: $0.name)) }
    }

    /// See `onlyRejected`; a scan of the orders' keys only when some rejected row names a person.
    static func peopleOnlyRejected(_ rejected: [RejectedRow], orders: [Order]) -> [(key: String, name: String)] {
        guard rejected.contains(where: { !$0.personKey.isEmpty }) else { return [] }
        let known = Set(orders.lazy.map(\.personKey))
        var seen = Set<PersonKey>()
        var found: [(key: String, name: String)] = []
        for row in rejected where !row.personKey.isEmpty {
            if !known.contains(row.personKey), seen.insert(row.personKey).inserted { found.append((row.personKey.text, row.person)) }
        }
        return found
    }
}

extension RejectedRow {
    /// The (normalised) cell of `column`, or "" when the row does not show it.
    package func value(of column: String) -> String {
        values.first { $0.column == column }?.value ?? ""
    }
}
