import Foundation
import OrderPressDiff
import OrderPressSupport
import OrderPressValidate

/// The finished rounds' pages and links (`RoundArchive`, `[rounds] close_after_deadline`): the archive
/// page's model, the index's list, the group page's links and the Changes page's lines.
extension PageBuilder {
    /// The archives newest first (by deadline day, then group): how the index lists them.
    private var archivesNewestFirst: [RoundArchive] {
        context.archives.sorted { ($0.date, $1.group) > ($1.date, $0.group) }
    }

    /// "[週五下午茶 · 2026-11-21](archive/週五下午茶/2026-11-21.md)", for the index.
    func archiveList() -> [String] {
        archivesNewestFirst.map { "[\(MarkdownEscaper.escape($0.group)) · \($0.date)](\($0.path).md)" }
    }

    /// "[2026-11-21](../archive/…/2026-11-21.md) · …" for a group's page, or nil when it has no archive.
    package func pastRounds(_ group: String) -> String? {
        let links = archivesNewestFirst.filter { $0.group == group }.map { "[\($0.date)](../\($0.path).md)" }
        return links.isEmpty ? nil : links.joined(separator: " · ")
    }

    /// "Round closed: 週五下午茶, 4 orders archived", each linked to its archive, for a run on the Changes page.
    func roundsClosed(_ changes: ChangeSet, at time: String) -> [String] {
        changes.closedRounds.map { round in
            let line = labels.markdown("round_closed_line", ["group": MarkdownEscaper.escape(round.group), "count": String(round.orders)])
            guard let archive = context.archives.first(where: { $0.group == round.group && $0.closedAt == time }) else { return line }
            return "\(line) · [\(labels.markdown("archive"))](\(archive.path).md)"
        }
    }

    /// "[Amy](../../people/amy.md)" from an archive: everyone a round names has a page (`RoundPeople`).
    private func personLink(_ name: String) -> String {
        let escaped = MarkdownEscaper.escape(name)
        guard let slug = context.personSlugs[PersonKey(name).text] else { return escaped }
        return "[\(escaped)](../../people/\(slug).md)"
    }

    package func archive(_ archive: RoundArchive) -> PageModels.ArchivePage {
        let money = context.money
        func text(_ amount: Decimal, _ currency: String) -> String { "\(money.display(amount, currency)) \(currency)" }
        // The shop's order sheet: identical item, options, currency and unit price summed.
        struct Key: Hashable { var item: String; var options: [String]; var currency: String; var unit: Decimal }
        var lines: [Key: (quantity: Int, total: Decimal)] = [:]
        let balances = RoundBalances(archive, money: money, organizerSettled: context.configuration.rounds.organizerSettled)
        let (people, totals, fee, discount) = (balances.people, balances.totals, balances.fee, balances.discount)
        for order in archive.orders {
            let amount = DecimalText.parse(order.amount) ?? 0
            let unit = order.quantity > 0 ? amount / Decimal(order.quantity) : amount
            let key = Key(item: order.item, options: order.options, currency: order.currency, unit: unit)
            lines[key, default: (0, 0)].quantity += order.quantity
            lines[key, default: (0, 0)].total += amount
        }
        /// Nothing shows as zero in the first currency the person (or round) ordered in.
        func joined(_ amounts: [String: Decimal], zeroIn currencies: [String: Decimal] = totals) -> String {
            guard !amounts.isEmpty else { return text(0, currencies.keys.min() ?? "") }
            return amounts.keys.sorted().map { text(amounts[$0]!, $0) }.joined(separator: " + ")
        }
        let shopSheet = lines.map { key, value in
            (ShopLine(item: key.item, options: key.options, quantity: value.quantity).text, key, value.total)
        }.sorted { ($0.0, $0.1.currency) < ($1.0, $1.1.currency) }.map { text_, key, total in
            PageModels.ShopRow(text: MarkdownEscaper.escape(text_), unitPrice: text(key.unit, key.currency), lineTotal: text(total, key.currency))
        }
        let tracksPayments = balances.tracksPayments
        let slug = context.groupSlugs[archive.group]
        return PageModels.ArchivePage(
            title: "\(MarkdownEscaper.escape(archive.group)) · \(archive.date)", group: MarkdownEscaper.escape(archive.group),
            groupLink: slug.map { "../../groups/\($0).md" },
            closed: labels.markdown("archived_round", ["time": context.display(iso: archive.closedAt)]),
            organizer: nonEmpty(personLink(archive.organizer)), shop: nonEmpty(MarkdownEscaper.escape(archive.shop)),
            deadline: nonEmpty(archive.deadline), payment: archive.payment.flatMap { nonEmpty(MarkdownEscaper.escape($0)) },
            shopSheet: shopSheet, fee: fee == 0 ? nil : text(fee, archive.currency ?? ""),
            discount: discount == 0 ? nil : text(discount, archive.currency ?? ""), total: joined(totals), tracksPayments: tracksPayments,
            people: people.keys.sorted().map { key in
                let person = people[key]!
                return PageModels.ArchivePerson(
                    name: MarkdownEscaper.escape(person.name), link: context.personSlugs[key].map { "../../people/\($0).md" }, total: joined(person.totals), paid: joined(person.paid, zeroIn: person.totals),
                    outstanding: joined(person.unpaid, zeroIn: person.totals))
            })
    }
}
