import Foundation
import Testing

@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressPipeline
import OrderPressTestSupport

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

    /// A JSON body's own key order (`SourceTable.sheetOrder`, a Google Form's question order) wins over the
    /// suggested layout; a header it does not list (another row's key) follows.
    @Test func aJSONSheetsWrittenOrderIsItsOrder() {
        let columns = Configuration.OrderColumns()
        let sorted = ["drink", "email", "group", "orderer", "price", "time", "wish"]
        #expect(
            Pipeline.sheetOrder(
                sorted, location: .url(URL(string: "https://sheetdb.io/api/v1/x")!), columns: columns,
                written: ["time", "email", "orderer", "group", "drink", "price"])
                == ["time", "email", "orderer", "group", "drink", "price", "wish"])
    }
}

/// The first row object's keys as written, normalised as headers are.
@Suite struct JSONKeyOrderTests {
    @Test(arguments: [
        (#"[{"b": "1", "a": 2, "c": true, "d": null}, {"z": "x"}]"#, ["b", "a", "c", "d"] as [String]?),
        ("\u{FEFF}[ {\"時間戳記\":\"2026/11/21 下午 3:15:00\",\"姓名\":\"Amy\"} ]", ["時間戳記", "姓名"]),
        (#"[{"e\u0301": "1", "say \"hi\"": "x, y}"}]"#, ["é", "say \"hi\""]),
        ("[{\"edit\u{200B}Code\": \"1\", \"editCode\": \"2\"}]", ["editCode"]),
        (#"[{"a": {"nested": 1}}]"#, nil),
        (#"[{"a": [1]}]"#, nil),
        ("[]", nil),
        ("[{}]", nil),
        (#"{"a": "1"}"#, nil),
        (#"[{"a": "never closes"#, nil),
    ])
    func theFirstRowsKeysInTheirOrder(body: String, keys: [String]?) {
        #expect(JSONKeyOrder.of(Data(body.utf8)) == keys)
    }

    /// A file's table and the cached copy of a fetched one both keep it.
    @Test func aParsedTableAndItsCachedCopyKeepTheOrder() throws {
        let body = Data(#"[{"time": "1", "orderer": "Amy", "group": "G", "price": "35"}]"#.utf8)
        let table = try SheetParser.parseJSON(body, source: "orders")
        #expect(table.headers == ["group", "orderer", "price", "time"])
        #expect(table.sheetOrder == ["time", "orderer", "group", "price"])
        let copy = CachedSheet.body(table, kept: Set(table.headers), masked: [])
        #expect(String(decoding: copy, as: UTF8.self) == "[\n{\"time\":\"1\",\"orderer\":\"Amy\",\"group\":\"G\",\"price\":\"35\"}\n]\n")
        let reread = try SheetParser.parseJSON(copy, source: "orders")
        #expect(reread.sheetOrder == table.sheetOrder && reread.headers == table.headers && reread.rows == table.rows)
    }
}
