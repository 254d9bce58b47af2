import Foundation
import OrderPressFetch
import OrderPressSupport
import OrderPressValidate

/// Sums valid orders per group, per person within a group, and per person across groups, and converts
/// every total into the display currencies (exact, and rounded to their minor units for pages to show).
///
/// Each order's person, group, shop line and currency are numbered once (`OrderFacts`); then groups,
/// and people, are summed independently of each other on both cores, each over its own orders'
/// positions, into arrays indexed by those numbers, in integers where the amounts allow (`ExactSum`).
///
/// A group's fee and discount are split among its people as the group is summed (`MoneyShares`), and
/// each person's parts are handed to the people's sums by group and person number; with
/// `organizerSettled`, the orders of the person who organises a group count as paid there.
public enum Aggregator {
    public static func aggregate(
        _ data: ValidatedData, rates: RateTable? = nil, displayCurrencies: [String] = [], baseCurrency: String? = nil,
        money: MoneyFormat = MoneyFormat(minorUnitOverrides: [:]), organizerSettled: Bool = true
    ) -> Aggregation {
        let orders = data.orders
        precondition(orders.count <= Int(UInt32.max), "more orders than a sheet can hold")
        let facts = OrderFacts(orders, groups: data.groups)
        var grandTotals: [String: Decimal] = [:]
        for (currency, sum) in zip(facts.currencies, facts.currencyTotals) { grandTotals[currency] = sum.value }
        let converter = Converter(
            rates: rates, money: money, precomputing: Set(grandTotals.keys).union(data.groups.map(\.currency)).union(displayCurrencies))
        let conversions = ConversionCache.Table(
            converter: converter, first: facts.currencies, others: data.groups.map(\.currency) + [""], display: displayCurrencies)
        let tally = Tally(orders: orders, generation: data.$orders, facts: facts, displayCurrencies: displayCurrencies, conversions: conversions, spellings: data.spellings)
        // By group number: the person number of the organiser, else -1, found in the people's numbering
        // (only the organisers' keys are hashed). Nobody owes themselves; with `organizerSettled` the
        // organiser's orders also count as paid.
        var organizers = [Int32](repeating: -1, count: facts.groupCount)
        for (group, number) in zip(data.groups, facts.listedGroupNumbers) where organizers[Int(number)] < 0 && !group.organizerKey.isEmpty {
            organizers[Int(number)] = facts.personNumbers.existing(group.organizerKey.text) ?? -1
        }

        // The same amounts come back again and again (one cup of the same tea): each is converted once
        // per chunk of work.
        let groups = Parallel.chunks(count: data.groups.count, minimumChunk: 100) { range in
            var cache = ConversionCache(conversions)
            var slots = Slots(tally)
            return range.map { index in
                let number = facts.listedGroupNumbers[index]
                return tally.summary(
                    of: data.groups[index], number: number, organizer: organizerSettled ? organizers[Int(number)] : -1, slots: &slots,
                    cache: &cache)
            }
        }.flatMap { $0 }
        var grandOutstanding: [String: Decimal] = [:]
        // Each person's parts of fees and discounts, by group number then person number: only groups with any.
        var shares = [[Int32: FeeShares]](repeating: [:], count: facts.groupCount)
        for (summary, number) in zip(groups, facts.listedGroupNumbers) {
            grandOutstanding[summary.0.currency, default: 0] += summary.0.outstanding
            if summary.0.fee != 0 || summary.0.discount != 0 {
                grandTotals[summary.0.currency, default: 0] += summary.0.fee - summary.0.discount
                if shares[Int(number)].isEmpty { shares[Int(number)] = summary.1 }
            }
        }
        let groupSummaries = groups.map(\.0)

        // A group's currency by group number, for each person's total in it: the first listed group of
        // that name, none for a group no list names.
        var groupCurrencies = [String?](repeating: nil, count: facts.groupCount)
        for (group, number) in zip(data.groups, facts.listedGroupNumbers) where groupCurrencies[Int(number)] == nil {
            groupCurrencies[Int(number)] = group.currency
        }
        let currencyOfGroup = groupCurrencies.map { conversions.number($0 ?? "") }
        let people = Parallel.chunks(count: tally.peopleInOrder.count, minimumChunk: 1000) { range in
            var cache = ConversionCache(conversions)
            var slots = Slots(tally)
            return range.map { rank in
                tally.summary(
                    ofPerson: tally.peopleInOrder[rank], groupCurrencies: currencyOfGroup, organizers: organizers,
                    organizerSettled: organizerSettled, shares: shares,
                    slots: &slots, cache: &cache)
            }
        }.flatMap { $0 }

        var aggregation = Aggregation(
            groups: groupSummaries, people: people, grandTotals: grandTotals, tracksPayments: data.tracksPayments, grandOutstanding: grandOutstanding)
        guard !displayCurrencies.isEmpty else { return aggregation }
        func converted(_ amounts: [String: Decimal]) -> [ConvertedAmount] { converter.converted(amounts, into: displayCurrencies) }
        aggregation.convertedGrandTotals = converted(grandTotals)
        aggregation.convertedGrandOutstanding = converted(grandOutstanding)
        if let baseCurrency {
            aggregation.baseUnit = converter.converted([baseCurrency: 1], into: displayCurrencies.filter { $0 != baseCurrency })
        }
        return aggregation
    }

