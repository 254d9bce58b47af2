import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressValidate
import OrderPressTestSupport

/// What a row's validation read beyond its cells (`RowContext`) and the rows' fingerprints, as
/// validation hands them to the diff: the same sheet gives the same, and whatever can change a row's
/// record without changing its cells changes the context.
@Suite struct RowContextTests {
    static let headers = ["group", "orderer", "drink", "price", "time"]
    static let rows = [
        ["Lunch", "Amy", "紅茶", "35", "03/04/2026 10:00"],
        ["Boba", "Ben", "綠茶", "40", "05/06/2026 11:00"],
    ]
    static let toml = """
        [orders]
        path = "o.json"
        [orders.columns]
        time = "time"
        [groups]
        path = "g.csv"
        """

    static func sheet(
        _ rows: [[String]] = rows, headers: [String] = headers, toml: String = toml,
        groups: [[String]] = [["Lunch", "Amy", "TWD"], ["Boba", "Ben", "TWD"]]
    ) throws -> ValidatedSheet {
        let configuration = try TestSupport.configuration(toml)
        return try Validator(configuration: configuration).validateSheet(
            orders: TestSupport.table(headers, rows), groups: TestSupport.table(["group", "organizer", "currency"], groups, name: "groups"))
    }

    @Test func theSameSheetHasTheSameContextAndFingerprints() throws {
        let (one, two) = (try Self.sheet(), try Self.sheet())
        #expect(one.context != nil && one.context == two.context)
        #expect(one.fingerprints.count == 2 && one.fingerprints == two.fingerprints)
        #expect(one.fingerprints[0] != one.fingerprints[1])
    }

    @Test(arguments: ["group currency", "day first", "header order", "setting"])
    func whatOtherRowsOrTheSettingsDecideChangesTheContext(_ change: String) throws {
        let before = try Self.sheet()
        var rows = Self.rows
        let after: ValidatedSheet
        switch change {
        case "group currency": after = try Self.sheet(groups: [["Lunch", "Amy", "USD"], ["Boba", "Ben", "TWD"]])
        // A third row that can only read day first settles how the first two read.
        case "day first":
            rows.append(["Lunch", "Eve", "紅茶", "35", "13/04/2026 10:00"])
            let third = try Self.sheet(rows)
            #expect(third.fingerprints.values.prefix(2) == before.fingerprints.values[...])
            after = third
        case "header order":
            after = try Self.sheet(Self.rows.map { [$0[1], $0[0]] + $0[2...] }, headers: ["orderer", "group", "drink", "price", "time"])
        default: after = try Self.sheet(toml: "# the same settings\n" + Self.toml)
        }
        if change == "setting" {
            // The same settings written again are no change.
            #expect(after.context == before.context)
            let other = try Self.sheet(toml: Self.toml.replacingOccurrences(of: "time = \"time\"", with: "time = \"time\"\nnote = \"remark\""))
            #expect(other.context != before.context)
        } else {
            #expect(after.context != before.context)
        }
    }
}
