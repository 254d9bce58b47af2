import PropertyBased
import Testing
import OrderPressTestSupport


/// Without ids, what became of each order is told by its group, person and item: edited, turned rejected
/// or valid, deleted, added; and rejected rows are never orders.
@Suite struct LeftoverPairingTests {
    enum Fate: CaseIterable {
        case kept, sugarEdited, priceEdited, turnedRejected, deleted
    }

    /// One person per row, each row's fate; rows rejected at first either fixed, kept or deleted; new
    /// orders and new rejected rows; and the sheet perhaps reordered.
    struct Edit: Sendable, CustomStringConvertible {
        var fates: [Fate]
        /// Of the rows rejected at first: fixed (true) or left rejected (false); nil: deleted.
        var rejectedFates: [Bool?]
        var added: Int
        var addedRejected: Int
        var shuffled: Bool
        var description: String { "\(fates) \(rejectedFates) +\(added) +\(addedRejected) rejected, shuffled \(shuffled)" }
    }

    static let edits = Generator<Edit, Shrink.None<Edit>> { rng in
        Edit(
            fates: (0..<Int.random(in: 0...25, using: &rng)).map { _ in Fate.allCases.randomElement(using: &rng)! },
            rejectedFates: (0..<Int.random(in: 0...5, using: &rng)).map { _ in [true, false, nil].randomElement(using: &rng)! },
            added: Int.random(in: 0...3, using: &rng), addedRejected: Int.random(in: 0...3, using: &rng), shuffled: Bool.random(using: &rng))
    }

    static func order(_ person: String, price: String = "35", sugar: String = "半糖") -> [String] {
        DiffFixtures.row("", person, person.hasPrefix("R") ? "綠茶" : "紅茶", sugar: sugar, price: price)
    }

    @Test func eachOrderIsToldByWhatBecameOfIt() async {
        await propertyCheck(count: 200, input: Self.edits) { edit in
            do {
                let valid = edit.fates.indices.map { Self.order("P\($0)") }
                let rejected = edit.rejectedFates.indices.map { Self.order("R\($0)", price: "x") }
                let (before, _) = try DiffFixtures.compare(valid + rejected, previous: nil)

                var rows: [[String]] = []
                for (index, fate) in edit.fates.enumerated() {
                    switch fate {
                    case .kept: rows.append(Self.order("P\(index)"))
                    case .sugarEdited: rows.append(Self.order("P\(index)", sugar: "無糖"))
                    case .priceEdited: rows.append(Self.order("P\(index)", price: "40"))
                    case .turnedRejected: rows.append(Self.order("P\(index)", price: "-1"))
                    case .deleted: break
                    }
                }
                for (index, fixed) in edit.rejectedFates.enumerated() {
                    if let fixed { rows.append(Self.order("R\(index)", price: fixed ? "30" : "y")) }
                }
                rows += (0..<edit.added).map { Self.order("N\($0)") } + (0..<edit.addedRejected).map { Self.order("X\($0)", price: "-2") }
                if edit.shuffled { rows.shuffle() }
                let (_, changes) = try DiffFixtures.compare(rows, previous: before)

                func people(_ fate: Fate) -> [String] { edit.fates.indices.filter { edit.fates[$0] == fate }.map { "P\($0)" }.sorted() }
                #expect(changes.deleted.map(\.person).sorted() == people(.deleted))
                #expect(changes.added.map(\.person).sorted() == (0..<edit.added).map { "N\($0)" }.sorted())
                #expect(changes.changed.map(\.after.person).sorted() == (people(.sugarEdited) + people(.priceEdited)).sorted())
                #expect(changes.noLongerCounted.map(\.after.person).sorted() == people(.turnedRejected))
                #expect(changes.noLongerCounted.allSatisfy { $0.reasons == ["price must not be negative"] })
                #expect(changes.nowCounted.map(\.after.person).sorted() == edit.rejectedFates.indices.filter { edit.rejectedFates[$0] == true }.map { "R\($0)" }.sorted())
                for change in changes.changed + changes.noLongerCounted + changes.nowCounted {
                    #expect(change.before.person == change.after.person && change.before.item == change.after.item)
                    #expect(change.after.firstSeen == change.before.firstSeen)
                }
                #expect((changes.deleted + changes.added).allSatisfy { !$0.rejected })
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// Of one person's same orders, an edit pairs with the nearest row, and what is left is deleted: the
    /// first of Amy's two orders is deleted and the other's price edited, not the other way round.
    @Test func onePersonsSameOrdersPairNearestRowFirst() throws {
        let rows = [Self.order("Amy", price: "10"), Self.order("Ben"), Self.order("Cat"), Self.order("Dan"), Self.order("Amy", price: "20")]
        let (before, _) = try DiffFixtures.compare(rows, previous: nil)
        let (_, changes) = try DiffFixtures.compare([Self.order("Ben"), Self.order("Cat"), Self.order("Dan"), Self.order("Amy", price: "21")], previous: before)
        #expect(changes.changed.map(\.fields) == [["price": ["20", "21"]]])
        #expect(changes.changed.map(\.before.row) == [6])
        #expect(changes.deleted.map(\.amount) == ["10"])
        #expect(changes.added == [])
    }

    /// A name typed another way (its space dropped, its letters full-width) is the same person
    /// (`PersonKey`): the order is changed, not deleted and added again.
    @Test(arguments: [("伊藤 健", "伊藤健"), ("Ken", "Ｋｅｎ")])
    func aRespelledNameIsTheSamePersonsOrder(_ before: String, _ after: String) throws {
        let (previous, _) = try DiffFixtures.compare([Self.order(before, price: "10"), Self.order("Ben")], previous: nil)
        let (_, changes) = try DiffFixtures.compare([Self.order(after, price: "12"), Self.order("Ben")], previous: previous)
        #expect(changes.changed.count == 1, "\(changes)")
        #expect(changes.deleted == [] && changes.added == [])
    }
}
