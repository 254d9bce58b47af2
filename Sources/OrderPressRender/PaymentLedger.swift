import Foundation
import OrderPressConfig
import OrderPressDiff
import OrderPressSupport
import OrderPressValidate

/// What people still owe from finished rounds once their payments are counted: the debts
/// `CarriedDebt.byPerson` finds in the archives, settled by the `[payments]` source's rows, or, without
/// one, dropped `keep_unpaid_days` after their round closed (by the run's clock).
///
/// Settling (docs/money-and-rounds.md, Rounds and debts): a payment naming a group pays that group's debts in its
/// currency first, oldest first; what is left of it, and every payment naming no group, pays the
/// person's oldest debts in that currency (by close, then group name). Named payments go first, so the
/// result does not depend on the payments' order in the sheet. What is left after every debt in that
/// currency is paid is the person's credit: kept and shown ("paid 10 TWD more than owed"), never
/// dropped or converted, and it pays a debt of a round that closes later. Money is neither lost nor
/// made: owed at close = paid off + still owed, and paid = paid off + credit, per person and currency.
package struct PaymentLedger: Sendable {
    /// Debts not yet paid off, by person key, oldest first; `paid` says how much of each is paid.
    package let debts: [String: [CarriedDebt]]
    /// What people paid beyond their carried debts, by person key and currency; only amounts above zero.
    package let credit: [String: [String: Decimal]]

    package static let none = PaymentLedger(debts: [:], credit: [:])

    private init(debts: [String: [CarriedDebt]], credit: [String: [String: Decimal]]) {
        (self.debts, self.credit) = (debts, credit)
    }

    /// `payments`: the `[payments]` source's rows, or nil without the source (debts then expire).
    package init(
        archives: [RoundArchive], payments: [Payment]?, money: MoneyFormat, organizerSettled: Bool, baseCurrency: String,
        keepUnpaidDays: Int, now: Date
    ) {
        let carried = CarriedDebt.byPerson(archives, money: money, organizerSettled: organizerSettled)
        guard let payments else {
            let kept = carried.mapValues { debts in
                debts.filter { debt in Self.end(of: debt.archive, keepUnpaidDays: keepUnpaidDays).map { now < $0 } ?? true }
            }
            self.init(debts: kept.filter { !$0.value.isEmpty }, credit: [:])
            return
        }
        self.init(settling: carried, with: payments, baseCurrency: baseCurrency)
    }

    /// The build's ledger: the payments count only with a `[payments]` source (without one, debts expire).
    /// Made once, after the diff closed this run's rounds; the pages, the tombstones and the warnings read it.
    package init(archives: [RoundArchive], payments: [Payment], configuration: Configuration, now: Date) {
        self.init(
            archives: archives, payments: configuration.payments == nil ? nil : payments,
            money: MoneyFormat(minorUnitOverrides: configuration.minorUnits), organizerSettled: configuration.rounds.organizerSettled,
            baseCurrency: configuration.baseCurrency, keepUnpaidDays: configuration.rounds.keepUnpaidDays, now: now)
    }

    /// The keys of the people who still owe from a finished round: their pages stay while they do.
    package var debtors: Set<String> { Set(debts.keys) }

    /// The settling rule alone, for the money reference tests.
    package init(settling carried: [String: [CarriedDebt]], with payments: [Payment], baseCurrency: String) {
        var debts = carried
        // What is left of each person's payments, by currency, to pay their oldest debts with.
        var pool: [String: [String: Decimal]] = [:]
        for payment in payments where payment.amount > 0 {
            let key = payment.personKey.text
            let group = payment.group
            let currency =
                payment.currency
                ?? group.flatMap { name in carried[key]?.first { $0.archive.group == name }?.currency }
                ?? baseCurrency
            var left = payment.amount
            if let group {
                left = Self.pay(left, currency: currency, from: &debts[key, default: []]) { $0.archive.group == group }
            }
            pool[key, default: [:]][currency, default: 0] += left
        }
        var credit: [String: [String: Decimal]] = [:]
        for (key, amounts) in pool {
            for (currency, amount) in amounts {
                let left = Self.pay(amount, currency: currency, from: &debts[key, default: []]) { _ in true }
                if left > 0 { credit[key, default: [:]][currency] = left }
            }
        }
        self.init(debts: debts.mapValues { $0.filter { $0.amount > 0 } }.filter { !$0.value.isEmpty }, credit: credit)
    }

    /// Pays `amount` in `currency` into the debts `which` picks, oldest first; returns what is left.
    private static func pay(_ amount: Decimal, currency: String, from debts: inout [CarriedDebt], which: (CarriedDebt) -> Bool) -> Decimal {
        var left = amount
        for index in debts.indices where left > 0 && debts[index].amount > 0 && debts[index].currency == currency && which(debts[index]) {
            let part = min(left, debts[index].amount)
            debts[index].amount -= part
            debts[index].paid += part
            left -= part
        }
        return left
    }

    /// One warning per person and currency with credit, naming the person as their payments write them: said
    /// on the Attention page too, so that money paid by someone without a page (no current orders) is seen.
    package func creditWarnings(_ payments: [Payment], money: MoneyFormat) -> [DataWarning] {
        var names: [String: String] = [:]
        for payment in payments where names[payment.personKey.text] == nil { names[payment.personKey.text] = payment.person }
        return credit.keys.sorted().flatMap { key in
            credit[key]!.sorted { $0.key < $1.key }.map { currency, amount in
                let (person, text) = (names[key] ?? key, "\(money.display(amount, currency)) \(currency)")
                var warning = DataWarning(
                    row: nil,
                    Reason(
                        .paymentCredit, ["person": person, "amount": text]))
                warning.source = "payments"
                return warning
            }
        }
    }

    /// The moment a debt of `archive` stops being listed without a payments source: `keep_unpaid_days`
    /// after the round closed. Nil when the close time cannot be read (kept).
    static func end(of archive: RoundArchive, keepUnpaidDays: Int) -> Date? {
        Timestamp.parseUTC(archive.closedAt).map { $0.addingTimeInterval(Double(keepUnpaidDays) * 86_400) }
    }

    /// The next moment after `now` at which a carried debt is dropped (no payments source): a rerun on
    /// unchanged input must build again then, so that it equals a build from scratch.
    package static func nextExpiry(archives: [RoundArchive], configuration: Configuration, now: Date) -> Date? {
        guard configuration.payments == nil else { return nil }
        // Just before the end: an unchanged rerun's record holds up to and including `validUntil`.
        return archives.compactMap { end(of: $0, keepUnpaidDays: configuration.rounds.keepUnpaidDays) }.filter { $0 > now }.min()
            .map { $0.addingTimeInterval(-1) }
    }
}
