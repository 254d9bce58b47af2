import Foundation
import Testing

@testable import OrderPressFetch
@testable import OrderPressValidate
import OrderPressTestSupport

/// The texts of a row are made from the table's cell bytes as it is read (`RowReader`): a long text that
/// repeats (a group's name in each of its orders) is one `String` in every order that names it, whichever
/// parser read the sheet, and each text is its own cell's.
@Suite struct RowReaderTests {
    /// Where a text's bytes are stored: equal for two texts only when they share one storage.
    static func storage(_ text: String) -> UnsafePointer<UInt8>? {
        text.utf8.withContiguousStorageIfAvailable { $0.baseAddress } ?? nil
    }

    static let group = "大苑子 788團 (Taipei)"
    static let rows = (0..<50).map { ValidatorFixtures.row(id: "\($0)", group: group, person: "Person number \($0) of many", note: "a note long enough \($0)") }

    static var csv: SourceTable {
        get throws {
            let lines = [ValidatorFixtures.headers.joined(separator: ",")] + rows.map { $0.joined(separator: ",") }
            return try SheetParser.parseCSV(Data(lines.joined(separator: "\r\n").utf8), source: "orders")
        }
    }

    static var json: SourceTable {
        get throws {
            let objects = rows.map { row in
                "{" + zip(ValidatorFixtures.headers, row).map { "\"\($0)\": \"\($1)\"" }.joined(separator: ", ") + "}"
            }
            return try #require(SheetJSONScanner.table(Data(("[" + objects.joined(separator: ",\n") + "]").utf8), source: "orders"))
        }
    }

    @Test(arguments: ["csv", "json"])
    func aRepeatedLongCellIsOneStringInTheOrders(parser: String) throws {
        let table = try parser == "csv" ? Self.csv : Self.json
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let orders = try Validator(configuration: configuration).validateSheet(orders: table, groups: nil).data.orders
        #expect(orders.count == 50)
        for (index, order) in orders.enumerated() {
            #expect(order.group == Self.group && order.person == "Person number \(index) of many" && order.note == "a note long enough \(index)")
            #expect(Self.storage(order.group) == Self.storage(orders[0].group))
        }
        #expect(Self.storage(orders[1].person) != Self.storage(orders[0].person))
        #expect(Self.storage(orders[1].note) != Self.storage(orders[0].note))
    }
}
