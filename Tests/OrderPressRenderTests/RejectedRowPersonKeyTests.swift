import Foundation
import Testing

@testable import OrderPressValidate
@testable import OrderPressDiff
@testable import OrderPressRender
import OrderPressTestSupport

/// A rejected row's person is told apart as an order's is (`RejectedRow.personKey`, made once by the
/// validator): its person page, the people who have a page only for rejected rows, and the people who
/// need no tombstone all go by it.
@Suite struct RejectedRowPersonKeyTests {
    static func validated() throws -> ValidatedData {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML + "\n[orders.columns]\nperson = \"orderer\"")
        let table = TestSupport.table(
            ["group", "orderer", "drink", "price"],
            [
                ["G", "Amy", "tea", "35"],
                ["G", "AMY", "tea", "-5"],  // Amy's, however written
                ["G", "Zo\u{0065}\u{0308}", "tea", "abc"],  // decomposed: Zoë
                ["G", "ZOË", "milk", ""],
                ["G", "", "tea", "35"],  // names nobody
            ])
        return try Validator(configuration: configuration).validate(orders: table, groups: nil)
    }

    @Test func eachRejectedRowCarriesThePersonKeyItsOrderWouldHave() throws {
        let data = try Self.validated()
        #expect(data.rejected.map(\.person) == ["AMY", "Zoë", "ZOË", ""])
        #expect(data.rejected.map(\.personKey) == ["amy", "zoë", "zoë", ""])
        #expect(data.orders.map(\.personKey) == ["amy"])
    }

    @Test func theRejectedIndexGoesByTheKey() throws {
        let data = try Self.validated()
        let index = RejectedIndex(data.rejected, orders: data.orders)
        #expect(index.byPerson.mapValues { $0.map(\.row) } == ["amy": [3], "zoë": [4, 5]])
        #expect(index.onlyRejected.map(\.key) == ["zoë"])
        #expect(index.onlyRejected.map(\.name) == ["Zoë"])
        #expect(index.countByGroup == ["G": 4])
    }

    /// Deleted orders of Zoë and of Cy: Zoë still has a page (for her rejected rows), so only Cy gets a tombstone.
    @Test func aPersonWithRejectedRowsNeedsNoTombstone() throws {
        let data = try Self.validated()
        func deleted(_ person: String) -> RowRecord {
            RowRecord(
                row: 9, id: nil, identity: person, values: [], secrets: [], rejected: false, group: "G", person: person, item: "tea",
                options: [], quantity: 1, amount: "35", currency: "TWD", firstSeen: "")
        }
        let history = [
            HistoryEntry(time: "2026-11-21T10:00:00Z", changes: ChangeSet(firstRun: false, deleted: [deleted("ZOË"), deleted("Cy")], added: [], changed: []), sequence: 2)
        ]
        let stones = Tombstones(deletions: RecentDeletions(replaying: history), now: Date(timeIntervalSince1970: 1_795_255_200), data: data)
        #expect(stones.people.map(\.key) == ["cy"])
    }
}
