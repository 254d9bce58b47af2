import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressConfig
@testable import OrderPressValidate
@testable import OrderPressDiff
@testable import OrderPressRender
import OrderPressTestSupport

/// `PaymentLedger`: carried debts settled by payments, oldest first, and dropped after `keep_unpaid_days`
/// without a payments source; and the money reference test — generated rounds and payments against an
/// independent computation in whole minor units written here (not `RoundBalances`, `MoneyShares` or the
/// ledger's own loop): every debt's still-owed and paid amounts, every credit, and the totals conserved.
@Suite struct PaymentLedgerTests {
    static let money = MoneyFormat(minorUnitOverrides: [:])
    static let closed = Date(timeIntervalSince1970: 1_795_400_000)

    static func archive(
        _ group: String, closedAt: Date = closed, organizer: String = "Org", _ lines: [(String, Decimal, String)], fee: String? = nil, currency: String? = nil
    ) -> RoundArchive {
        RoundArchive(
            group: group, slug: group.lowercased(), date: "2026-11-23", deadline: "2026-11-23 09:30", organizer: organizer, shop: "",
            closedAt: Timestamp.iso8601(closedAt),
            orders: lines.map { .init(person: $0.0, item: "tea", options: [], quantity: 1, amount: DecimalText.exact($0.1), currency: $0.2, paid: false) },
            currency: currency, fee: fee)
    }

    static func payment(_ person: String, _ amount: Decimal, _ currency: String? = "TWD", group: String? = nil, row: Int = 2) -> Payment {
        Payment(row: row, person: person, personKey: PersonKey(person), amount: amount, currency: currency, group: group, time: nil)
    }

    static func ledger(_ archives: [RoundArchive], _ payments: [Payment]?, keep: Int = 90, now: Date = closed) -> PaymentLedger {
        PaymentLedger(archives: archives, payments: payments, money: money, organizerSettled: true, baseCurrency: "TWD", keepUnpaidDays: keep, now: now)
    }

    static func owed(_ ledger: PaymentLedger, _ key: String) -> [String] {
        (ledger.debts[key] ?? []).map { "\($0.archive.group) \(DecimalText.exact($0.amount)) \($0.currency) paid \(DecimalText.exact($0.paid))" }
    }

    /// Oldest first by close, then group name; a payment naming a group pays that group first, and what is
    /// left of it goes on to the oldest; a person's name matched by `PersonKey`.
    @Test func paymentsPayTheOldestDebtsFirstAndANamedGroupBeforeThat() {
        let archives = [
            Self.archive("Tea", closedAt: Self.closed.addingTimeInterval(86_400), [("Amy", 30, "TWD")]),
            Self.archive("Lunch", [("Amy", 100, "TWD")]),
            Self.archive("Cake", [("Amy", 50, "TWD")]),
        ]
        // No payment: three debts, oldest first (Cake and Lunch closed together: by name).
        #expect(Self.owed(Self.ledger(archives, []), "amy") == ["Cake 50 TWD paid 0", "Lunch 100 TWD paid 0", "Tea 30 TWD paid 0"])
        // 70 naming nothing: Cake in full, 20 of Lunch.
        #expect(Self.owed(Self.ledger(archives, [Self.payment("ＡＭＹ", 70)]), "amy") == ["Lunch 80 TWD paid 20", "Tea 30 TWD paid 0"])
        // 40 for Tea: Tea in full, 10 left to Cake; 10 naming nothing, before it in the sheet: Cake too.
        let named = Self.ledger(archives, [Self.payment("amy", 10), Self.payment("Amy", 40, group: "Tea")])
        #expect(Self.owed(named, "amy") == ["Cake 30 TWD paid 20", "Lunch 100 TWD paid 0"])
        #expect(named.credit.isEmpty)
        // A payment in another currency pays nothing in TWD: it is credit, shown, not converted.
        let other = Self.ledger(archives, [Self.payment("Amy", 5, "USD")])
        #expect(other.debts["amy"]?.count == 3 && other.credit == ["amy": ["USD": 5]])
        // A payment naming a group without a currency takes its debts' currency.
        let jpy = Self.ledger([Self.archive("Sushi", [("Ben", 1200, "JPY")])], [Self.payment("Ben", 200, nil, group: "Sushi")])
        #expect(Self.owed(jpy, "ben") == ["Sushi 1000 JPY paid 200"])
    }

