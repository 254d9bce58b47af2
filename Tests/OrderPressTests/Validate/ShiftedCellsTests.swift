import Foundation
import Testing

@testable import OrderPress

/// CSV rows whose cells sit one column off are rejected without their values; a row that is merely
/// wrong (a typo in its price, an unreadable paid cell) keeps them, and so does every JSON row.
@Suite struct ShiftedCellsTests {
    static let headers = ["id", "group", "orderer", "drink", "quantity", "price", "currency", "time", "note", "paid", "editCode", "phone"]

    static func validate(_ rows: [[String]], csv: Bool = true) throws -> ValidatedData {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML + "\n[orders.columns]\nperson = \"orderer\"")
        var table = TestSupport.table(Self.headers, rows)
        table.fromCSV = csv
        return try Validator(configuration: configuration).validate(orders: table, groups: nil)
    }

    static let good = ["1", "G", "Amy", "tea", "1", "35", "", "2026-11-21 10:00", "", "TRUE", "SECRET1", "0900"]

    @Test(arguments: [
        // A stray comma in the drink, the phone cut off: the edit code lands in `phone`, the paid cell in `editCode`.
        (["2", "G", "Ben", "tea", "large", "1", "35", "", "2026-11-21 10:00", "", "TRUE", "SECRET2"], "quantity"),
        // A cell missing before the price (a line broken, then a stray comma): the edit code lands in `paid`.
        (["3", "G", "Cy", "tea", "35", "", "2026-11-21 10:00", "", "TRUE", "SECRET3", "", "0900"], "price"),
        // The edit code in `note`, the paid cell in `time`.
        (["4", "G", "Di", "tea", "1", "35", "", "", "TRUE", "SECRET4", "0900", ""], "time"),
    ])
    func aShiftedRowIsRejectedWithoutItsValues(_ row: [String], column: String) throws {
        let data = try Self.validate([Self.good, row])
        #expect(data.orders.map(\.person) == ["Amy"])
        #expect(data.rejected.count == 1)
        #expect(data.rejected.first?.values == [])
        #expect(data.rejected.first?.reasons.first?.hasPrefix("its cells look shifted by one column from column '\(column)'") == true)
        #expect(data.rows.count == 1)
        #expect(data.malformedRows == 1)
        #expect(!data.warnings.contains { $0.message.contains("SECRET") })
        #expect(data.groups.map(\.name) == ["G"])
    }

    @Test(arguments: [
        ["5", "G", "Ed", "tea", "1", "abc", "", "", "", "", "S5", ""],
        ["6", "G", "Flo", "tea", "1", "35", "", "", "", "maybe", "S6", ""],
        ["7", "G", "", "tea", "1", "35", "", "", "", "", "S7", ""],
    ])
    func aWrongRowKeepsItsValues(_ row: [String]) throws {
        let data = try Self.validate([Self.good, row])
        #expect(data.malformedRows == 0)
        #expect(data.rows.count == 2)
        #expect(data.rejected.allSatisfy { !$0.values.isEmpty })
    }

    @Test func aJSONRowIsNeverTakenForShifted() throws {
        let data = try Self.validate([Self.good, ["3", "G", "Cy", "tea", "35", "", "2026-11-21 10:00", "", "TRUE", "SECRET3", "", "0900"]], csv: false)
        #expect(data.malformedRows == 0)
        #expect(data.rows.count == 2)
    }
}
