import Foundation

/// Builds the view model of each page from the aggregated data.
struct PageBuilder: Sendable {
    let context: SiteContext

    private func escape(_ text: String) -> String { MarkdownEscaper.escape(text) }
    /// Summary pages shorten over-long text; person and Attention pages show it whole.
    private func short(_ text: String, _ limit: Int) -> String { escape(Text.shortened(text, to: limit)) }

    func index() -> PageModels.Index {
        let converter = context.converter
        var notices = context.rateNotices
        if !context.data.rejected.isEmpty {
            let count = context.data.rejected.count
            notices.insert(
                "\(count) \(count == 1 ? "row was" : "rows were") rejected and \(count == 1 ? "is" : "are") not counted: see [Attention](attention.md).",
                at: 0)
        }
        let groups = context.aggregation.groups.map { summary in
            PageModels.GroupRow(
                name: short(summary.group.name, 60), link: "groups/\(context.groupSlugs[summary.group.name]!).md",
                shop: short(summary.group.shop, 60), organizer: short(summary.group.organizer, 30),
                deadline: deadline(summary.group), orders: summary.orders.count, items: summary.items,
                total: "\(converter.display(summary.total, summary.currency)) \(summary.currency)",
                converted: context.converted([summary.currency: summary.total]))
        }
        let people = context.aggregation.people.map { person in
            PageModels.PersonRow(
                name: short(person.name, TextLimits.person), link: "people/\(context.personSlugs[person.key]!).md",
                orders: person.orders.count, totals: context.totalsText(person.totals),
                converted: context.converted(person.totals))
        }
        let grand = context.aggregation.grandTotals
        return PageModels.Index(
            title: escape(context.configuration.title), dataAsOf: context.dataAsOfText,
            attentionCount: context.attentionCount, notices: notices,
            displayCurrencies: context.configuration.displayCurrencies, hasGroups: !groups.isEmpty, groups: groups,
            hasOrders: !grand.isEmpty,
            grandTotals: grand.keys.sorted().map { .init(currency: $0, amount: converter.display(grand[$0]!, $0)) },
            grandConverted: context.configuration.displayCurrencies.map {
                .init(currency: $0, amount: converter.displayConverted(grand, to: $0))
            },
            hasPeople: !people.isEmpty, people: people)
    }

    func group(_ summary: GroupSummary) -> PageModels.Group {
        let converter = context.converter
        let currency = summary.currency
        let slug = context.groupSlugs[summary.group.name]!
        return PageModels.Group(
            name: escape(summary.group.name), organizer: escape(summary.group.organizer),
            shop: escape(summary.group.shop), deadline: deadline(summary.group), currency: currency,
            notices: context.rateNotices, hasOrders: !summary.orders.isEmpty,
            shopSheet: summary.shopSheet.map(shopLine), items: summary.items, orderCount: summary.orders.count,
            total: "\(converter.display(summary.total, currency)) \(currency)",
            totalConverted: otherCurrencies([currency: summary.total], besides: currency),
            displayCurrencies: context.configuration.displayCurrencies,
            people: summary.people.map { person in
                PageModels.GroupPerson(
                    name: short(person.name, TextLimits.person), link: "../people/\(context.personSlugs[person.key]!).md",
                    orders: person.orders, total: converter.display(person.total, currency),
                    converted: context.converted([currency: person.total]))
            },
            chart: "\(slug).svg",
            orders: summary.orders.map { orderLine($0, shortened: true) })
    }

    func person(_ person: PersonSummary) -> PageModels.Person {
        let converter = context.converter
        var byGroup: [String: [Order]] = [:]
        for order in person.orders { byGroup[order.group, default: []].append(order) }
        let groups = context.data.groups.compactMap { group -> PageModels.PersonGroup? in
            guard let orders = byGroup[group.name] else { return nil }
            let total = orders.reduce(Decimal(0)) { $0 + $1.amount }
            return PageModels.PersonGroup(
                name: escape(group.name), link: "../groups/\(context.groupSlugs[group.name]!).md",
                orders: orders.map { orderLine($0, shortened: false) },
                total: "\(converter.display(total, group.currency)) \(group.currency)",
                converted: otherCurrencies([group.currency: total], besides: group.currency))
        }
        return PageModels.Person(
            name: escape(person.name), groups: groups,
            totals: person.totals.keys.sorted().map { .init(currency: $0, amount: converter.display(person.totals[$0]!, $0)) },
            converted: context.configuration.displayCurrencies.map {
                .init(currency: $0, amount: converter.displayConverted(person.totals, to: $0))
            })
    }

