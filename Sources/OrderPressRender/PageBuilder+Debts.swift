import Foundation
import OrderPressSupport

/// Carried debts where people look (`CarriedDebt`, `RoundPeople`): a page for someone only finished rounds
/// name, "Owed to you" on an organiser's page, the rounds a person took part in, and what the index counts.
extension PageBuilder {
    /// The page of someone with no current order and no rejected row whom a finished round names: what they
    /// still owe from it, what is owed to them, and the rounds.
    func roundOnlyPage(key: String, name: String) -> PageModels.PersonPage {
        let payments = (context.carried[key] ?? []).map(carriedLine)
        let credit = creditLines(ofPerson: key)
        var page = PageModels.PersonPage(
            name: MarkdownEscaper.escape(name), notices: rateNotices, groups: [], ordersPager: nil, totals: [], hasTotals: false,
            tracksPayments: !payments.isEmpty || !credit.isEmpty, payments: payments + credit, settled: payments.isEmpty,
            hasRejected: false, rejected: [])
        addRounds(of: key, to: &page)
        return page
    }

    /// What the finished rounds add to the page of the person of `key`: "Owed to you" and their rounds.
    func addRounds(of key: String, to page: inout PageModels.PersonPage) {
        let rounds = context.rounds
        guard !rounds.named.isEmpty else { return }
        if let owed = rounds.owedTo[key], !owed.isEmpty {
            var total: [String: Decimal] = [:]
            page.owed = owed.map { owed in
                let (debt, archive) = (owed.debt, owed.debt.archive)
                total[debt.currency, default: 0] += debt.amount
                return PageModels.OwedLine(
                    name: MarkdownEscaper.escape(owed.name), link: "\(context.personSlugs[owed.key]!).md",
                    amount: "\(context.money.display(debt.amount, debt.currency)) \(debt.currency)",
                    round: "\(MarkdownEscaper.escape(archive.group)) · \(archive.date)", archive: "../\(archive.path).md")
            }
            (page.hasOwed, page.owedTotal) = (true, context.totalsText(total))
        }
        page.rounds = (rounds.rounds[key] ?? []).map { "[\(MarkdownEscaper.escape($0.group)) · \($0.date)](../\($0.path).md)" }
        page.hasRounds = !page.rounds.isEmpty
    }

    /// What the person of `key` still owes from finished rounds, per currency.
    func carriedTotals(of key: String) -> [String: Decimal] {
        (context.carried[key] ?? []).reduce(into: [:]) { $0[$1.currency, default: 0] += $1.amount }
    }

    /// Every carried debt, per currency: what the index's "to collect" adds.
    var carriedGrandTotals: [String: Decimal] {
        context.carried.values.joined().reduce(into: [:]) { $0[$1.currency, default: 0] += $1.amount }
    }

    /// The index's rows of the people only finished rounds name who still owe something: nothing ordered now,
    /// what they owe, a link to their page.
    func roundDebtorRows() -> [PageModels.PersonRow] {
        let none = "0 \(context.configuration.baseCurrency)"
        return context.roundOnly.compactMap { person in
            let owed = carriedTotals(of: person.key)
            guard !owed.isEmpty else { return nil }
            return PageModels.PersonRow(
                name: MarkdownEscaper.escape(Text.shortened(person.name, to: TextLimits.person)),
                link: "people/\(context.personSlugs[person.key]!).md", orders: 0, totals: none,
                converted: context.configuration.displayCurrencies.map { _ in "–" }, owes: context.totalsText(owed))
        }
    }
}
