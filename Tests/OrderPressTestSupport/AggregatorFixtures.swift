import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressCatalogue
@testable import OrderPressOutput
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressSlugs
@testable import OrderPressAggregate
@testable import OrderPressDiff
@testable import OrderPressRender

/// Orders as the aggregator tests make them.
package enum AggregatorFixtures {
    package static func order(_ row: Int, _ group: String, _ person: String, _ item: String, _ options: [String], _ quantity: Int, _ price: String, _ currency: String = "TWD") -> Order {
        Order(
            row: row, id: nil, group: group, person: person, personKey: PersonKey(person), item: item, options: options,
            quantity: quantity, unitPrice: Decimal(string: price)!, currency: currency, time: nil, timeText: "", note: "")
    }
}
