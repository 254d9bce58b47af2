import Foundation

/// Sums valid orders per group, per person within a group, and per person across groups, and converts
/// every total into the display currencies (exact, and rounded to their minor units for pages to show).
public enum Aggregator {
    public static func aggregate(
        _ data: ValidatedData, rates: RateTable? = nil, displayCurrencies: [String] = [], baseCurrency: String? = nil,
        money: MoneyFormat = MoneyFormat(minorUnitOverrides: [:])
    ) -> Aggregation {
        var ordersByGroup: [String: [Order]] = [:]
        var people: [String: PersonSummary] = [:]
        var grandTotals: [String: Decimal] = [:]
        // `Order.amount` multiplies Decimals (thousands of instructions) each time it is read: once per order here.
        var amountsByGroup: [String: [Decimal]] = [:]
        for order in data.orders {
            let amount = order.amount
            ordersByGroup[order.group, default: []].append(order)
            amountsByGroup[order.group, default: []].append(amount)
            people[order.personKey, default: PersonSummary(key: order.personKey, name: order.person, orders: [], totals: [:])]
                .add(order, amount: amount)
            grandTotals[order.currency, default: 0] += amount
        }
        let converter = Converter(rates: rates, money: money, precomputing: Set(grandTotals.keys).union(data.groups.map(\.currency)).union(displayCurrencies))
        // The same amounts come back again and again (one cup of the same tea): each is converted once
        // per chunk of work. Groups, then people, are independent of each other: two cores share them.
        let (ordersOf, amountsOf) = (ordersByGroup, amountsByGroup)
        let groups = Parallel.chunks(count: data.groups.count, minimumChunk: 100) { range in
            var memo: [Converter.Conversion: Converter.Converted] = [:]
            return range.map { index in
                var summary = summarize(data.groups[index], orders: ordersOf[data.groups[index].name] ?? [], amounts: amountsOf[data.groups[index].name])
                guard !displayCurrencies.isEmpty else { return summary }
                let currency = summary.currency
                summary.converted = converter.converted([currency: summary.total], into: displayCurrencies, memo: &memo)
                for person in summary.people.indices {
                    summary.people[person].converted = converter.converted([currency: summary.people[person].total], into: displayCurrencies, memo: &memo)
                }
                return summary
            }
        }.flatMap { $0 }
        var grandOutstanding: [String: Decimal] = [:]
        for summary in groups { grandOutstanding[summary.currency, default: 0] += summary.outstanding }
        var aggregation = Aggregation(
            groups: groups, people: TextOrder.sorted(Array(people.values), keys: { [$0.key] }, by: { $0.key < $1.key }), grandTotals: grandTotals,
            tracksPayments: data.tracksPayments, grandOutstanding: grandOutstanding)
        guard !displayCurrencies.isEmpty else { return aggregation }

        let currencies = Dictionary(data.groups.map { ($0.name, $0.currency) }, uniquingKeysWith: { first, _ in first })
        let sortedPeople = aggregation.people
        aggregation.people = Parallel.chunks(count: sortedPeople.count, minimumChunk: 1000) { range in
            var memo: [Converter.Conversion: Converter.Converted] = [:]
            return range.map { index in
                var person = sortedPeople[index]
                person.converted = converter.converted(person.totals, into: displayCurrencies, memo: &memo)
                person.convertedOutstanding = converter.converted(person.outstanding, into: displayCurrencies, memo: &memo)
                for (group, total) in person.totalsByGroup {
                    person.convertedByGroup[group] = converter.converted([currencies[group] ?? "": total], into: displayCurrencies, memo: &memo)
                }
                return person
            }
        }.flatMap { $0 }
        func converted(_ amounts: [String: Decimal]) -> [ConvertedAmount] { converter.converted(amounts, into: displayCurrencies) }
        aggregation.convertedGrandTotals = converted(grandTotals)
        aggregation.convertedGrandOutstanding = converted(grandOutstanding)
        if let baseCurrency {
            aggregation.baseUnit = converter.converted([baseCurrency: 1], into: displayCurrencies.filter { $0 != baseCurrency })
        }
        return aggregation
    }

    /// `amounts`, when given, are the orders' amounts, in the same order.
    static func summarize(_ group: Group, orders: [Order], amounts: [Decimal]? = nil) -> GroupSummary {
        struct LineKey: Hashable {
            var item: String
            var options: [String]
            var unitPrice: Decimal
        }
        var lines: [LineKey: Int] = [:]
        var totals: [String: PersonTotal] = [:]
        var total: Decimal = 0
        var paid: Decimal = 0
        var items = 0
        for (index, order) in orders.enumerated() {
            lines[LineKey(item: order.item, options: order.options, unitPrice: order.unitPrice), default: 0] += order.quantity
            let amount = amounts?[index] ?? order.amount
            totals[order.personKey, default: PersonTotal(key: order.personKey, name: order.person, orders: 0, total: 0)]
                .add(order, amount: amount)
            total += amount
            if order.paid { paid += amount }
            items += order.quantity
        }
        // The options joined once per line, not once per comparison.
        let shopSheet = TextOrder.sorted(
            lines.map {
                (line: ShopLine(item: $0.key.item, options: $0.key.options, quantity: $0.value, unitPrice: $0.key.unitPrice),
                 options: $0.key.options.joined(separator: "\u{1}"))
            },
            keys: { [$0.line.item, $0.options] },
            by: { ($0.line.item, $0.options, $0.line.unitPrice) < ($1.line.item, $1.options, $1.line.unitPrice) }
        ).map(\.line)
        return GroupSummary(
            group: group, orders: orders, shopSheet: shopSheet,
            people: TextOrder.sorted(Array(totals.values), keys: { [$0.key] }, by: { $0.key < $1.key }), total: total, items: items, paid: paid)
    }
}

extension PersonSummary {
    /// `amount` is `order.amount`, computed once by the caller.
    fileprivate mutating func add(_ order: Order, amount: Decimal) {
        orders.append(order)
        totals[order.currency, default: 0] += amount
        totalsByGroup[order.group, default: 0] += amount
        outstanding[order.currency, default: 0] += order.paid ? 0 : amount
        if !order.paid, amount > 0 { outstandingByGroup[order.group, default: 0] += amount }
    }
}

extension PersonTotal {
    fileprivate mutating func add(_ order: Order, amount: Decimal) {
        orders += 1
        total += amount
        if order.paid { paid += amount }
    }
}