    /// The numbered orders, each group's and each person's positions among them, and the order in which
    /// people and shop lines are listed: what summing a group or a person reads, shared by both cores.
    private struct Tally {
        let orders: [Order]
        /// Which orders these are: the lists' (`OrderList.generation`).
        let generation: OrdersGeneration
        let facts: [OrderFacts.Fact]
        let byGroup: Buckets
        let byPerson: Buckets
        /// Person numbers sorted by the person's key: the order of every list of people.
        let peopleInOrder: [Int]
        /// By person number, the place in `peopleInOrder`.
        let personRank: [Int32]
        /// By shop line number, its place among all lines sorted as a shop sheet lists them.
        let lineRank: [Int32]
        let lineCount: Int
        let currencyCount: Int
        let groupCount: Int
        let groupNames: [String]
        let groupVariants: [Bool]
        let currencies: [String]
        let currencyVariants: [Bool]
        let displayCurrencies: [String]
        let converter: Converter
        /// Every currency numbered, for converting totals (`ConversionCache`).
        let conversions: ConversionCache.Table
        /// The name shown for a person who writes it more than one way.
        let spellings: PersonSpellings

        init(orders: [Order], generation: OrdersGeneration, facts: OrderFacts, displayCurrencies: [String], conversions: ConversionCache.Table, spellings: PersonSpellings) {
            self.orders = orders
            self.generation = generation
            self.spellings = spellings
            self.facts = facts.facts
            byGroup = Buckets(facts.facts, count: facts.groupCount) { $0.group }
            byPerson = Buckets(facts.facts, count: facts.personFirsts.count) { $0.person }
            let keys = facts.personFirsts.map { orders.withOrder(at: Int($0)) { $0.pointee.personKey.text } }
            peopleInOrder = TextOrder.sorted(Array(keys.indices), keys: { [keys[$0]] }, by: { keys[$0] < keys[$1] })
            personRank = Self.ranks(peopleInOrder)
            // Identical item and options at different prices are separate lines, so each line's total is checkable.
            let lines = facts.lineFirsts.map { orders[Int($0)] }
            let joined = lines.map { $0.options.joined(separator: "\u{1}") }
            lineRank = Self.ranks(
                TextOrder.sorted(
                    Array(lines.indices), keys: { [lines[$0].item, joined[$0]] },
                    by: { (lines[$0].item, joined[$0], lines[$0].unitPrice) < (lines[$1].item, joined[$1], lines[$1].unitPrice) }))
            lineCount = lines.count
            currencyCount = facts.currencies.count
            groupCount = facts.groupCount
            (groupNames, groupVariants) = (facts.groupNames, facts.groupVariants)
            (currencies, currencyVariants) = (facts.currencies, facts.currencyVariants)
            self.displayCurrencies = displayCurrencies
            converter = conversions.converter
            self.conversions = conversions
        }

        /// `elements` sorted by the rank of each one's number, ranks being distinct: as integers that
        /// hold the rank above the element's place, which sort without a closure reading two arrays per
        /// comparison (the stable sort with one was a third of summing a group).
        private static func sorted<Element>(_ elements: [Element], ranks: [Int32], number: (Element) -> Int32) -> [Element] {
            guard elements.count > 1 else { return elements }
            var keys = elements.indices.map { UInt64(UInt32(ranks[Int(number(elements[$0]))])) << 32 | UInt64($0) }
            keys.sort()
            return keys.map { elements[Int($0 & 0xFFFF_FFFF)] }
        }

