import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
import OrderPressTestSupport

/// The `paid` column: every spelling docs/sources.md lists (From a Google Form), and what happens to anything else.
@Suite struct PaidTextTests {
    static func validate(_ values: [String]) throws -> ValidatedData {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let table = TestSupport.table(
            ["group", "orderer", "drink", "price", "paid"], values.map { ["Tea", "Amy", "紅茶", "35", $0] })
        return try Validator(configuration: configuration).validate(orders: table, groups: nil)
    }

    @Test(arguments: ["TRUE", "true", "yes", "y", "1", "✓", "已付", "paid", "Yes", " PAID "])
    func meansPaid(value: String) throws {
        let data = try Self.validate([value])
        #expect(data.orders.map(\.paid) == [true])
        #expect(data.warnings == [])
        #expect(data.tracksPayments)
    }

    @Test(arguments: ["", "FALSE", "false", "no", "n", "0", "未付", "No"])
    func meansNotPaid(value: String) throws {
        let data = try Self.validate([value])
        #expect(data.orders.map(\.paid) == [false])
        #expect(data.warnings == [])
    }

    @Test(arguments: ["LINE Pay", "2", "half", "✗"])
    func anythingElseIsNotPaidWithAWarning(value: String) throws {
        let data = try Self.validate(["yes", value])
        #expect(data.orders.map(\.paid) == [true, false])
        #expect(data.warnings == [
            DataWarning(row: 3, message: "paid '\(value)' is neither paid nor unpaid and counts as not paid; write yes or no")
        ])
    }

    @Test func aSheetWithoutThePaidColumnTracksNoPayments() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let table = TestSupport.table(["group", "orderer", "drink", "price"], [["Tea", "Amy", "紅茶", "35"]])
        let data = try Validator(configuration: configuration).validate(orders: table, groups: nil)
        #expect(!data.tracksPayments)
        #expect(data.orders.map(\.paid) == [false])
    }

    @Test func theColumnIsConfigurable() throws {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML + "\n[orders.columns]\npaid = \"付款\"\n")
        let table = TestSupport.table(["group", "orderer", "drink", "price", "付款"], [["Tea", "Amy", "紅茶", "35", "已付"]])
        let data = try Validator(configuration: configuration).validate(orders: table, groups: nil)
        #expect(data.tracksPayments)
        #expect(data.orders.map(\.paid) == [true])
        #expect(data.warnings == [])
    }
}