    /// Without a payments source a debt is listed until `keep_unpaid_days` after its round closed; with one,
    /// however long ago, until paid.
    @Test func withoutPaymentsDebtsExpireAndWithThemTheyStay() throws {
        let archives = [Self.archive("Tea", [("Amy", 30, "TWD")])]
        let day = 86_400.0
        #expect(Self.owed(Self.ledger(archives, nil, keep: 3, now: Self.closed.addingTimeInterval(3 * day - 1)), "amy") == ["Tea 30 TWD paid 0"])
        #expect(Self.ledger(archives, nil, keep: 3, now: Self.closed.addingTimeInterval(3 * day)).debts.isEmpty)
        #expect(Self.owed(Self.ledger(archives, [], keep: 3, now: Self.closed.addingTimeInterval(400 * day)), "amy") == ["Tea 30 TWD paid 0"])
        var configuration = try ConfigurationLoader.parse(
            "[orders]\npath = \"o.csv\"\n[rounds]\nkeep_unpaid_days = 3\n", file: URL(fileURLWithPath: "/tmp/x/orderpress.toml"))
        let expiry = PaymentLedger.nextExpiry(archives: archives, configuration: configuration, now: Self.closed)
        #expect(expiry == Self.closed.addingTimeInterval(3 * day - 1))
        configuration.payments = configuration.orders
        #expect(PaymentLedger.nextExpiry(archives: archives, configuration: configuration, now: Self.closed) == nil)
    }

    // MARK: - The money reference test

    static let people = ["Amy", "Ben", "Cat", "Dan"]
    static let groups = ["Cake", "Lunch", "Tea"]
    static let currencies = [("TWD", 2), ("JPY", 0), ("USD", 2)]

    /// A case: rounds closed at one of a few times (so that ties go by group name), each in one currency,
    /// orders of a few people paid or not, an optional fee; payments naming a group or not, in a currency
    /// or not, of amounts from 0 to more than anyone owes.
    struct Case: Sendable, CustomStringConvertible {
        var archives: [RoundArchive]
        var payments: [Payment]
        var description: String { "\(archives.map { "\($0.group)@\($0.closedAt) \($0.currency ?? "-") fee \($0.fee ?? "-") \($0.orders.map { "\($0.person) \($0.amount) \($0.paid!)" })" })\n\(payments.map { "\($0.person) \($0.amount) \($0.currency ?? "-") \($0.group ?? "-")" })" }
    }

