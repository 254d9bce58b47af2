import Foundation
import Testing

@testable import OrderPress

/// The column order `orderpress restore` prints a row in.
@Suite struct SheetOrderTests {
    @Test func aCSVKeepsItsHeaderOrderAndJSONFollowsTheSuggestedLayout() {
        let columns = Configuration.OrderColumns()
        let sorted = ["currency", "drink", "editCode", "group", "ice", "id", "orderer", "phone", "price", "quantity", "size", "sugar", "time"]
        #expect(Pipeline.sheetOrder(sorted, location: .path(URL(fileURLWithPath: "/x/orders.csv")), columns: columns) == sorted)
        #expect(
            Pipeline.sheetOrder(sorted, location: .url(URL(string: "https://sheetdb.io/api/v1/x")!), columns: columns)
                == ["id", "time", "group", "orderer", "drink", "size", "sugar", "ice", "quantity", "price", "currency", "editCode", "phone"])
    }
}
