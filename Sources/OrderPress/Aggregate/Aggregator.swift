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
            ordersByGroup[order.group, default: []].append(order)
            people[order.personKey, default: PersonSummary(key: order.personKey, name: order.person, orders: [], totals: [:])]
                .add(order)
            grandTotals[order.currency, default: 0] += order.amount
        }
        var groups = data.groups.map { summarize($0, orders: ordersByGroup[$0.name] ?? []) }
        var grandOutstanding: [String: Decimal] = [:]
        for summary in groups { grandOutstanding[summary.currency, default: 0] += summary.outstanding }
        var aggregation = Aggregation(
            groups: groups, people: people.values.sorted { $0.key < $1.key }, grandTotals: grandTotals,
            tracksPayments: data.tracksPayments, grandOutstanding: grandOutstanding)
        guard !displayCurrencies.isEmpty else { return aggregation }

        let converter = Converter(rates: rates)
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
                .add(order)
            total += amount
            if order.paid { paid += amount }
            items += order.quantity
        }
        let shopSheet = lines.map {
            ShopLine(item: $0.key.item, options: $0.key.options, quantity: $0.value, unitPrice: $0.key.unitPrice)
        }.sorted {
            ($0.item, $0.options.joined(separator: "\u{1}"), $0.unitPrice) < ($1.item, $1.options.joined(separator: "\u{1}"), $1.unitPrice)
        }
        return GroupSummary(
            group: group, orders: orders, shopSheet: shopSheet,
            people: totals.values.sorted { $0.key < $1.key }, total: total, items: items, paid: paid)
    }
}

extension PersonSummary {
    fileprivate mutating func add(_ order: Order) {
        orders.append(order)
        totals[order.currency, default: 0] += order.amount
        totalsByGroup[order.group, default: 0] += order.amount
        outstanding[order.currency, default: 0] += order.paid ? 0 : order.amount
        if !order.paid, order.amount > 0 { outstandingByGroup[order.group, default: 0] += order.amount }
    }
}

extension PersonTotal {
    fileprivate mutating func add(_ order: Order) {
        orders += 1
        total += order.amount
        if order.paid { paid += order.amount }
    }
}
