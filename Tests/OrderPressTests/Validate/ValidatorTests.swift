import Foundation
import Testing

@testable import OrderPress

@Suite struct ValidatorTests {
    static let headers = ["id", "group", "orderer", "drink", "size", "sugar", "ice", "quantity", "price", "currency", "time", "note", "editCode", "phone"]

    static func row(
        id: String = "1", group: String = "週五下午茶", person: String = "Amy", item: String = "熟成紅茶",
        options: [String] = ["L", "半糖", "少冰"], quantity: String = "1", price: String = "35", currency: String = "",
        time: String = "2026-11-21 09:15", note: String = "", editCode: String = "s3cr3tC0de", phone: String = "0912-345-678"
    ) -> [String] {
        [id, group, person, item] + options + [quantity, price, currency, time, note, editCode, phone]
    }

    static func validate(_ rows: [[String]], groups: SourceTable? = nil, toml: String = TestSupport.minimalTOML) throws -> ValidatedData {
        let configuration = try TestSupport.configuration(toml)
        return Validator(configuration: configuration).validate(orders: TestSupport.table(headers, rows), groups: groups)
    }

    @Test func acceptsAGoodRowAndNormalisesIt() throws {
        let data = try Self.validate([Self.row(person: "  Amy \t Chen ", item: "e\u{301}clair", quantity: "2", price: "1,200.5")])
        #expect(data.rejected == [])
        let order = try #require(data.orders.first)
        #expect(order.person == "Amy Chen")
        #expect(order.personKey == "amy chen")
        #expect(order.item == "\u{E9}clair")
        #expect(order.options == ["L", "半糖", "少冰"])
        #expect(order.quantity == 2)
        #expect(order.unitPrice == Decimal(string: "1200.5")!)
        #expect(order.amount == Decimal(string: "2401")!)
        #expect(order.currency == "TWD")
        #expect(order.id == "1")
        #expect(order.time.map(Timestamp.iso8601) == "2026-11-21T09:15:00Z")
    }

    @Test(arguments: [
        (row(person: ""), ["person is missing (column 'orderer')"]),
        (row(item: " "), ["item is missing (column 'drink')"]),
        (row(group: ""), ["group is missing (column 'group')"]),
        (row(price: ""), ["price is missing (column 'price')"]),
        (row(price: "-5"), ["price must not be negative"]),
        (row(price: "NT$35"), ["price 'NT$35' is formatted as currency; read the sheet with mode=UNFORMATTED_VALUE or cast_numbers=price"]),
        (row(price: "$1.23"), ["price '$1.23' is formatted as currency; read the sheet with mode=UNFORMATTED_VALUE or cast_numbers=price"]),
        (row(price: "thirty"), ["price 'thirty' is not a number"]),
        (row(price: "1,20"), ["price '1,20' is not a number"]),
        (row(quantity: "0"), ["quantity must be a whole number of at least 1 (found '0')"]),
        (row(quantity: "-1"), ["quantity must be a whole number of at least 1 (found '-1')"]),
        (row(quantity: "1.5"), ["quantity must be a whole number of at least 1 (found '1.5')"]),
        (row(currency: "XYZ"), ["unknown currency 'XYZ'"]),
        (row(person: "", quantity: "0", price: "-1"),
         ["person is missing (column 'orderer')", "price must not be negative", "quantity must be a whole number of at least 1 (found '0')"]),
    ])
    func rejectsWithEveryReason(row: [String], reasons: [String]) throws {
        let data = try Self.validate([Self.row(id: "7"), row])
        #expect(data.orders.count == 1)
        #expect(data.rejected.map(\.reasons) == [reasons])
        #expect(data.rejected.first?.row == 3)
        #expect(data.rowsRead == data.orders.count + data.rejected.count)
    }

    @Test func rejectedRowsShowMappedValuesWithSecretsMasked() throws {
        let data = try Self.validate([Self.row(price: "-5")])
        let rejected = try #require(data.rejected.first)
        #expect(rejected.values.map(\.column) == ["id", "group", "orderer", "drink", "size", "sugar", "ice", "quantity", "price", "currency", "time", "note", "editCode"])
        #expect(rejected.values.first { $0.column == "editCode" }?.value == "•••")
        #expect(!rejected.values.contains { $0.value.contains("s3cr3tC0de") || $0.value.contains("0912") })
    }

    @Test func unmappedColumnsAreReportedByNameOnly() throws {
        let data = try Self.validate([Self.row()])
        #expect(data.warnings == [DataWarning(row: nil, message: "orders: column 'phone' is not mapped in the configuration and is not published")])
    }

    @Test func groupsSourceDecidesKnownGroupsAndCurrency() throws {
        let groups = TestSupport.table(["group", "currency"], [["週五下午茶", "TWD"], ["Tokyo", "JPY"]], name: "groups")
        let data = try Self.validate(
            [Self.row(), Self.row(id: "2", group: "Tokyo", price: "480"), Self.row(id: "3", group: "Nowhere"),
             Self.row(id: "4", group: "Tokyo", currency: "USD")],
            groups: groups)
        #expect(data.groups.map(\.name) == ["週五下午茶", "Tokyo"])
        #expect(data.orders.map(\.currency) == ["TWD", "JPY"])
        #expect(data.rejected.map(\.reasons) == [["unknown group 'Nowhere'"], ["currency 'USD' differs from group 'Tokyo' currency 'JPY'"]])
    }

    @Test func withoutGroupsSourceGroupsComeFromOrdersInOrder() throws {
        let data = try Self.validate([
            Self.row(group: "B", currency: "USD"), Self.row(id: "2", group: "A"), Self.row(id: "3", group: "B"),
        ])
        #expect(data.groups.map(\.name) == ["B", "A"])
        #expect(data.groups.map(\.currency) == ["USD", "TWD"])
        #expect(data.orders.map(\.currency) == ["USD", "TWD", "USD"])
    }

    @Test func flagsOverLongTextButKeepsIt() throws {
        let long = String(repeating: "長", count: 31)
        let data = try Self.validate([Self.row(person: long, note: String(repeating: "n", count: 501))])
        #expect(data.orders.first?.person == long)
        #expect(data.warnings.filter { $0.row == 2 }.map(\.message) == ["note longer than 500 characters", "person longer than 30 characters"])
    }

    @Test func unreadableTimeIsAWarning() throws {
        let data = try Self.validate([Self.row(time: "lunchtime")])
        #expect(data.orders.first?.time == nil)
        #expect(data.orders.first?.timeText == "lunchtime")
        #expect(data.warnings.contains(DataWarning(row: 2, message: "time 'lunchtime' is not a date and time OrderPress reads (write it like 2026-11-21 09:15)")))
    }

    @Test func duplicateIdsAreAWarning() throws {
        let data = try Self.validate([Self.row(id: "5"), Self.row(id: "5", person: "Ben")])
        #expect(data.warnings.contains(DataWarning(row: 2, message: "id '5' is used by rows 2, 3; they are matched by content instead")))
    }

    @Test func missingRequiredColumnIsNamed() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let data = Validator(configuration: configuration).validate(
            orders: TestSupport.table(["group", "orderer", "drink"], [["G", "Amy", "tea"]]), groups: nil)
        #expect(data.rejected.map(\.reasons) == [["price is missing (column 'price')"]])
        #expect(data.warnings.contains(DataWarning(row: nil, message: "orders: column 'price' (price) is not in the sheet; check [orders.columns]")))
    }
}
