/// The rejected rows by the person and the group their cells name, for the person pages ("not
/// counted — fix it in the sheet or ask …") and the group pages' count. A row whose cells are not
/// shown (malformed, shifted) names nobody and stays on the Attention page only.
struct RejectedIndex: Sendable {
    /// By person key (`Text.lowercased` of the name), in sheet order.
    let byPerson: [String: [RejectedRow]]
    /// How many rejected rows name each group.
    let countByGroup: [String: Int]

    init(_ rejected: [RejectedRow], columns: Configuration.OrderColumns) {
        var byPerson: [String: [RejectedRow]] = [:]
        var countByGroup: [String: Int] = [:]
        for row in rejected {
            let person = row.value(of: columns.person)
            if !person.isEmpty { byPerson[Text.lowercased(person), default: []].append(row) }
            let group = row.value(of: columns.group)
            if !group.isEmpty { countByGroup[group, default: 0] += 1 }
        }
        self.byPerson = byPerson
        self.countByGroup = countByGroup
    }
}

extension RejectedRow {
    /// The (normalised) cell of `column`, or "" when the row does not show it.
    func value(of column: String) -> String {
        values.first { $0.column == column }?.value ?? ""
    }
}