        private static func ranks(_ sorted: [Int]) -> [Int32] {
            var ranks = [Int32](repeating: 0, count: sorted.count)
            for (rank, number) in sorted.enumerated() { ranks[number] = Int32(rank) }
            return ranks
        }

        func amount(at position: UInt32) -> Decimal { field(position) { $0.pointee.amount } }

        /// A field of the order at `position`, read where the order is (`Array.withOrder(at:_:)`).
        func field<T>(_ position: UInt32, _ read: (UnsafePointer<Order>) -> T) -> T { orders.withOrder(at: Int(position), read) }

        /// The group name of the order at `position`, numbered `number`: from the numbering when every
        /// order writes it alike, rather than from the order (a cache miss per person and group).
        func groupName(_ number: Int32, at position: UInt32) -> String {
            groupVariants[Int(number)] ? field(position) { $0.pointee.group } : groupNames[Int(number)]
        }

        func currencyName(_ number: Int32, at position: UInt32) -> String {
            currencyVariants[Int(number)] ? field(position) { $0.pointee.currency } : currencies[Int(number)]
        }

        /// One group's orders summed: its shop sheet, each person's part, its total and what is paid of it;
        /// and each person's parts of its fee and discount by person number (empty without either).
        /// `organizer`: the person number of its settled organiser, or -1.
        func summary(
            of group: Group, number: Int32, organizer: Int32, slots: inout Slots, cache: inout ConversionCache
        ) -> (GroupSummary, [Int32: FeeShares]) {
            struct Line {
                var number: Int32
                /// Its first order's place among the group's orders.
                var first: UInt32
                var quantity = 0
            }
            struct Part {
                var person: Int32
                var first: UInt32
                var orders = 0
                var total = ExactSum()
                var paid = ExactSum()
            }
            let positions = byGroup[Int(number)]
            var lines: [Line] = []
            var parts: [Part] = []
            var total = ExactSum()
            var paid = ExactSum()
            var items = 0
            for (place, position) in positions.enumerated() {
                let fact = facts[Int(position)]
                let micros = fact.amountMicros
                let line = slots.line(fact.line, next: lines.count)
                if line == lines.count { lines.append(Line(number: fact.line, first: UInt32(place))) }
                lines[line].quantity += Int(fact.quantity)
                let part = slots.person(fact.person, next: parts.count)
                if part == parts.count { parts.append(Part(person: fact.person, first: position)) }
                parts[part].orders += 1
                parts[part].total.add(micros: micros) { amount(at: position) }
                total.add(micros: micros) { amount(at: position) }
                if fact.paid {
                    parts[part].paid.add(micros: micros) { amount(at: position) }
                    paid.add(micros: micros) { amount(at: position) }
                }
                items += Int(fact.quantity)
            }
            for line in lines { slots.lines[Int(line.number)] = -1 }
            for part in parts { slots.people[Int(part.person)] = -1 }
            lines = Self.sorted(lines, ranks: lineRank) { $0.number }
            parts = Self.sorted(parts, ranks: personRank) { $0.person }
            let shopLines = lines.map { GroupSummary.ShopLinePlace(first: $0.first, quantity: $0.quantity) }
            let currency = group.currency
            // The fee equally, the discount by subtotal, in whole minor units (`MoneyShares`).
            // Each person's parts, boxed once for the people's sums (`FeeShares`); the summaries hold
            // them inline (`PackedDecimals`).
            var byPerson: [Int32: FeeShares] = [:]
            var boxes: [FeeShares] = []
            var (feeParts, discountParts) = ([Decimal](), [Decimal]())
            var (fee, discount) = (Decimal(0), Decimal(0))
            if !parts.isEmpty, group.fee > 0 || group.discount > 0 {
                let digits = converter.money.minorUnits(currency)
                let feeUnits = MoneyShares.equal(MoneyShares.units(group.fee, digits: digits) ?? 0, among: parts.count)
                let discountUnits = MoneyShares.proportional(
                    MoneyShares.units(group.discount, digits: digits) ?? 0, to: MoneyShares.weights(parts.map(\.total.value)))
                feeParts = feeUnits.map { MoneyShares.amount(units: $0, digits: digits) }
                discountParts = discountUnits.map { MoneyShares.amount(units: $0, digits: digits) }
                fee = MoneyShares.amount(units: feeUnits.reduce(0, +), digits: digits)
                discount = MoneyShares.amount(units: discountUnits.reduce(0, +), digits: digits)
                boxes.reserveCapacity(parts.count)
                for index in parts.indices {
                    let change = feeParts[index] - discountParts[index]
                    parts[index].total.add(micros: ExactSum.micros(of: change)) { change }
                    total.add(micros: ExactSum.micros(of: change)) { change }
                    boxes.append(FeeShares(fee: feeParts[index], discount: discountParts[index]))
                    byPerson[parts[index].person] = boxes[index]
                }
            }
            let currencyNumber = displayCurrencies.isEmpty ? 0 : conversions.number(currency)
            let people = parts.indices.map { index in
                let part = parts[index]
                let settled = part.person == organizer
                var person = field(part.first) {
                    PersonTotal(
                        key: $0.pointee.personKey.text, name: spellings.shown($0.pointee.personKey.text, else: $0.pointee.person), orders: part.orders, total: part.total, paid: part.paid)
                }
                if !feeParts.isEmpty { person.shares = boxes[index] }
                if settled {
                    // Nobody pays themselves: the organiser's whole part counts as paid.
                    person.settled = true
                    let rest = person.total - person.paid
                    paid.add(micros: ExactSum.micros(of: rest)) { rest }
                    person.paid = person.total
                }
                if !displayCurrencies.isEmpty { person.converted = cache.converted(part.total, in: currencyNumber) }
                return person
            }
            var summary = GroupSummary(
                group: group, orders: OrderList(orders, positions: Array(positions), generation: generation), shopLines: shopLines, people: people,
                total: total.value, items: items, paid: paid.value, fee: fee, discount: discount)
            if !displayCurrencies.isEmpty { summary.converted = cache.converted(total, in: currencyNumber) }
            if organizer >= 0 { summary.settledOrganizer = people.first(where: \.settled)?.key }
            return (summary, byPerson)
        }

