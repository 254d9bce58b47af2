import Foundation

@testable import OrderPressFetch
@testable import OrderPressValidate

/// Order rows in the validator tests' columns, validated as a build would.
package enum ValidatorFixtures {
    package static let headers = ["id", "group", "orderer", "drink", "size", "sugar", "ice", "quantity", "price", "currency", "time", "note", "editCode", "phone"]

    package static func row(
        id: String = "1", group: String = "週五下午茶", person: String = "Amy", item: String = "熟成紅茶",
        options: [String] = ["L", "半糖", "少冰"], quantity: String = "1", price: String = "35", currency: String = "",
        time: String = "2026-11-21 09:15", note: String = "", editCode: String = "s3cr3tC0de", phone: String = "0912-345-678"
    ) -> [String] {
        [id, group, person, item] + options + [quantity, price, currency, time, note, editCode, phone]
    }

    /// `validate`, with the rows as the diff compares them and the secret cells.
    package static func sheet(_ rows: [[String]], groups: SourceTable? = nil, toml: String = TestSupport.minimalTOML) throws -> ValidatedSheet {
        let configuration = try TestSupport.configuration(toml)
        return try Validator(configuration: configuration).validateSheet(orders: TestSupport.table(headers, rows), groups: groups)
    }

    package static func validate(_ rows: [[String]], groups: SourceTable? = nil, toml: String = TestSupport.minimalTOML) throws -> ValidatedData {
        return try sheet(rows, groups: groups, toml: toml).data
    }
}