    func rates() -> PageModels.Rates {
        let configuration = context.configuration
        guard let rates = context.rates else {
            return PageModels.Rates(
                notices: context.rateNotices, available: false, source: "", fromCache: false, base: "", asOf: "",
                stale: false, maxAgeHours: 0, rates: [], baseCurrency: configuration.baseCurrency,
                hasConversions: false, conversions: [])
        }
        let conversions = configuration.displayCurrencies.filter { $0 != configuration.baseCurrency }.map {
            PageModels.Amount(
                currency: $0,
                amount: context.converter.convert(1, from: configuration.baseCurrency, to: $0)
                    .map { DecimalText.fixed($0, digits: 6) } ?? "n/a")
        }
        return PageModels.Rates(
            notices: context.rateNotices, available: true, source: escape(rates.source), fromCache: rates.fromCache,
            base: rates.base, asOf: escape(context.asOfText(rates)), stale: context.ratesStale,
            maxAgeHours: configuration.rates?.maxAgeHours ?? 0,
            rates: rates.rates.keys.sorted().map { .init(currency: $0, amount: DecimalText.exact(rates.rates[$0]!)) },
            baseCurrency: configuration.baseCurrency, hasConversions: !conversions.isEmpty, conversions: conversions)
    }

    func attention() -> PageModels.Attention {
        let rejected = context.data.rejected.map { row in
            PageModels.Rejected(
                row: row.row,
                values: row.values.filter { !$0.value.isEmpty }.map { "\(escape($0.column)): \(escape($0.value))" }
                    .joined(separator: " · "),
                reasons: row.reasons.map(escape).joined(separator: "; "))
        }
        let warnings = context.data.warnings.map {
            PageModels.Warning(row: $0.row.map(String.init) ?? "–", message: escape($0.message))
        }
        return PageModels.Attention(
            hasRejected: !rejected.isEmpty, rejected: rejected, hasWarnings: !warnings.isEmpty, warnings: warnings)
    }

    /// "68.79 USD", "10616 JPY": the amounts in each display currency other than their own.
    private func otherCurrencies(_ amounts: [String: Decimal], besides own: String) -> [String] {
        zip(context.configuration.displayCurrencies, context.converted(amounts)).filter { $0.0 != own }.map { "\($1) \($0)" }
    }

    /// A deadline the sheet wrote as a date and time is shown like every other time; anything else as written.
    private func deadline(_ group: Group) -> String {
        Timestamp.parse(group.deadline, timeZone: context.configuration.timeZone)
            .map { Timestamp.display($0, timeZone: context.configuration.timeZone) } ?? escape(group.deadline)
    }

    private func shopLine(_ line: ShopLine) -> String {
        ([ "\(line.quantity) ×", escape(line.item)] + line.options.map(escape)).joined(separator: " ")
    }

    private func orderLine(_ order: Order, shortened: Bool) -> PageModels.OrderLine {
        let converter = context.converter
        func text(_ value: String, _ limit: Int) -> String { shortened ? short(value, limit) : escape(value) }
        return PageModels.OrderLine(
            row: order.row, person: text(order.person, TextLimits.person), item: text(order.item, TextLimits.item),
            options: order.options.map { text($0, TextLimits.option) }.joined(separator: " "),
            quantity: order.quantity, unitPrice: converter.display(order.unitPrice, order.currency),
            amount: converter.display(order.amount, order.currency),
            time: order.time.map { Timestamp.display($0, timeZone: context.configuration.timeZone) } ?? escape(order.timeText),
            note: text(order.note, TextLimits.note))
    }
}