        /// One person's orders summed per currency and per group, with their parts of each group's fee and
        /// discount (`shares`, by group number), and nothing owed to themselves where they organise the
        /// group (`organizers`, by group number), their orders there paid when `organizerSettled`.
        func summary(
            ofPerson person: Int, groupCurrencies: [Int32], organizers: [Int32], organizerSettled: Bool, shares: [[Int32: FeeShares]],
            slots: inout Slots,
            cache: inout ConversionCache
        ) -> PersonSummary {
            struct Share {
                var number: Int32
                var first: UInt32
                var total = ExactSum()
                var unpaid = ExactSum()
                var owes = false
                /// Boxed, and none for most: two `Decimal`s made zero for every share cost more than summing it.
                var shares = FeeShares.none
            }
            let positions = byPerson[person]
            var currencies: [Share] = []
            var groups: [Share] = []
            for position in positions {
                let fact = facts[Int(position)]
                let micros = fact.amountMicros
                let currency = slots.currency(fact.currency, next: currencies.count)
                if currency == currencies.count { currencies.append(Share(number: fact.currency, first: position)) }
                currencies[currency].total.add(micros: micros) { amount(at: position) }
                let group = slots.group(fact.group, next: groups.count)
                if group == groups.count { groups.append(Share(number: fact.group, first: position)) }
                groups[group].total.add(micros: micros) { amount(at: position) }
                guard !fact.paid, !organizerSettled || organizers[Int(fact.group)] != Int32(person) else { continue }
                currencies[currency].unpaid.add(micros: micros) { amount(at: position) }
                // What a person owes a group is their unpaid orders there of a positive amount.
                if let micros, micros > 0 {
                    groups[group].unpaid.add(micros: micros)
                    groups[group].owes = true
                } else if micros == nil, amount(at: position) > 0 {
                    groups[group].unpaid.add(amount(at: position))
                    groups[group].owes = true
                }
            }
            // Fees and discounts: in the total, and in what is owed unless they organise the group. A group's
            // orders are all in its currency (`Validator`), so its first order's currency is its share's.
            for index in groups.indices {
                let organizes = organizers[Int(groups[index].number)] == Int32(person)
                let settled = organizerSettled && organizes
                if let part = shares[Int(groups[index].number)][Int32(person)] {
                    let change = part.fee - part.discount
                    let micros = ExactSum.micros(of: change)
                    let currency = Int(slots.currencies[Int(facts[Int(groups[index].first)].currency)])
                    groups[index].total.add(micros: micros) { change }
                    currencies[currency].total.add(micros: micros) { change }
                    groups[index].shares = part
                    if !settled {
                        groups[index].unpaid.add(micros: micros) { change }
                        currencies[currency].unpaid.add(micros: micros) { change }
                    }
                }
                // What is owed a group is what is unpaid there, when that is more than nothing.
                groups[index].owes = !organizes && groups[index].unpaid.isPositive
            }
            for share in currencies { slots.currencies[Int(share.number)] = -1 }
            for share in groups { slots.groups[Int(share.number)] = -1 }
            let converts = !displayCurrencies.isEmpty
            let (key, written) = field(positions.first!) { ($0.pointee.personKey.text, $0.pointee.person) }
            let name = spellings.shown(key, else: written)
            var summary = PersonSummary(
                key: key, name: name, orders: OrderList(orders, positions: Array(positions), generation: generation),
                currencyShares: currencies.map { share in
                    .init(currency: currencyName(share.number, at: share.first), total: share.total.value, outstanding: share.unpaid.value)
                },
                groupShares: groups.map { share in
                    .init(
                        group: groupName(share.number, at: share.first), total: share.total, owed: share.owes ? share.unpaid : nil,
                        shares: share.shares,
                        converted: converts ? cache.converted(share.total, in: groupCurrencies[Int(share.number)]) : [])
                })
            guard converts else { return summary }
            // By `OrderFacts`' currency numbers, which are the table's (`ConversionCache.Table`, `first`).
            summary.converted = cache.converted(currencies.map { ($0.number, $0.total) })
            summary.convertedOutstanding = cache.converted(currencies.map { ($0.number, $0.unpaid) })
            return summary
        }
    }

