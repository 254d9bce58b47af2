import Foundation

/// Whether each order of a build counts as paid, for `orders.csv`'s `paid` and `owed` cells: ticked
/// in the sheet, or placed by its group's settled organiser — the one the aggregation worked out with
/// the totals (`GroupSummary.settledOrganizer`: `[rounds] organizer_settled` on, and they ordered
/// there). The organiser's orders are found among their group's own orders (`GroupSummary.orders`,
/// positions in `data.orders`), once, rather than each order's group looked up again.
struct OrdersCSVPayments {
    /// By position in `data.orders`: placed by its group's settled organiser. Empty when no group has one.
    private let settled: [Bool]
    private let tracksPayments: Bool

    init(_ context: SiteContext) {
        tracksPayments = context.aggregation.tracksPayments
        var settled: [Bool] = []
        for summary in context.aggregation.groups {
            guard let key = summary.settledOrganizer else { continue }
            if settled.isEmpty { settled = [Bool](repeating: false, count: context.data.orders.count) }
            for index in summary.orders.indices where summary.orders.withOrder(at: index, { $0.pointee.personKey.text == key }) {
                let position = Int(summary.orders.positions[index])
                if position < settled.count { settled[position] = true }
            }
        }
        self.settled = settled
    }

    /// Nil without a `paid` column: then the cells stay empty.
    var state: OrdersCSV.PaidState? {
        guard tracksPayments else { return nil }
        let settled = self.settled
        return { position, order in order.pointee.paid || (position < settled.count && settled[position]) }
    }
}
