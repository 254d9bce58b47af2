import Foundation

/// Sums valid orders per group, per person within a group, and per person across groups, and converts
/// every total into the display currencies (exact, and rounded to their minor units for pages to show).
public enum Aggregator {
    public static func aggregate(
        _ data: ValidatedData, rates: RateTable? = nil, displayCurrencies: [String] = [], baseCurrency: String? = nil,
        money: MoneyFormat = MoneyFormat(minorUnitOverrides: [:])
    ) -> Aggregation {
        let orders = data.orders
        precondition(orders.count <= Int(UInt32.max), "more orders than a sheet can hold")
        // Summaries hold their orders' positions in `orders` (see `OrderList`), not copies of them.
        // Each order's group and person are looked up once, by name, into slots.
        var groupSlots: [String: Int] = [:]
        for group in data.groups where groupSlots[group.name] == nil { groupSlots[group.name] = groupSlots.count }
        var groupPositions = [[UInt32]](repeating: [], count: groupSlots.count)
        var personSlots: [String: Int] = [:]
        var people: [PersonSummary] = []
        var personPositions: [[UInt32]] = []
        var grandTotals: [String: Decimal] = [:]
        // `Order.amount` multiplies Decimals (thousands of instructions) each time it is read: once per order here.
        var amounts: [Decimal] = []
        amounts.reserveCapacity(orders.count)
        for (position, order) in orders.enumerated() {
            let amount = order.amount
            amounts.append(amount)
            if let slot = groupSlots[order.group] { groupPositions[slot].append(UInt32(position)) }
            let slot: Int
            if let known = personSlots[order.personKey] {
                slot = known
            } else {
                slot = people.count
                personSlots[order.personKey] = slot
                people.append(PersonSummary(key: order.personKey, name: order.person, orders: [], totals: [:]))
                personPositions.append([])
            }
            people[slot].add(order, amount: amount)
            personPositions[slot].append(UInt32(position))
            grandTotals[order.currency, default: 0] += amount
        }
        for slot in people.indices { people[slot].orders = OrderList(orders, positions: personPositions[slot]) }
        personPositions = []
        let converter = Converter(rates: rates, money: money, precomputing: Set(grandTotals.keys).union(data.groups.map(\.currency)).union(displayCurrencies))
        // The same amounts come back again and again (one cup of the same tea): each is converted once
        // per chunk of work. Groups, then people, are independent of each other: two cores share them.
        let (slotsOf, positionsOf, allAmounts) = (groupSlots, groupPositions, amounts)
        let groups = Parallel.chunks(count: data.groups.count, minimumChunk: 100) { range in
            var memo = Converter.Memo()
            return range.map { index in
                let group = data.groups[index]
                var summary = summarize(group, orders: OrderList(orders, positions: positionsOf[slotsOf[group.name]!]), amounts: allAmounts)
                guard !displayCurrencies.isEmpty else { return summary }
                let currency = summary.currency
                summary.converted = converter.converted(summary.total, in: currency, into: displayCurrencies, memo: &memo)
                for person in summary.people.indices {
                    summary.people[person].converted = converter.converted(summary.people[person].total, in: currency, into: displayCurrencies, memo: &memo)
                }
                return summary
            }
        }.flatMap { $0 }
        var grandOutstanding: [String: Decimal] = [:]
        for summary in groups { grandOutstanding[summary.currency, default: 0] += summary.outstanding }
        var aggregation = Aggregation(
            groups: groups, people: TextOrder.sorted(people, keys: { [$0.key] }, by: { $0.key < $1.key }), grandTotals: grandTotals,
            tracksPayments: data.tracksPayments, grandOutstanding: grandOutstanding)
        guard !displayCurrencies.isEmpty else { return aggregation }

        let currencies = Dictionary(data.groups.map { ($0.name, $0.currency) }, uniquingKeysWith: { first, _ in first })
        let sortedPeople = aggregation.people
        aggregation.people = Parallel.chunks(count: sortedPeople.count, minimumChunk: 1000) { range in
            var memo = Converter.Memo()
            return range.map { index in
                var person = sortedPeople[index]
                person.converted = converter.converted(person.totals, into: displayCurrencies, memo: &memo)
                person.convertedOutstanding = converter.converted(person.outstanding, into: displayCurrencies, memo: &memo)
                for (group, total) in person.totalsByGroup {
                    person.convertedByGroup[group] = converter.converted(total, in: currencies[group] ?? "", into: displayCurrencies, memo: &memo)
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

    /// `amounts` are the amounts of every order of the array `orders` lists, by position.
    static func summarize(_ group: Group, orders: OrderList, amounts: [Decimal]) -> GroupSummary {
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
        for (index, order) in zip(orders.positions, orders) {
            lines[LineKey(item: order.item, options: order.options, unitPrice: order.unitPrice), default: 0] += order.quantity
            let amount = amounts[Int(index)]
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
    /// `amount` is `order.amount`, computed once by the caller; the order's position is kept apart (`OrderList`).
    fileprivate mutating func add(_ order: Order, amount: Decimal) {
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
