import Foundation
import OrderPressSupport

/// A Google Form's double submissions: a valid order whose every answer repeats the order on the sheet
/// row just above it, sent within ten minutes after it (someone who thought the Form had not sent, and
/// sent again). Both stay counted — two identical rows are two orders — and a warning on the Attention
/// page tells the organiser to delete one if it was sent twice, before the shop is paid for two.
///
/// Only neighbours are compared: a Form appends each response below the last, so a repeat is the next
/// row. That is one comparison per order, almost always ended by the row numbers or the person's key.
enum RepeatedSubmissions {
    /// How long after the first a repeat is still taken for the same submission sent again.
    static let window: TimeInterval = 600

    /// One warning per order that repeats the one on the row above it, in sheet order. `orders`: the
    /// valid orders in sheet order.
    package static func warnings(_ orders: [Order]) -> [DataWarning] {
        // Fields read in place (not each order copied out, with every text retained): this runs on every order.
        orders.withUnsafeBufferPointer { orders in
            var warnings: [DataWarning] = []
            for index in orders.indices.dropFirst() where orders[index].row == orders[index - 1].row + 1 {
                guard orders[index].personKey == orders[index - 1].personKey, let time = orders[index].time, let first = orders[index - 1].time,
                    (0...window).contains(time.timeIntervalSince(first)), repeats(orders[index], orders[index - 1])
                else { continue }
                let previous = String(orders[index - 1].row)
                let seconds = String(Int(time.timeIntervalSince(first).rounded()))
                warnings.append(
                    DataWarning(
                        row: orders[index].row,
                        Reason(
                            .rowRepeated, ["previous": previous, "seconds": seconds])))
            }
            return warnings
        }
    }

    /// Whether `order` answers everything as `earlier` does (its paid cell aside: the organiser may have ticked one).
    private static func repeats(_ order: Order, _ earlier: Order) -> Bool {
        order.group == earlier.group && order.item == earlier.item && order.options == earlier.options && order.quantity == earlier.quantity
            && order.unitPrice == earlier.unitPrice && order.currency == earlier.currency && order.note == earlier.note
    }
}
