import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressAggregate
import OrderPressTestSupport

/// The aggregate step (numbered orders, integer sums, both cores) against a straightforward one:
/// Decimal dictionaries keyed by person key and group name, summed order by order, on generated sheets
/// with several currencies (one without a rate), paid and unpaid orders, negative, fractional and
/// huge prices (beyond 64 bits, finer than millionths), people and groups written in several
/// canonically equivalent or differently cased ways, and orders whose group is not in the list.
@Suite struct AggregationReferenceTests {
    static let groups = [
        Group(name: "Tea", organizer: "", shop: "", currency: "TWD", deadline: ""),
        Group(name: "Caf\u{E9}", organizer: "", shop: "", currency: "EUR", deadline: ""),
        Group(name: "Boba", organizer: "", shop: "", currency: "USD", deadline: ""),
        Group(name: "Tea", organizer: "Second", shop: "", currency: "JPY", deadline: ""),  // a repeated name: the first one counts
        Group(name: "Empty", organizer: "", shop: "", currency: "TWD", deadline: ""),
    ]
    /// "Cafe" + U+0301 is the same group as "Café"; "Nowhere" is in no list.
    static let groupNames = ["Tea", "Caf\u{E9}", "Cafe\u{301}", "Boba", "Nowhere"]
    /// "Zoë" twice (composed, decomposed), "Amy" in three cases, CJK names with a Latin part.
    static let people = ["Amy", "amy", "AMY", "Zo\u{EB}", "Zoe\u{308}", "陳小明", "陳小明 2", "林Ben", "林ben", "Émile"]
    static let items = [("紅茶", [String]()), ("紅茶", ["L"]), ("紅茶", ["L", "半糖"]), ("Caf\u{E9}", ["M"]), ("Cafe\u{301}", ["M"])]
    static let prices = [
        "35", "6.25", "0.5", "0", "-12.5", "0.000001", "999999999999", "123456789012.123456",
        "0.0000001",  // finer than millionths: summed as a Decimal
        "99999999999999",  // beyond 64 bits in millionths
    ]
    static let currencies = ["", "", "", "TWD", "USD", "JPY", "EUR", "KRW"]  // "": the group's own
    static let quantities = [1, 1, 1, 2, 3, 10_000]

    /// Rates whose every cross factor is a short exact fraction (1/32, 5, 1.25 …), so that a sum of
    /// conversions is exact in whatever order it is added.
    static let rates = RateTable(
        base: "USD", rates: ["TWD": 32, "JPY": 160, "EUR": Decimal(string: "0.8")!], asOf: nil, source: "json")

    static func data(_ specs: [[Int]], paidColumn: Bool) -> ValidatedData {
        let orders = specs.enumerated().map { index, spec -> Order in
            let person = people[spec[1] % people.count]
            let (item, options) = items[spec[2] % items.count]
            let group = groupNames[spec[0] % groupNames.count]
            let own = currencies[spec[4] % currencies.count]
            let currency = own.isEmpty ? (Self.groups.first { $0.name == group }?.currency ?? "TWD") : own
            return Order(
                row: index + 2, id: nil, group: group, person: person, personKey: PersonKey(person), item: item, options: options,
                quantity: quantities[spec[5] % quantities.count], unitPrice: Decimal(string: prices[spec[3] % prices.count])!,
                currency: currency, time: nil, timeText: "", note: "", paid: paidColumn && spec[6] % 2 == 0)
        }
        return ValidatedData(groups: groups, orders: orders, rejected: [], warnings: [], rowsRead: orders.count, tracksPayments: paidColumn)
    }

    static let sheets = Gen.int(in: 0...1000).array(of: 7).array(of: 0...60)

