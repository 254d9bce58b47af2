import Foundation
import OrderPressDiff
import OrderPressSupport

/// What a person still owed when their round closed (`RoundArchive`, `RoundBalances`): shown on their page
/// beside their current orders, with whom to pay, how and a link to the archive, and in `summary.json`.
package struct CarriedDebt: Sendable, Equatable {
    package var archive: RoundArchive
    /// What is still owed: what was owed at the close less what payments paid off (`PaymentLedger`).
    package var amount: Decimal
    package var currency: String
    /// What the `[payments]` source paid off of it so far.
    package var paid: Decimal = 0

    /// What was owed when the round closed.
    var owedAtClose: Decimal { amount + paid }

    /// Each person's carried debts by person key, oldest first (by close, then group name), from the
    /// archives the state keeps.
    package static func byPerson(_ archives: [RoundArchive], money: MoneyFormat, organizerSettled: Bool) -> [String: [CarriedDebt]] {
        var result: [String: [CarriedDebt]] = [:]
        for archive in archives.sorted(by: { ($0.closedAt, $0.group, $0.path) < ($1.closedAt, $1.group, $1.path) }) {
            let balances = RoundBalances(archive, money: money, organizerSettled: organizerSettled)
            for key in balances.people.keys.sorted() {
                for (currency, amount) in balances.owed(by: key).sorted(by: { $0.key < $1.key }) {
                    result[key, default: []].append(CarriedDebt(archive: archive, amount: amount, currency: currency))
                }
            }
        }
        return result
    }
}
