import Foundation

/// Whether each order of a build counts as paid, for `orders.csv`'s `paid` and `owed` cells: ticked
/// in the sheet, or placed by its group's organiser while `[rounds] organizer_settled` is on. Each
/// order's group is found by its place (`OrderDigestTable.groups`, as `PageKeys.orderGroups` holds
/// them for these very orders), not by hashing its name.
struct OrdersCSVPayments {
    /// By place in `data.groups`: the person key of the settled organiser, or nil.
    private let settled: [String?]
    /// Each order's group place, when the digests were made for these very orders.
    private let places: [Int32]?
    private let context: SiteContext

    /// `orderGroups`: each of `context.data.orders`' group place, when known.
    init(_ context: SiteContext, orderGroups: [Int32]?) {
        self.context = context
        let on = context.configuration.rounds.organizerSettled
        settled = context.data.groups.map { on && !$0.organizer.isEmpty ? $0.organizerKey : nil }
        places = orderGroups?.count == context.data.orders.count ? orderGroups : nil
    }

    /// Nil without a `paid` column: then the cells stay empty.
    var state: OrdersCSV.PaidState? {
        guard context.aggregation.tracksPayments else { return nil }
        return { position, order in
            if order.pointee.paid { return true }
            let place = places.map { Int($0[position]) } ?? context.groupPlace(order.pointee.group) ?? -1
            guard place >= 0, place < settled.count, let key = settled[place] else { return false }
            return order.pointee.personKey == key
        }
    }
}