    static let cases = Generator<Case, Shrink.None<Case>> { rng in
        var archives: [RoundArchive] = []
        for (index, group) in groups.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng)).enumerated() {
            let (currency, digits) = currencies.randomElement(using: &rng)!
            let scale = digits == 0 ? Decimal(1) : Decimal(100)
            let lines = (0..<Int.random(in: 1...6, using: &rng)).map { _ in
                (people.randomElement(using: &rng)!, Decimal(Int.random(in: 0...5_000, using: &rng)) / scale, currency, Bool.random(using: &rng))
            }
            let fee = Int.random(in: 0..<3, using: &rng) == 0 ? Decimal(Int.random(in: 1...999, using: &rng)) / scale : nil
            var archive = Self.archive(
                group, closedAt: closed.addingTimeInterval(Double(Int.random(in: 0...2, using: &rng)) * 86_400), organizer: people.randomElement(using: &rng)!,
                lines.map { ($0.0, $0.1, $0.2) }, fee: fee.map(DecimalText.exact), currency: currency)
            for (line, source) in zip(archive.orders.indices, lines) { archive.orders[line].paid = source.3 }
            archive.slug += String(index)
            archives.append(archive)
        }
        let payments = (0..<Int.random(in: 0...6, using: &rng)).map { row in
            let (written, digits) = currencies.randomElement(using: &rng)!
            // Without a currency it may be any round's: whole units fit every one.
            let currency = Bool.random(using: &rng) ? written : nil
            return payment(
                people.randomElement(using: &rng)!, Decimal(Int.random(in: 0...8_000, using: &rng)) / (digits == 0 || currency == nil ? 1 : 100),
                currency, group: Bool.random(using: &rng) ? groups.randomElement(using: &rng)! : nil, row: row + 2)
        }
        return Case(archives: archives, payments: payments)
    }

    /// One debt as the reference computes it, in minor units.
    struct Debt: Equatable, CustomStringConvertible {
        var path: String
        var group: String
        var currency: String
        var owed: Int
        var paid = 0
        var description: String { "\(path) \(currency) owed \(owed) paid \(paid)" }
    }

    static func units(_ text: String, _ currency: String) -> Int {
        let digits = currencies.first { $0.0 == currency }!.1
        return NSDecimalNumber(decimal: DecimalText.parse(text)! * (digits == 0 ? 1 : 100)).intValue
    }

    /// The reference: what each person owed at each close (unpaid orders, and a fee split equally among the
    /// round's people in key order, remainders to the first, the organiser's part settled), then settled by
    /// prefix sums — a group's named payments against that group's debts, the rest against all, oldest first.
    static func reference(_ test: Case) -> (debts: [String: [Debt]], credit: [String: [String: Int]]) {
        var debts: [String: [Debt]] = [:]
        for archive in test.archives.sorted(by: { ($0.closedAt, $0.group) < ($1.closedAt, $1.group) }) {
            let keys = Set(archive.orders.map { PersonKey($0.person).text }).sorted()
            var unpaid: [String: [String: Int]] = [:]
            for line in archive.orders where line.paid != true {
                unpaid[PersonKey(line.person).text, default: [:]][line.currency, default: 0] += units(line.amount, line.currency)
            }
            if let fee = archive.fee, let currency = archive.currency {
                let total = units(fee, currency)
                for (position, key) in keys.enumerated() where key != PersonKey(archive.organizer).text {
                    unpaid[key, default: [:]][currency, default: 0] += total / keys.count + (position < total % keys.count ? 1 : 0)
                }
            }
            for key in keys {
                for (currency, amount) in (unpaid[key] ?? [:]).sorted(by: { $0.key < $1.key }) where amount > 0 {
                    debts[key, default: []].append(Debt(path: archive.path, group: archive.group, currency: currency, owed: amount))
                }
            }
        }
        /// Pays `amount` into `indices` of `list` (oldest first) by prefix sums; returns what is left.
        func settle(_ amount: Int, _ list: inout [Debt], _ indices: [Int]) -> Int {
            var before = 0
            for index in indices {
                let open = list[index].owed - list[index].paid
                list[index].paid += min(open, max(0, amount - before))
                before += open
            }
            return max(0, amount - before)
        }
        var pools: [String: [String: Int]] = [:]
        var named: [String: [String: [String: Int]]] = [:]  // person, group, currency
        for payment in test.payments {
            let key = payment.personKey.text
            let currency = payment.currency ?? payment.group.flatMap { group in debts[key]?.first { $0.group == group }?.currency } ?? "TWD"
            let amount = NSDecimalNumber(decimal: payment.amount * (currency == "JPY" ? 1 : 100)).intValue
            if let group = payment.group { named[key, default: [:]][group, default: [:]][currency, default: 0] += amount } else { pools[key, default: [:]][currency, default: 0] += amount }
        }
        for (key, groups) in named {
            for (group, amounts) in groups {
                for (currency, amount) in amounts {
                    let indices = (debts[key] ?? []).indices.filter { debts[key]![$0].group == group && debts[key]![$0].currency == currency }
                    pools[key, default: [:]][currency, default: 0] += settle(amount, &debts[key, default: []], indices)
                }
            }
        }
        var credit: [String: [String: Int]] = [:]
        for (key, amounts) in pools {
            for (currency, amount) in amounts {
                let indices = (debts[key] ?? []).indices.filter { debts[key]![$0].currency == currency }
                let left = settle(amount, &debts[key, default: []], indices)
                if left > 0 { credit[key, default: [:]][currency] = left }
            }
        }
        return (debts.mapValues { $0.filter { $0.paid < $0.owed } }.filter { !$0.value.isEmpty }, credit)
    }

    @Test func carriedDebtsAndPaymentsAgreeWithTheReference() async {
        await propertyCheck(count: 500, input: Self.cases) { test in
            let ledger = Self.ledger(test.archives, test.payments)
            let expected = Self.reference(test)
            let found = ledger.debts.mapValues { list in
                list.map { Debt(path: $0.archive.path, group: $0.archive.group, currency: $0.currency, owed: Self.units(DecimalText.exact($0.owedAtClose), $0.currency), paid: Self.units(DecimalText.exact($0.paid), $0.currency)) }
            }
            #expect(found == expected.debts, "\(test)")
            #expect(ledger.credit.mapValues(\.count) == expected.credit.mapValues(\.count), "\(test)")
            for (key, amounts) in expected.credit {
                for (currency, amount) in amounts {
                    #expect(ledger.credit[key]?[currency].map { Self.units(DecimalText.exact($0), currency) } == amount, "\(test)")
                }
            }

            // Conserved, per person and currency: owed at close = paid off + still owed; paid = paid off + credit.
            let all = Self.ledger(test.archives, [])
            var owedAtClose: [String: Decimal] = [:], stillOwed: [String: Decimal] = [:], paidOff: [String: Decimal] = [:], paid: [String: Decimal] = [:]
            for (key, list) in all.debts { for debt in list { owedAtClose["\(key) \(debt.currency)", default: 0] += debt.amount } }
            for (key, list) in ledger.debts { for debt in list { stillOwed["\(key) \(debt.currency)", default: 0] += debt.amount } }
            for (key, amounts) in ledger.credit { for (currency, amount) in amounts { paid["\(key) \(currency)", default: 0] -= amount } }
            for payment in test.payments {
                let key = payment.personKey.text
                let currency = payment.currency ?? payment.group.flatMap { group in all.debts[key]?.first { $0.archive.group == group }?.currency } ?? "TWD"
                paid["\(key) \(currency)", default: 0] += payment.amount
            }
            for (name, owed) in owedAtClose { paidOff[name] = owed - (stillOwed[name] ?? 0) }
            // What payments took off equals what they paid less the credit they left.
            #expect(paidOff.filter { $0.value != 0 } == paid.filter { $0.value != 0 }, "\(test)")
            #expect(stillOwed.allSatisfy { $0.value > 0 })

            // Oldest first: with no payment naming a group, a debt is paid only when every older one in its currency is.
            if test.payments.allSatisfy({ $0.group == nil }) {
                for list in ledger.debts.values {
                    for (index, debt) in list.enumerated() where debt.paid > 0 {
                        #expect(!list[..<index].contains { $0.currency == debt.currency }, "\(test)")
                    }
                }
            }
        }
    }
}
