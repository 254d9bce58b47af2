import Foundation
import OrderPressAggregate
import OrderPressCatalogue
import OrderPressDiff
import OrderPressSupport
import OrderPressValidate

/// Builds the view model of each page from the aggregated data.
package struct PageBuilder: Sendable {
    package let context: SiteContext
    /// What every summary page shows of the rates, made once rather than for each of them.
    package let rateNotices: [String]
    /// "all in USD", by display currency, for every totals table.
    private let allIn: [String: String]
    /// By place in `data.groups`: the group's name and organizer as the pay-to sentence shows them.
    private let payees: [(organizer: String, group: String)]
    /// "{amount} to {organizer} for {group}", and the words for a group without an organizer.
    private let payTo: Labels.Filler
    private let theOrganizer: String
    /// The heading of a group's recent deletions: it names the latest run.
    let deletedHeading: String
    /// What the built-in templates write the same on every page.
    let builtIn: BuiltInPages.Shared

    package init(context: SiteContext) {
        self.context = context
        let labels = context.labels
        rateNotices = context.rateNotices
        allIn = Dictionary(
            context.configuration.displayCurrencies.map { ($0, labels.markdown("all_in", ["currency": $0])) },
            uniquingKeysWith: { first, _ in first })
        payTo = labels.markdownFiller("pay_to", names: ["amount", "organizer", "group"])
        let theOrganizer = labels.markdown("the_organizer")
        self.theOrganizer = theOrganizer
        payees = context.data.groups.map { group in
            (group.organizer.isEmpty ? theOrganizer : MarkdownEscaper.escape(group.organizer), MarkdownEscaper.escape(group.name))
        }
        deletedHeading = labels.markdown("deleted_latest", ["time": context.history.first.map { context.display(iso: $0.time) } ?? ""])
        builtIn = BuiltInPages.Shared(context)
    }

    private func escape(_ text: String) -> String { MarkdownEscaper.escape(text) }
    package var labels: Labels { context.labels }
    /// Summary pages shorten over-long text; person and Attention pages show it whole.
    private func short(_ text: String, _ limit: Int) -> String { escape(Text.shortened(text, to: limit)) }

    package func index() -> PageModels.IndexPage {
        var notices: [String] = []
        if !context.data.rejected.isEmpty {
            notices.append(
                labels.markdown("rejected_notice", ["count": String(context.data.rejected.count)])
                    + " [\(labels.markdown("attention"))](attention.md)")
        }
        notices += rateNotices
        let groupPages = context.listPages(.groups)
        let peoplePages = context.listPages(.people)
        let groups = groupRows(groupPages.rows(ofPage: 1))
        // Someone whose only rows were rejected owes nothing, but must find the page that says why.
        // Someone whose round closed while they still owed is listed too, with what they owe.
        let people = personRows(peoplePages.rows(ofPage: 1)) + roundDebtorRows() + rejectedOnlyRows()
        let aggregation = context.aggregation
        var grand = aggregation.grandTotals
        var outstanding = aggregation.tracksPayments ? aggregation.grandOutstanding : [:]
        var convertedOutstanding = aggregation.convertedGrandOutstanding
        let carried = carriedGrandTotals
        if !carried.isEmpty {
            // What finished rounds left owed is still to collect.
            for (currency, amount) in carried {
                outstanding[currency, default: 0] += amount
                grand[currency, default: 0] += 0
            }
            convertedOutstanding = Converter(rates: context.rates, money: context.money)
                .converted(outstanding, into: context.configuration.displayCurrencies)
        }
        return PageModels.IndexPage(
            title: escape(context.configuration.title),
            dataAsOf: labels.markdown("data_as_of", ["time": context.dataAsOfText]),
            attentionCount: context.attentionCount, latest: latest(), notices: notices,
            displayCurrencies: context.configuration.displayCurrencies, hasGroups: !groups.isEmpty, groups: groups,
            hasOrders: !grand.isEmpty, grandTotals: totalRows(
                grand, outstanding: outstanding, converted: aggregation.convertedGrandTotals,
                convertedOutstanding: convertedOutstanding),
            hasPeople: !people.isEmpty, people: people, tracksPayments: tracksPayments,
            groupPager: groupPages.pager(page: 1, labels: labels), peoplePager: peoplePages.pager(page: 1, labels: labels),
            archives: archiveList(), hasArchives: !context.archives.isEmpty)
    }

    /// Page `page` of the list of every group; the index is page 1.
    func groupList(page: Int) -> PageModels.GroupListPage {
        let pages = context.listPages(.groups)
        return PageModels.GroupListPage(
            title: labels.markdown("groups_page", ["page": String(page), "pages": String(pages.pageCount)]), notices: rateNotices,
            pager: pages.pager(page: page, labels: labels) ?? "", displayCurrencies: context.configuration.displayCurrencies,
            tracksPayments: context.aggregation.tracksPayments, groups: groupRows(pages.rows(ofPage: page)))
    }

    /// Page `page` of the list of every person; the index is page 1.
    func peopleList(page: Int) -> PageModels.PeopleListPage {
        let pages = context.listPages(.people)
        return PageModels.PeopleListPage(
            title: labels.markdown("people_page", ["page": String(page), "pages": String(pages.pageCount)]), notices: rateNotices,
            pager: pages.pager(page: page, labels: labels) ?? "", displayCurrencies: context.configuration.displayCurrencies,
            people: personRows(pages.rows(ofPage: page)), tracksPayments: tracksPayments)
    }

    /// Whether the lists of people show what each still owes: with a `paid` column, or debts carried from
    /// finished rounds.
    private var tracksPayments: Bool { context.aggregation.tracksPayments || !context.carried.isEmpty }

    /// Rows of the groups table, with links from a page at the top of the site.
    private func groupRows(_ range: Range<Int>) -> [PageModels.GroupRow] {
        let money = context.money
        return context.aggregation.groups[range].map { summary in
            let digits = money.minorUnits(summary.currency)
            let total = "\(money.display(summary.total, digits: digits)) \(summary.currency)"
            let outstanding = summary.outstanding
            return PageModels.GroupRow(
                name: short(summary.group.name, 60), link: "groups/\(context.groupSlugs[summary.group.name]!).md",
                shop: short(summary.group.shop, 60), organizer: short(summary.group.organizer, 30),
                deadline: deadline(summary.group), orders: summary.orders.count, items: summary.items,
                total: total, converted: context.converted(summary.converted),
                // Nothing paid yet, most often: the same text as the total, not written again.
                outstanding: outstanding == summary.total ? total : "\(money.display(outstanding, digits: digits)) \(summary.currency)")
        }
    }

    /// Rows of the people table, with links from a page at the top of the site.
    private func personRows(_ range: Range<Int>) -> [PageModels.PersonRow] {
        context.aggregation.people[range].map { person in
            let (totals, owes) = totalsAndOwes(person)
            return PageModels.PersonRow(
                name: short(person.name, TextLimits.person), link: "people/\(context.personSlugs[person.key]!).md",
                orders: person.orders.count, totals: totals, converted: context.converted(person.converted), owes: owes)
        }
    }

    /// A person's row's "125 TWD + 10.25 USD" and what they still owe (`owesText(owed(by:))`), from their
    /// shares by currency: each amount written once, what they owe taking the total's text where it is the
    /// total (nothing paid), without the two dictionaries of each. Someone with debts carried from finished
    /// rounds adds them (`owed(by:)`).
    private func totalsAndOwes(_ person: PersonSummary) -> (totals: String, owes: String) {
        guard context.carried[person.key] == nil else { return (context.totalsText(person.totals), owesText(owed(by: person))) }
        let money = context.money
        var shares = person.currencyShares
        // In code order, as `totalsText` sorts the keys of its dictionary (currencies are unique among the shares).
        if shares.count > 1 { shares.sort { $0.currency < $1.currency } }
        let tracks = context.aggregation.tracksPayments
        var (totals, owes, zeros) = ("", "", "")
        for share in shares {
            let digits = money.minorUnits(share.currency)
            let total = "\(money.display(share.total, digits: digits)) \(share.currency)"
            if !totals.isEmpty { totals += " + " }
            totals += total
            let owed = tracks ? share.outstanding : 0
            if owed != 0 {
                if !owes.isEmpty { owes += " + " }
                owes += owed == share.total ? total : "\(money.display(owed, digits: digits)) \(share.currency)"
            } else if owes.isEmpty {
                // Shown only when nothing is owed in any currency: "0 TWD".
                if !zeros.isEmpty { zeros += " + " }
                zeros += "\(money.display(0, digits: digits)) \(share.currency)"
            }
        }
        return (totals, owes.isEmpty ? zeros : owes)
    }

    /// The index's rows of the people known only from rejected rows: ⚠, nothing counted, nothing owed, a link
    /// to their page (which lists their rows and what to do).
    private func rejectedOnlyRows() -> [PageModels.PersonRow] {
        let base = context.configuration.baseCurrency
        let none = "0 \(base)"
        return context.rejected.onlyRejected.map { person in
            let carried = carriedTotals(of: person.key)
            return PageModels.PersonRow(
                name: "⚠ " + short(person.name, TextLimits.person), link: "people/\(context.personSlugs[person.key]!).md", orders: 0,
                totals: none, converted: context.configuration.displayCurrencies.map { _ in "–" },
                owes: carried.isEmpty ? none : context.totalsText(carried))
        }
    }

    /// What `person` still owes: their unpaid orders (with a `paid` column) and what finished rounds left owed.
    private func owed(by person: PersonSummary) -> [String: Decimal] {
        var owed = context.aggregation.tracksPayments ? person.outstanding : person.totals.mapValues { _ in 0 }
        guard !context.carried.isEmpty else { return owed }
        for (currency, amount) in carriedTotals(of: person.key) { owed[currency, default: 0] += amount }
        return owed
    }

    /// "98 TWD + 9.79 USD": what a person still owes, in the currencies where it is not zero (all of them
    /// when it is zero in each: "0 TWD").
    private func owesText(_ outstanding: [String: Decimal]) -> String {
        let owed = outstanding.filter { $0.value != 0 }
        return context.totalsText(owed.isEmpty ? outstanding : owed)
    }

    /// How many deletions the index lists before pointing to the Changes page.
    static let indexDeletions = 10

    private func latest() -> PageModels.Latest? {
        guard let entry = context.history.first else { return nil }
        let deleted = entry.changes.deleted
        return PageModels.Latest(
            time: context.display(iso: entry.time), summary: escape(labels.summary(entry.changes)),
            deleted: deleted.prefix(Self.indexDeletions).map { "\(deletionLine($0)) · \(escape($0.group))" },
            moreDeleted: more(deleted.count, shown: Self.indexDeletions, "more_deleted"))
    }

    /// Each currency's exact total, then the whole in each display currency, with what is still unpaid.
    private func totalRows(
        _ totals: [String: Decimal], outstanding: [String: Decimal], converted: [ConvertedAmount],
        convertedOutstanding: [ConvertedAmount]
    ) -> [PageModels.TotalRow] {
        let money = context.money
        return totals.keys.sorted().map {
            PageModels.TotalRow(
                label: $0, amount: money.display(totals[$0]!, $0), outstanding: money.display(outstanding[$0] ?? 0, $0))
        } + convertedRows(converted, outstanding: convertedOutstanding)
    }

    /// A person's totals table, from the summary's shares rather than dictionaries made of them.
    func totalRows(of person: PersonSummary) -> [PageModels.TotalRow] {
        let money = context.money
        // Currencies are unique among the shares: sorted as the dictionaries' keys would be.
        return person.currencyShares.sorted { $0.currency < $1.currency }.map {
            PageModels.TotalRow(
                label: $0.currency, amount: money.display($0.total, $0.currency), outstanding: money.display($0.outstanding, $0.currency))
        } + convertedRows(person.converted, outstanding: person.convertedOutstanding)
    }

    /// The rows of a totals table in each display currency.
    private func convertedRows(_ converted: [ConvertedAmount], outstanding: [ConvertedAmount]) -> [PageModels.TotalRow] {
        let money = context.money
        return zip(converted, outstanding).map { total, unpaid in
            PageModels.TotalRow(label: allIn(total.currency), amount: money.display(total), outstanding: money.display(unpaid))
        }
    }

    /// What the cells of one page share while it is written (`PageCell`): made for each page.
    private func pageFormat() -> PageFormat { PageFormat(context, lateMark: builtIn.lateMark) }

    func groupPage(_ summary: GroupSummary) -> PageModels.GroupPage {
        let money = context.money
        let currency = summary.currency
        let slug = context.groupSlugs[summary.group.name]!
        let recentDeletions = context.latestDeletions[summary.group.name] ?? []
        let (pages, format) = (context.orderPages(summary), pageFormat())
        return PageModels.GroupPage(
            name: escape(summary.group.name), organizer: nonEmpty(escape(summary.group.organizer)),
            shop: nonEmpty(escape(summary.group.shop)), deadline: nonEmpty(deadline(summary.group)), currency: currency,
            payment: summary.group.payment.isEmpty ? nil : escape(summary.group.payment),
            fee: summary.fee == 0 ? nil : money.display(summary.fee, currency),
            discount: summary.discount == 0 ? nil : money.display(summary.discount, currency),
            notCounted: notCounted(summary.group), notices: rateNotices, hasRecentDeletions: !recentDeletions.isEmpty,
            // Only with deletions to show: the heading names the latest run, and a group page
            // without any must not depend on it (`PageKeys`).
            deletedHeading: recentDeletions.isEmpty ? "" : deletedHeading,
            recentDeletions: recentDeletions.map(deletionLine), hasOrders: !summary.orders.isEmpty,
            shopSheet: shopSheet(summary, format: format),
            totalHeading: labels.markdown("total_in", ["currency": currency]), itemsOrders: itemsOrders(summary),
            total: "\(money.display(summary.total, currency)) \(currency)",
            totalConverted: otherCurrencies(summary.converted, besides: currency),
            displayCurrencies: context.configuration.displayCurrencies,
            tracksPayments: context.aggregation.tracksPayments, outstanding: outstanding(summary),
            people: groupPeople(summary, rows: pages.peopleRows(ofPage: 1), format: format),
            chart: "\(slug).svg", chartTitle: labels.markdown("per_person"),
            orders: orderLines(summary, rows: pages.rows(ofPage: 1), format: format), ordersPager: pages.pager(page: 1, labels: labels),
            pastRounds: pastRounds(summary.group.name),
            rejectedNotice: rejectedNotice(ofGroup: summary.group.name))
    }

    /// Page `page` (from 2) of a group's people and orders.
    func groupOrdersPage(_ summary: GroupSummary, page: Int) -> PageModels.GroupOrdersPage {
        let (pages, format) = (context.orderPages(summary), pageFormat())
        return PageModels.GroupOrdersPage(
            title: context.orderPagesHeading(summary, page: page), name: escape(summary.group.name),
            groupLink: "\(pages.name(ofPage: 1)).md", pager: pages.pager(page: page, labels: labels) ?? "",
            tracksPayments: context.aggregation.tracksPayments, totalHeading: labels.markdown("total_in", ["currency": summary.currency]),
            displayCurrencies: context.configuration.displayCurrencies, hasPeople: !pages.peopleRows(ofPage: page).isEmpty,
            people: groupPeople(summary, rows: pages.peopleRows(ofPage: page), format: format),
            hasOrders: !pages.rows(ofPage: page).isEmpty, orders: orderLines(summary, rows: pages.rows(ofPage: page), format: format))
    }

    /// The lines of a group's shop sheet, read from the summary as the page is written.
    private func shopSheet(_ summary: GroupSummary, format: PageFormat) -> PageRows<PageModels.ShopSheetLine> {
        let (lines, currency) = (summary.shopSheet, summary.currency)
        return PageRows(count: lines.count) { index, body in
            lines.withUnsafeBufferPointer { lines in
                let line = lines.baseAddress! + index
                func cell(_ field: ShopLineCell.Field) -> ShopLineCell { ShopLineCell(line: line, field: field, currency: currency, format: format) }
                body(PageModels.ShopSheetLine(text: cell(.text), unitPrice: cell(.unitPrice), lineTotal: cell(.lineTotal)))
            }
        }
    }

    /// The per-person totals of a group's people at `rows` (positions in its list: a page of `GroupOrderPages`).
    private func groupPeople(_ summary: GroupSummary, rows: Range<Int>, format: PageFormat) -> PageRows<PageModels.GroupPerson> {
        let (people, currency, slugs) = (summary.people, summary.currency, context.personSlugs)
        return PageRows(count: rows.count) { index, body in
            let person = people[rows.lowerBound + index]
            func money(_ amount: Decimal) -> MoneyCell { MoneyCell(amount: amount, currency: currency, withCurrency: false, format: format) }
            body(
                PageModels.GroupPerson(
                    name: TextCell(text: person.name, limit: TextLimits.person), link: LinkCell(folder: "../people/", slug: slugs[person.key]!),
                    orders: person.orders, total: money(person.total),
                    converted: person.converted.map { ConvertedCell(converted: $0, withCurrency: false, format: format) },
                    paid: money(person.paid), outstanding: money(person.outstanding)))
        }
    }

    /// The lines of a group's orders at `rows` (positions in its list: a page of `GroupOrderPages`), each
    /// order read where it is stored as its line is written.
    private func orderLines(_ summary: GroupSummary, rows: Range<Int>, format: PageFormat) -> PageRows<PageModels.OrderLine> {
        let (orders, settled) = (summary.orders, settledKey(of: summary.group))
        return PageRows(count: rows.count) { index, body in
            orders.withOrder(at: rows.lowerBound + index) { body(Self.orderLine($0, shortened: true, settled: settled, format: format)) }
        }
    }

    /// "(24 items, 21 orders)".
    func itemsOrders(_ summary: GroupSummary) -> String {
        labels.markdown("items_and_orders", [
            "items": labels.markdown("item_count", ["count": String(summary.items)]),
            "orders": labels.markdown("order_count", ["count": String(summary.orders.count)]),
        ])
    }

    /// "Still to collect: **310 TWD**".
    package func outstanding(_ summary: GroupSummary) -> String {
        labels.markdown(
            "outstanding_total", ["amount": "**\(context.money.display(summary.outstanding, summary.currency)) \(summary.currency)**"])
    }

    func personPage(_ person: PersonSummary) -> PageModels.PersonPage {
        let pages = context.personPages(person)
        let shares = placedShares(person)
        let groups = personGroups(person, shares: shares, rows: pages.pageCount == 1 ? nil : pages.rows(ofPage: 1), format: pageFormat())
        let rejected = rejectedLines(ofPerson: person.key)
        let carried = context.carried[person.key] ?? []
        let payments = shares.compactMap { place, share in
            share.owed.map { PageModels.PaymentLine(text: payment(of: $0, toGroupAt: place), payment: paymentDetails(ofGroupAt: place)) }
        } + carried.map(carriedLine)
        let credit = creditLines(ofPerson: person.key)
        let totals = totalRows(of: person)
        var page = PageModels.PersonPage(
            name: escape(person.name), notices: rateNotices, groups: groups, ordersPager: pages.pager(page: 1, labels: labels),
            totals: totals, hasTotals: !totals.isEmpty, tracksPayments: context.aggregation.tracksPayments || !carried.isEmpty || !credit.isEmpty,
            payments: payments + credit, settled: payments.isEmpty,
            hasRejected: !rejected.isEmpty, rejected: rejected)
        addRounds(of: person.key, to: &page)
        return page
    }

    /// A person's groups with their place in `data.groups`, in the sheet's order (as `SiteContext.groups(named:)` lists them).
    private func placedShares(_ person: PersonSummary) -> [(place: Int, share: PersonSummary.GroupShare)] {
        person.groupShares.compactMap { share in context.groupPlace(share.group).map { (place: $0, share: share) } }
            .sorted { $0.place < $1.place }
    }

    /// A person's orders by group, in the sheet's order of the groups (`shares`): all of them, or those at
    /// `rows` in that order (a page of `SiteContext.personPages`), each order read where it is stored as
    /// its line is written.
    private func personGroups(
        _ person: PersonSummary, shares: [(place: Int, share: PersonSummary.GroupShare)], rows: Range<Int>?, format: PageFormat
    ) -> [PageModels.PersonGroup] {
        // Each order's group, found in one pass over the orders: its place in the sheet, as the shares'.
        let orders = person.orders
        let places = orders.indices.map { index in orders.withOrder(at: index) { context.groupPlace($0.pointee.group) } }
        var position = 0
        var groups: [PageModels.PersonGroup] = []
        for (place, share) in shares {
            let indices = orders.indices.filter { places[$0] == place }
            defer { position += indices.count }
            let shown = rows.map { indices[GroupOrderPages.part(of: $0, from: position, count: indices.count)] } ?? indices[...]
            guard !shown.isEmpty else { continue }
            let group = context.data.groups[place]
            let settled = settledKey(of: group)
            groups.append(
                PageModels.PersonGroup(
                    name: builtIn.groupNames[place], link: builtIn.groupLinks[place],
                    orders: PageRows(count: shown.count) { index, body in
                        orders.withOrder(at: shown[shown.startIndex + index]) {
                            body(Self.orderLine($0, shortened: false, settled: settled, format: format))
                        }
                    },
                    total: MoneyCell(amount: share.total, currency: group.currency, withCurrency: true, format: format),
                    converted: share.converted.filter { $0.currency != group.currency }.map {
                        ConvertedCell(converted: $0, withCurrency: true, format: format)
                    },
                    shares: sharesLine(share, group: group)))
        }
        return groups
    }

    /// The group's `payment` column, escaped, beside what a person pays it; nil when it is empty.
    func paymentDetails(ofGroupAt place: Int) -> String? {
        let payment = context.data.groups[place].payment
        return payment.isEmpty ? nil : escape(payment)
    }

    /// "Fee share: 15 TWD · Discount share: -8 TWD": a person's parts of a group's fee and discount, and a
    /// fee or discount that could not be read and counts as 0 (`notCounted`); nil without any.
    func sharesLine(_ share: PersonSummary.GroupShare, group: Group) -> String? {
        let notes = notCounted(group)
        guard share.feeShare != 0 || share.discountShare != 0 || !notes.isEmpty else { return nil }
        let (money, colon, currency) = (context.money, labels.markdown("colon"), group.currency)
        var parts: [String] = []
        if share.feeShare != 0 { parts.append("\(labels.markdown("fee_share"))\(colon)\(money.display(share.feeShare, currency)) \(currency)") }
        if share.discountShare != 0 {
            parts.append("\(labels.markdown("discount_share"))\(colon)-\(money.display(share.discountShare, currency)) \(currency)")
        }
        return (parts + notes).joined(separator: " · ")
    }

    /// "⚠ fee '¥300' not counted: …" for the group's fee and discount that could not be read: said where the
    /// money is (the group's total, every share line), not only on the Attention page.
    package func notCounted(_ group: Group) -> [String] {
        [group.feeNotCounted, group.discountNotCounted].compactMap { reason in
            reason.map {
                labels.markdown(
                    "amount_not_counted",
                    ["column": escape($0.values["column"] ?? ""), "value": escape($0.values["value"] ?? ""), "reason": labels.reason($0)])
            }
        }
    }

    /// Page `page` (from 2) of a person's orders.
    func personOrdersPage(_ person: PersonSummary, page: Int) -> PageModels.PersonOrdersPage {
        let pages = context.personPages(person)
        return PageModels.PersonOrdersPage(
            title: context.personPagesHeading(person, page: page), name: escape(person.name), personLink: "\(pages.name(ofPage: 1)).md",
            pager: pages.pager(page: page, labels: labels) ?? "", tracksPayments: context.aggregation.tracksPayments,
            groups: personGroups(person, shares: placedShares(person), rows: pages.rows(ofPage: page), format: pageFormat()))
    }

    /// "155 TWD to 王小明 for 週五下午茶", to the group at `place` in `data.groups`, its words escaped once per build.
    package func payment(of owed: Decimal, toGroupAt place: Int) -> String {
        let (group, payee) = (context.data.groups[place], payees[place])
        return payTo.fill(["\(context.money.display(owed, group.currency)) \(group.currency)", payee.organizer, payee.group])
    }

    /// "45 TWD to 王小明 for 週五下午茶 · 2026-11-21 · [Archive](../archive/…)": what a finished round left owed,
    /// with the group's `payment` as it was when the round closed.
    func carriedLine(_ debt: CarriedDebt) -> PageModels.PaymentLine {
        let archive = debt.archive
        let text = payTo.fill([
            "\(context.money.display(debt.amount, debt.currency)) \(debt.currency)", archive.organizer.isEmpty ? theOrganizer : escape(archive.organizer),
            "\(escape(archive.group)) · \(archive.date)",
        ])
        // Part paid through the payments source: "15 of 60 TWD paid".
        let paid =
            debt.paid > 0
            ? " · " + labels.markdown("carried_paid", [
                "paid": context.money.display(debt.paid, debt.currency),
                "owed": "\(context.money.display(debt.owedAtClose, debt.currency)) \(debt.currency)",
            ]) : ""
        return PageModels.PaymentLine(
            text: "\(text)\(paid) · [\(labels.markdown("archive"))](../\(archive.path).md)", payment: archive.payment.flatMap { nonEmpty(escape($0)) })
    }

    /// "Paid 10 TWD more than owed: …" for each currency in which the payments source recorded more than the
    /// person's carried debts (`PaymentLedger.credit`): shown, never dropped.
    func creditLines(ofPerson key: String) -> [PageModels.PaymentLine] {
        (context.credit[key] ?? [:]).sorted { $0.key < $1.key }.map { currency, amount in
            PageModels.PaymentLine(
                text: labels.markdown("credit_line", ["amount": "\(context.money.display(amount, currency)) \(currency)"]), payment: nil)
        }
    }

    /// "all in USD".
    func allIn(_ currency: String) -> String { allIn[currency] ?? labels.markdown("all_in", ["currency": currency]) }

    package func rates() -> PageModels.RatesPage {
        let configuration = context.configuration
        guard let rates = context.rates else {
            return PageModels.RatesPage(
                notices: rateNotices, available: false, source: "", fromCache: false, base: "", asOf: "",
                stale: nil, unitsPer: "", rates: [], inDisplay: "", hasConversions: false, conversions: [])
        }
        let conversions = context.aggregation.baseUnit.map {
            PageModels.Amount(currency: $0.currency, amount: $0.amount.map { DecimalText.fixed($0, digits: 6) } ?? "n/a")
        }
        return PageModels.RatesPage(
            notices: rateNotices, available: true, source: escape(rates.source), fromCache: rates.fromCache,
            base: rates.base, asOf: context.asOfText(rates),
            stale: context.ratesStale ? labels.markdown("stale", ["hours": String(configuration.rates?.maxAgeHours ?? 0)]) : nil,
            unitsPer: labels.markdown("units_per", ["currency": rates.base]),
            rates: rates.rates.keys.sorted().map { .init(currency: $0, amount: DecimalText.exact(rates.rates[$0]!)) },
            inDisplay: labels.markdown("in_display", ["currency": configuration.baseCurrency]),
            hasConversions: !conversions.isEmpty, conversions: conversions)
    }

    package func attention() -> PageModels.AttentionPage {
        let limit = context.limits.attentionRows
        let rejected = context.data.rejected.prefix(limit).map { row in
            let (who, what) = (
                escape(row.value(of: context.configuration.orderColumns.person)), escape(row.value(of: context.configuration.orderColumns.item))
            )
            // Every name links to its page, where the person reads what to do.
            let linked = who.isEmpty || row.personKey.isEmpty ? who : context.personSlugs[row.personKey.text].map { "[\(who)](people/\($0).md)" } ?? who
            return PageModels.RejectedLine(
                who: who, what: what, whoWhat: [linked, what].filter { !$0.isEmpty }.joined(separator: " · "),
                row: row.row,
                values: row.values.filter { !$0.value.isEmpty }.map { "\(escape($0.column)): \(escape($0.value))" }
                    .joined(separator: " · "),
                reasons: labels.reasons(of: row))
        }
        let warnings = context.data.warnings.prefix(limit).map {
            PageModels.WarningLine(row: $0.row.map(String.init) ?? "–", message: labels.warning($0))
        }
        return PageModels.AttentionPage(
            notices: rateNotices, hasRejected: !rejected.isEmpty, rejected: rejected, hasWarnings: !warnings.isEmpty, warnings: warnings,
            moreRejected: more(context.data.rejected.count, shown: limit, "more_check", ["command": "`orderpress check`"]),
            moreWarnings: more(context.data.warnings.count, shown: limit, "more_check", ["command": "`orderpress check`"]))
    }

    /// "and 12 more …" for a list of `count` rows of which the page shows `shown`; nil when it shows them all.
    private func more(_ count: Int, shown: Int, _ key: String, _ values: [String: String] = [:]) -> String? {
        count > shown ? labels.markdown(key, values.merging(["count": String(count - shown)]) { $1 }) : nil
    }

    /// "68.79 USD", "10616 JPY": the amounts in each display currency other than their own.
    func otherCurrencies(_ amounts: [ConvertedAmount], besides own: String) -> [String] {
        amounts.filter { $0.currency != own }.map { "\(context.money.display($0)) \($0.currency)" }
    }

    /// `text`, or nil when it is empty: a page leaves out the line of a value the sheet did not give.
    func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// A deadline the sheet wrote as a date and time is shown like every other time; anything else as written.
    package func deadline(_ group: Group) -> String {
        group.deadlineShown(timeZone: context.configuration.timeZone) ?? escape(group.deadline)
    }

    package func changes() -> PageModels.ChangesPage {
        let limit = context.limits.changeRows
        let runs = context.history.prefix(Self.changeRuns).map { entry in
            let changes = entry.changes
            return PageModels.Run(
                time: context.display(iso: entry.time), summary: escape(labels.summary(changes)),
                hasDeleted: !changes.deleted.isEmpty, deletedCount: changes.deleted.count,
                deleted: changes.deleted.prefix(limit).map(changeRow), hasAdded: !changes.added.isEmpty,
                addedCount: changes.added.count, added: changes.added.prefix(limit).map(changeRow),
                hasChanged: !changes.changed.isEmpty, changedCount: changes.changed.count,
                changed: changes.changed.prefix(limit).map { change in
                    PageModels.ChangedRow(
                        row: change.after.row, who: escape(change.after.person), what: escape(change.after.what),
                        group: escape(change.after.group),
                        fields: change.fields.keys.sorted().map { column in
                            let values = change.fields[column]!
                            let (before, after) = (
                                changedValue(values[0], column: column, currency: change.before.currency),
                                changedValue(values[1], column: column, currency: change.after.currency)
                            )
                            return "\(escape(column)): \(before) → \(after)"
                        }.joined(separator: "; "))
                },
                hasNoLongerCounted: !changes.noLongerCounted.isEmpty, noLongerCountedCount: changes.noLongerCounted.count,
                noLongerCounted: changes.noLongerCounted.prefix(limit).map { countedRow($0.before, now: $0.after, reasons: $0.reasons) },
                hasNowCounted: !changes.nowCounted.isEmpty, nowCountedCount: changes.nowCounted.count,
                nowCounted: changes.nowCounted.prefix(limit).map { countedRow($0.after, now: $0.after, reasons: nil) },
                moreDeleted: more(changes.deleted.count, shown: limit, "more_deleted"),
                moreAdded: more(changes.added.count, shown: limit, "more_added"),
                moreChanged: more(changes.changed.count, shown: limit, "more_changed"),
                moreNoLongerCounted: more(changes.noLongerCounted.count, shown: limit, "more_no_longer_counted"),
                moreNowCounted: more(changes.nowCounted.count, shown: limit, "more_now_counted"),
                roundsClosed: roundsClosed(changes, at: entry.time), hasRoundsClosed: !(changes.roundClosed ?? []).isEmpty)
        }
        return PageModels.ChangesPage(notices: rateNotices, runs: Array(runs))
    }

    /// `order` as it was counted (or is now), at the row where it stands `now`.
    private func countedRow(_ order: RowRecord, now: RowRecord, reasons: [String]?) -> PageModels.CountedRow {
        PageModels.CountedRow(
            row: now.row, who: escape(order.person), what: escape(order.what), group: escape(order.group),
            amount: context.amountText(order), reasons: (reasons ?? []).map(escape).joined(separator: "; "))
    }

    /// How many runs the Changes page lists.
    static let changeRuns = 20

    private func changeRow(_ record: RowRecord) -> PageModels.ChangeRow {
        PageModels.ChangeRow(
            row: record.row, who: escape(record.person), what: escape(record.what), group: escape(record.group),
            amount: context.amountText(record), firstSeen: context.display(iso: record.firstSeen))
    }

    /// "Ben: 1 × 熟成紅茶 L 半糖 少冰 (35 TWD)".
    func deletionLine(_ record: RowRecord) -> String {
        "\(escape(record.person)): \(escape(record.what)) (\(context.amountText(record)))"
    }

    /// The person key of the group's organiser when their orders count as paid (`[rounds] organizer_settled`), else nil.
    func settledKey(of group: Group) -> PersonKey? {
        guard context.configuration.rounds.organizerSettled, !group.organizer.isEmpty else { return nil }
        return group.organizerKey
    }

    /// An order's line, its cells read from `order` as they are written. `shortened`: over-long text is
    /// cut, as on group pages. `settled`: the key of the group's settled organiser, whose orders count as
    /// paid (and show ✓).
    private static func orderLine(_ order: UnsafePointer<Order>, shortened: Bool, settled: PersonKey?, format: PageFormat) -> PageModels.OrderLine {
        func cell(_ field: OrderCell.Field) -> OrderCell { OrderCell(order: order, field: field, shortened: shortened, format: format) }
        return PageModels.OrderLine(
            person: cell(.person), item: cell(.item),
            paidMark: order.pointee.paid || (settled != nil && order.pointee.personKey == settled) ? "✓" : "",
            quantity: order.pointee.quantity, unitPrice: cell(.unitPrice), amount: cell(.amount), time: cell(.time), note: cell(.note))
    }
}
