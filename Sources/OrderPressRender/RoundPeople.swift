import Foundation
import OrderPressDiff
import OrderPressValidate

/// Everyone a finished round (`RoundArchive`) names — who ordered in it and who organised it — and, beside
/// the carried debts (`CarriedDebt.byPerson`), who is owed what. Everyone an archive names keeps a page, so
/// that the archive's links and a member's bookmark keep working after the rows are cleared: their own
/// when they still order or have rejected rows, else one made from the rounds alone (what they still owe,
/// what is owed to them, the rounds they took part in), never a tombstone while money is open.
package struct RoundPeople: Sendable {
    /// A carried debt seen from the organiser it is owed to.
    package struct Owed: Sendable {
        /// The debtor's key (`PersonKey.text`) and name as the round had it.
        package var key: String
        package var name: String
        package var debt: CarriedDebt
    }

    /// Each person an archive names, by key, with the name the newest of them wrote.
    package let named: [(key: String, name: String)]
    /// By the organiser's key: the carried debts owed to them, oldest first (as `CarriedDebt.byPerson`
    /// orders them), then by the debtor's key. Never a debt a person owes themselves.
    package let owedTo: [String: [Owed]]
    /// By person key: the archives naming them, newest first (by deadline day, then group).
    package let rounds: [String: [RoundArchive]]

    package static let none = RoundPeople(named: [], owedTo: [:], rounds: [:])

    private init(named: [(key: String, name: String)], owedTo: [String: [Owed]], rounds: [String: [RoundArchive]]) {
        (self.named, self.owedTo, self.rounds) = (named, owedTo, rounds)
    }

    package init(_ archives: [RoundArchive], carried: [String: [CarriedDebt]]) {
        guard !archives.isEmpty else {
            self = .none
            return
        }
        self.named = Self.named(in: archives)
        var rounds: [String: [RoundArchive]] = [:]
        for archive in archives.sorted(by: { ($0.date, $1.group, $0.path) > ($1.date, $0.group, $1.path) }) {
            var keys = Set(archive.orders.map { PersonKey($0.person).text })
            keys.insert(PersonKey(archive.organizer).text)
            for key in keys.sorted() where !key.isEmpty { rounds[key, default: []].append(archive) }
        }
        self.rounds = rounds
        var owedTo: [String: [(order: Int, owed: Owed)]] = [:]
        for (key, debts) in carried {
            for (order, debt) in debts.enumerated() {
                let creditor = PersonKey(debt.archive.organizer).text
                guard !creditor.isEmpty, creditor != key else { continue }
                let name = debt.archive.orders.first { PersonKey($0.person).text == key }?.person ?? key
                owedTo[creditor, default: []].append((order, Owed(key: key, name: name, debt: debt)))
            }
        }
        self.owedTo = owedTo.mapValues { list in
            list.sorted {
                let (a, b) = ($0.owed.debt.archive, $1.owed.debt.archive)
                return (a.closedAt, a.group, a.path, $0.owed.key, $0.order) < (b.closedAt, b.group, b.path, $1.owed.key, $1.order)
            }.map(\.owed)
        }
    }

    /// Each person `archives` name (orderers and organisers), in key order, with the name the newest
    /// archive wrote: what `SiteSlugs` hands a page to when nothing else does.
    package static func named(in archives: [RoundArchive]) -> [(key: String, name: String)] {
        var names: [String: String] = [:]
        for archive in archives.sorted(by: { ($0.closedAt, $0.group, $0.path) < ($1.closedAt, $1.group, $1.path) }) {
            for name in [archive.organizer] + archive.orders.map(\.person) {
                let key = PersonKey(name).text
                if !key.isEmpty { names[key] = name }
            }
        }
        return names.keys.sorted().map { ($0, names[$0]!) }
    }
}