    @Test func everyTotalIsWhatSummingOrderByOrderGives() async {
        await propertyCheck(count: 200, input: Self.sheets, Gen.bool) { specs, paidColumn in
            let data = Self.data(specs, paidColumn: paidColumn)
            for display in [[], ["USD", "TWD", "JPY", "KRW"]] {
                let aggregation = Aggregator.aggregate(data, rates: Self.rates, displayCurrencies: display, baseCurrency: "TWD")
                Self.expectReference(aggregation, data: data, display: display)
            }
        }
    }

    /// Thousands of orders: the work is split over both cores, and the shares' numberings merged.
    @Test func aLargeSheetSplitOverCoresSumsTheSame() {
        var generator = SystemRandomNumberGenerator()
        let specs = (0..<45_000).map { _ in (0..<7).map { _ in Int.random(in: 0...1000, using: &generator) } }
        let data = Self.data(specs, paidColumn: true)
        let display = ["USD", "TWD"]
        Self.expectReference(Aggregator.aggregate(data, rates: Self.rates, displayCurrencies: display), data: data, display: display)
    }

    static func expectReference(_ aggregation: Aggregation, data: ValidatedData, display: [String]) {
        func converted(_ amounts: [String: Decimal]) -> [ConvertedAmount] {
            display.map { Self.converted(amounts, into: $0) }
        }
        let reference = Reference(data)
        #expect(aggregation.grandTotals == reference.grandTotals)
        #expect(aggregation.grandOutstanding == reference.grandOutstanding)
        #expect(aggregation.tracksPayments == data.tracksPayments)
        #expect(aggregation.convertedGrandTotals == converted(reference.grandTotals))
        #expect(aggregation.groups.count == data.groups.count)
        for (summary, group) in zip(aggregation.groups, data.groups) {
            let expected = reference.group(group.name)
            #expect(summary.group == group)
            #expect(summary.orders.map(\.row) == expected.rows)
            #expect(summary.total == expected.total && summary.paid == expected.paid && summary.items == expected.items)
            #expect(summary.shopSheet == expected.lines)
            #expect(summary.shopSheet.map { Array($0.item.utf8) } == expected.lines.map { Array($0.item.utf8) })
            #expect(summary.converted == converted([group.currency: expected.total]))
            #expect(summary.people.map(\.key) == expected.people.map(\.key))
            #expect(summary.people.map { Array($0.name.utf8) } == expected.people.map { Array($0.name.utf8) })
            #expect(summary.people.map(\.orders) == expected.people.map(\.orders))
            #expect(summary.people.map(\.total) == expected.people.map(\.total))
            #expect(summary.people.map(\.paid) == expected.people.map(\.paid))
            #expect(summary.people.map(\.converted) == expected.people.map { converted([group.currency: $0.total]) })
        }
        #expect(aggregation.people.map(\.key) == reference.people.map(\.key))
        for (person, expected) in zip(aggregation.people, reference.people) {
            #expect(Array(person.name.utf8) == Array(expected.name.utf8))
            #expect(Array(person.key.utf8) == Array(expected.key.utf8))
            #expect(person.orders.map(\.row) == expected.rows)
            // Each group and currency named as the person's first order there writes it, byte for byte
            // (the names come from the numbering unless some order writes them in other bytes).
            var groupsSeen: [String] = []
            var currenciesSeen: [String] = []
            for order in person.orders {
                if !groupsSeen.contains(order.group) { groupsSeen.append(order.group) }
                if !currenciesSeen.contains(order.currency) { currenciesSeen.append(order.currency) }
            }
            #expect(person.groupShares.map { Array($0.group.utf8) } == groupsSeen.map { Array($0.utf8) })
            #expect(person.currencyShares.map { Array($0.currency.utf8) } == currenciesSeen.map { Array($0.utf8) })
            #expect(person.totals == expected.totals)
            #expect(person.outstanding == expected.outstanding)
            #expect(person.totalsByGroup == expected.totalsByGroup)
            #expect(person.outstandingByGroup == expected.outstandingByGroup)
            #expect(person.converted == converted(expected.totals))
            #expect(person.convertedOutstanding == converted(expected.outstanding))
            let byGroup = expected.totalsByGroup.mapValues { total in total }
            #expect(person.convertedByGroup.keys.sorted() == (display.isEmpty ? [] : byGroup.keys.sorted()))
            for (name, total) in byGroup where !display.isEmpty {
                let currency = data.groups.first { $0.name == name }?.currency ?? ""
                #expect(person.convertedByGroup[name] == converted([currency: total]))
            }
        }
    }

