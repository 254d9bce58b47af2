import CSV
import Foundation

/// `orders.csv`: every valid order, normalised, with no secret and no unmapped column.
enum OrdersCSV {
    static let header = [
        "row", "id", "group", "person", "item", "options", "quantity", "unit_price", "currency", "amount", "time", "note",
    ]

    static func render(_ orders: [Order], timeZone: TimeZone) -> Data {
        let stream = OutputStream.toMemory()
        stream.open()
        defer { stream.close() }
        do {
            let writer = try CSVWriter(stream: stream, newline: .crlf)
            try writer.write(row: header)
            for order in orders {
                try writer.write(row: [
                    String(order.row), order.id ?? "", order.group, order.person, order.item,
                    order.options.joined(separator: " "), String(order.quantity), DecimalText.exact(order.unitPrice),
                    order.currency, DecimalText.exact(order.amount),
                    order.time.map { Timestamp.display($0, timeZone: timeZone) } ?? order.timeText, order.note,
                ])
            }
        } catch {
            // Writing to memory does not fail; a failure here would be a bug, not bad input.
            preconditionFailure("orders.csv: \(error)")
        }
        var data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        data.append(contentsOf: [0x0D, 0x0A])
        return data
    }
}
