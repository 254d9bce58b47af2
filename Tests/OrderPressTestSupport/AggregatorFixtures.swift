import Foundation

@testable import OrderPressValidate

/// Orders as the aggregator tests make them.
package enum AggregatorFixtures {
    package static func order(_ row: Int, _ group: String, _ person: String, _ item: String, _ options: [String], _ quantity: Int, _ price: String, _ currency: String = "TWD") -> Order {
        Order(
            row: row, id: nil, group: group, person: person, personKey: PersonKey(person), item: item, options: options,
            quantity: quantity, unitPrice: Decimal(string: price)!, currency: currency, time: nil, timeText: "", note: "")
    }
}
