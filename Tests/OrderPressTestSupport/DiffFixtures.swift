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

/// Rows of a sheet as the diff tests write them, the differ run on them, a state key and a site id.
package enum DiffFixtures {
    /// A state folder's key (`SecretKey`).
    package static let key = [UInt8](repeating: 7, count: 32)

    package static let headers = ["id", "group", "orderer", "drink", "sugar", "price", "editCode"]

    package static func row(_ id: String, _ person: String, _ drink: String = "紅茶", sugar: String = "半糖", price: String = "35", code: String = "k9Xq2PzT") -> [String] {
        [id, "週五下午茶", person, drink, sugar, price, code]
    }

    /// Six orders of three people, each with an edit code of its own: the rows the tests of kept records change.
    package static let coded = (1...6).map { row(String($0), ["Amy", "Ben", "陳小明"][$0 % 3], code: "code\($0)") }

    /// `rows` validated with `editCode` a secret column, in `currency`, knowing `known` of the last snapshot.
    package static func validated(_ rows: [[String]], currency: String = "TWD", known: KnownRows? = nil) throws -> ValidatedSheet {
        let configuration = try TestSupport.configuration(
            """
            base_currency = "\(currency)"
            [orders]
            path = "o.json"
            [orders.columns]
            options = ["sugar"]
            secret = ["editCode"]
            """)
        return try Validator(configuration: configuration).validateSheet(orders: TestSupport.table(headers, rows), groups: nil, known: { known })
    }

    /// Runs the differ on `rows` against `previous`, as a build at `time` would.
    package static func compare(_ rows: [[String]], previous: Snapshot?, time: String = "2026-11-21T10:00:00Z") throws -> (snapshot: Snapshot, changes: ChangeSet) {
        let configuration = try TestSupport.configuration(
            "[orders]\npath = \"o.json\"\n[orders.columns]\noptions = [\"sugar\"]\nquantity = \"q\"\ncurrency = \"c\"\ntime = \"t\"\nnote = \"n\"")
        let table = TestSupport.table(headers, rows)
        let sheet = try Validator(configuration: configuration).validateSheet(orders: table, groups: nil)
        let differ = Differ(hasher: SecretHasher(salt: previous?.salt ?? "salt"), now: time)
        let result = try differ.compare(sheet, previous: previous.map(PreviousSnapshot.init))
        return (result.snapshot, result.changes)
    }

    package static let siteID = UUID(uuidString: "0b5c7a1e-2f43-4d7e-9a51-6c3e8f2d1b90")!
}