    /// Where each number (a shop line, person, currency, group) is in the list being summed, or -1:
    /// one array per core, as long as there are numbers, reset after each group or person.
    private struct Slots {
        var lines: [Int32]
        var people: [Int32]
        var currencies: [Int32]
        var groups: [Int32]

        init(_ tally: Tally) {
            lines = Array(repeating: -1, count: tally.lineCount)
            people = Array(repeating: -1, count: tally.personRank.count)
            currencies = Array(repeating: -1, count: tally.currencyCount)
            groups = Array(repeating: -1, count: tally.groupCount)
        }

        mutating func line(_ number: Int32, next: Int) -> Int { Self.slot(&lines, number, next: next) }
        mutating func person(_ number: Int32, next: Int) -> Int { Self.slot(&people, number, next: next) }
        mutating func currency(_ number: Int32, next: Int) -> Int { Self.slot(&currencies, number, next: next) }
        mutating func group(_ number: Int32, next: Int) -> Int { Self.slot(&groups, number, next: next) }

        /// The slot of `number`; `next` (then taken) when it has none yet.
        private static func slot(_ table: inout [Int32], _ number: Int32, next: Int) -> Int {
            let slot = table[Int(number)]
            if slot >= 0 { return Int(slot) }
            table[Int(number)] = Int32(next)
            return next
        }
    }

    /// The positions of the orders of each number (group or person), each number's in sheet order:
    /// one array for all of them, sorted by counting.
    private struct Buckets {
        private let offsets: [Int]
        private let positions: [UInt32]

        init(_ facts: [OrderFacts.Fact], count: Int, by number: (OrderFacts.Fact) -> Int32) {
            var offsets = [Int](repeating: 0, count: count + 1)
            for fact in facts { offsets[Int(number(fact)) + 1] += 1 }
            for index in 0..<count { offsets[index + 1] += offsets[index] }
            var next = offsets
            var positions = [UInt32](repeating: 0, count: facts.count)
            for (position, fact) in facts.enumerated() {
                let bucket = Int(number(fact))
                positions[next[bucket]] = UInt32(position)
                next[bucket] += 1
            }
            self.offsets = offsets
            self.positions = positions
        }

        subscript(number: Int) -> ArraySlice<UInt32> { positions[offsets[number]..<offsets[number + 1]] }
    }
}
