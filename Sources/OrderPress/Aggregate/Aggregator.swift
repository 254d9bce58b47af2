import Foundation

/// Sums valid orders per group, per person within a group, and per person across groups, and converts
/// every total into the display currencies (exact; pages round once, when they format it).
public enum Aggregator {
    public static func aggregate(
        _ data: ValidatedData, rates: RateTable? = nil, displayCurrencies: [String] = [], baseCurrency: String? = nil
    ) -> Aggregation {
        var ordersByGroup: [String: [Order]] = [:]
        var people: [String: PersonSummary] = [:]
        var grandTotals: [String: Decimal] = [:]
        for order in data.orders {
            // `Order.amount` multiplies Decimals each time it is read: once per order here.
            let amount = order.amount
            ordersByGroup[order.group, default: []].append(order)
            people[order.personKey, default: PersonSummary(key: order.personKey, name: order.person, orders: [], totals: [:])]
                .add(order, amount: amount)
            grandTotals[order.currency, default: 0] += amount
        }
        var groups = data.groups.map { summarize($0, orders: ordersByGroup[$0.name] ?? []) }
        var grandOutstanding: [String: Decimal] = [:]
        for summary in groups { grandOutstanding[summary.currency, default: 0] += summary.outstanding }
        var aggregation = Aggregation(
            groups: groups, people: TextOrder.sorted(Array(people.values), keys: { [$0.key] }, by: { $0.key < $1.key }), grandTotals: grandTotals,
            tracksPayments: data.tracksPayments, grandOutstanding: grandOutstanding)
        guard !displayCurrencies.isEmpty else { return aggregation }

        let converter = Converter(rates: rates, precomputing: Set(grandTotals.keys).union(data.groups.map(\.currency)).union(displayCurrencies))
        func converted(_ amounts: [String: Decimal]) -> [ConvertedAmount] { converter.converted(amounts, into: displayCurrencies) }
        for index in groups.indices {
            let currency = groups[index].currency
            groups[index].converted = converted([currency: groups[index].total])
            for person in groups[index].people.indices {
                groups[index].people[person].converted = converted([currency: groups[index].people[person].total])
            }
        }
        aggregation.groups = groups
        let currencies = Dictionary(data.groups.map { ($0.name, $0.currency) }, uniquingKeysWith: { first, _ in first })
        for index in aggregation.people.indices {
            var person = aggregation.people[index]
            person.converted = converted(person.totals)
            person.convertedOutstanding = converted(person.outstanding)
            for (group, total) in person.totalsByGroup {
                person.convertedByGroup[group] = converted([currencies[group] ?? "": total])
            }
            aggregation.people[index] = person
        }
        aggregation.convertedGrandTotals = converted(grandTotals)
        aggregation.convertedGrandOutstanding = converted(grandOutstanding)
        if let baseCurrency {
            aggregation.baseUnit = converter.converted([baseCurrency: 1], into: displayCurrencies.filter { $0 != baseCurrency })
        }
        return aggregation
    }

    static func summarize(_ group: Group, orders: [Order]) -> GroupSummary {
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
        for order in orders {
            lines[LineKey(item: order.item, options: order.options, unitPrice: order.unitPrice), default: 0] += order.quantity
            let amount = order.amount
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