    /// ISO 4217 minor units of the display currencies.
    static let minorUnits = ["USD": 2, "TWD": 2, "JPY": 0, "KRW": 0]

    /// `amounts` in `currency` by the rate table's own numbers (amount × rate(to) ÷ rate(from), none for its own currency; each
    /// exact with these rates), rounded half-up by Foundation: not through production's `Converter`.
    static func converted(_ amounts: [String: Decimal], into currency: String) -> ConvertedAmount {
        let digits = minorUnits[currency]!
        var total: Decimal = 0
        for (from, amount) in amounts {
            if from == currency {
                total += amount
                continue
            }
            guard let fromRate = rates.rates[from], let toRate = rates.rates[currency] else {
                return ConvertedAmount(currency: currency, amount: nil, rounded: nil, digits: digits)
            }
            total += amount * toRate / fromRate
        }
        var exact = total
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, digits, .plain)
        return ConvertedAmount(currency: currency, amount: total, rounded: rounded, digits: digits)
    }

    /// Summing order by order, in Decimal, into dictionaries keyed by the texts themselves.
    struct Reference {
        struct Person {
            var key: String
            var name: String
            var rows: [Int] = []
            var totals: [String: Decimal] = [:]
            var outstanding: [String: Decimal] = [:]
            var totalsByGroup: [String: Decimal] = [:]
            var outstandingByGroup: [String: Decimal] = [:]
        }

        struct GroupPart {
            var key: String
            var name: String
            var orders = 0
            var total: Decimal = 0
            var paid: Decimal = 0
        }

        struct GroupTotals {
            var rows: [Int] = []
            var total: Decimal = 0
            var paid: Decimal = 0
            var items = 0
            var lines: [ShopLine] = []
            var people: [GroupPart] = []
        }

        var people: [Person]
        var groups: [String: GroupTotals] = [:]
        var grandTotals: [String: Decimal] = [:]
        var grandOutstanding: [String: Decimal] = [:]

        init(_ data: ValidatedData) {
            var people: [String: Person] = [:]
            for order in data.orders {
                let amount = order.unitPrice * Decimal(order.quantity)
                grandTotals[order.currency, default: 0] += amount
                var person = people[order.personKey.text] ?? Person(key: order.personKey.text, name: order.person)
                person.rows.append(order.row)
                person.totals[order.currency, default: 0] += amount
                person.outstanding[order.currency, default: 0] += order.paid ? 0 : amount
                person.totalsByGroup[order.group, default: 0] += amount
                if !order.paid, amount > 0 { person.outstandingByGroup[order.group, default: 0] += amount }
                people[order.personKey.text] = person
            }
            self.people = people.values.sorted { $0.key < $1.key }
            for group in data.groups where groups[group.name] == nil {
                var totals = GroupTotals()
                var lines: [ShopLine] = []
                var parts: [GroupPart] = []
                for order in data.orders where order.group == group.name {
                    let amount = order.unitPrice * Decimal(order.quantity)
                    totals.rows.append(order.row)
                    totals.total += amount
                    if order.paid { totals.paid += amount }
                    totals.items += order.quantity
                    if let line = lines.firstIndex(where: { $0.item == order.item && $0.options == order.options && $0.unitPrice == order.unitPrice }) {
                        lines[line].quantity += order.quantity
                    } else {
                        lines.append(ShopLine(item: order.item, options: order.options, quantity: order.quantity, unitPrice: order.unitPrice))
                    }
                    let part = parts.firstIndex { $0.key == order.personKey.text } ?? {
                        parts.append(GroupPart(key: order.personKey.text, name: order.person))
                        return parts.count - 1
                    }()
                    parts[part].orders += 1
                    parts[part].total += amount
                    if order.paid { parts[part].paid += amount }
                }
                totals.lines = lines.sorted {
                    ($0.item, $0.options.joined(separator: "\u{1}"), $0.unitPrice) < ($1.item, $1.options.joined(separator: "\u{1}"), $1.unitPrice)
                }
                totals.people = parts.sorted { $0.key < $1.key }
                groups[group.name] = totals
            }
            for group in data.groups { grandOutstanding[group.currency, default: 0] += groups[group.name]!.total - groups[group.name]!.paid }
        }

        func group(_ name: String) -> GroupTotals { groups[name]! }
    }

    /// Sums in millionths and in Decimal beyond them equal the plain Decimal sum, to the last digit and
    /// in the same (compact) form.
    @Test func anExactSumIsTheDecimalSum() async {
        let amounts = Gen.int(in: 0...(Self.prices.count - 1)).array(of: 0...40)
        await propertyCheck(count: 500, input: amounts, Gen.int(in: 0...(Self.quantities.count - 1))) { indices, quantity in
            var sum = ExactSum()
            var plain: Decimal = 0
            for index in indices {
                let amount = Decimal(string: Self.prices[index])! * Decimal(Self.quantities[quantity])
                plain += amount
                sum.add(micros: ExactSum.micros(unitPrice: ExactSum.micros(of: Decimal(string: Self.prices[index])!), quantity: Self.quantities[quantity])) {
                    amount
                }
            }
            #expect(sum.value == plain)
            #expect(sum.value.description == plain.description)
            #expect(sum.value.exponent == plain.exponent)
        }
    }

    /// An amount's millionths read from the stored Decimal are those read through `NSDecimalNumber`
    /// (the way it was done before), for values of every shape: whole millionths or finer, significands
    /// beyond 62 and 64 bits, both signs, exponents from -24 to 12.
    @Test func millionthsAreThoseFoundationReads() async {
        func reference(_ amount: Decimal) -> Int64? {
            let exponent = amount.exponent
            guard exponent >= -6, exponent <= 12, !amount.isNaN else { return nil }
            let significand = amount.significand
            let units = NSDecimalNumber(decimal: significand).uint64Value
            guard units < 1 << 62, Decimal(units) == significand else { return nil }
            let power = (0..<(exponent + 6)).reduce(Int64(1)) { value, _ in value * 10 }
            let (scaled, overflow) = Int64(units).multipliedReportingOverflow(by: power)
            guard !overflow else { return nil }
            return amount.sign == .minus ? -scaled : scaled
        }
        await propertyCheck(count: 3000, input: DecimalFixtures.anyShape) { value, _ in
            #expect(ExactSum.micros(of: value) == reference(value), "\(value)")
        }
        for text in ["35", "-12.5", "0.000001", "0.0000001", "4611686018427.387903", "4611686018427.387904", "9223372036854775807"] {
            let value = Decimal(string: text)!
            #expect(ExactSum.micros(of: value) == reference(value), "\(text)")
        }
    }

    /// The fast case folding is `lowercased()` on names of every script mix.
    @Test func foldingAPersonIsLowercased() async {
        let pieces = ["A", "z", "Ben", " ", "陳", "小明", "ヒロ", "ひろ", "김", "É", "Σ", "ǅ", "İ", "Ａ", "1", "-", "\u{301}", "ß"]
        let names = Gen.int(in: 0...(pieces.count - 1)).array(of: 0...6).map { $0.map { pieces[$0] }.joined() }
        await propertyCheck(count: 1000, input: names) { name in
            #expect(Array(Text.lowercased(name).utf8) == Array(name.lowercased().utf8), "'\(name)'")
        }
    }
}
