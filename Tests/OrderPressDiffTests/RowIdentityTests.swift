import Foundation
import PropertyBased
import Testing

@testable import OrderPressValidate
@testable import OrderPressDiff
import OrderPressTestSupport

/// A row's identity is in every state folder: written from bytes, it must be the text it always was.
@Suite struct RowIdentityTests {
    static let texts = ["", "a", "Amy", "熟成紅茶", "大杯", "少冰 | 加珍珠", "👩‍👩‍👧", "x=y", "\u{1F}", "時間戳記", "Ben O'Neil"]

    static let rows = Generator<([String], [String], Int, Int), Shrink.None<([String], [String], Int, Int)>> { rng in
        let count = Int.random(in: 1...8, using: &rng)
        let columns = (0..<count).map { _ in texts.randomElement(using: &rng)! + String(Int.random(in: 0...99, using: &rng)) }
        let values = (0..<count).map { _ in texts.randomElement(using: &rng)! }
        return (columns, values, Int.random(in: -1..<count, using: &rng), Int.random(in: -1..<count, using: &rng))
    }

    /// The form it had when it was made by interpolating and joining.
    static func reference(columns: [String], values: [String], idColumn: String, paidColumn: String) -> String {
        let content = columns.enumerated().filter { $0.element != idColumn && $0.element != paidColumn }
            .sorted { $0.element < $1.element }.map { ($0.element, $0.offset) }
        return "content:" + content.map { "\($0.0)=\(values[$0.1])" }.joined(separator: "\u{1F}")
    }

    @Test func theContentIdentityIsTheTextItAlwaysWas() async {
        await propertyCheck(count: 500, input: Self.rows) { columns, values, id, paid in
            let idColumn = id >= 0 ? columns[id] : "id", paidColumn = paid >= 0 ? columns[paid] : "paid"
            let identity = RowIdentity(columns: columns, idColumn: idColumn, paidColumn: paidColumn)
            let expected = Self.reference(columns: columns, values: values, idColumn: idColumn, paidColumn: paidColumn)
            #expect(identity.identity(id: "", idCount: 0, values: values) == expected)
            #expect(identity.identity(id: "7", idCount: 2, values: values) == expected)
            #expect(identity.identity(id: "7", idCount: 1, values: values) == "id:7")
            // As a record holds it: its text made when asked for, its key the text's.
            for (id, count, text) in [("", 0, expected), ("7", 2, expected), ("7", 1, "id:7")] {
                let made = Identity(id: id, idCount: count, values: values, rule: identity)
                #expect(made.text(id: id, values: values) == text)
                #expect(made.utf8Count(id: id, values: values) == text.utf8.count)
                #expect(made.key == IdentityKey(text) && made == Identity(text: text))
                #expect(made.isID == (count == 1) && Identity(text: text).isID == (count == 1))
            }
        }
    }

    /// A record's identity made from its values stays the text it had when they change, and is stored
    /// (the history's JSON) as that text.
    @Test func aRecordKeepsItsIdentityWhenItsValuesChange() throws {
        let rule = RowIdentity(columns: ["item", "person"], idColumn: "id", paidColumn: "paid")
        var record = RowRecord(
            row: 2, id: nil, identity: Identity(id: "", idCount: 0, values: ["紅茶", "Amy"], rule: rule), values: ["紅茶", "Amy"],
            secrets: [], rejected: false, group: "g", person: "Amy", item: "紅茶", options: [], quantity: 1, amount: "35",
            currency: "TWD", firstSeen: "")
        #expect(record.identity == "content:item=紅茶\u{1F}person=Amy")
        let json = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(RowRecord.self, from: json) == record)
        #expect(String(decoding: json, as: UTF8.self).contains(#""identity":"content:item=紅茶\u001fperson=Amy""#))
        record.values[1] = "Ben"
        record.id = "9"
        #expect(record.identity == "content:item=紅茶\u{1F}person=Amy")
    }

    /// Identities as dictionary keys match by their bytes: equal texts are one key, any other text another.
    @Test(arguments: [("content:a=熟成紅茶", "content:a=熟成紅茶", true), ("content:a=x", "content:a=y", false), ("id:7", "id:7 ", false), ("", "", true)])
    func keysAreEqualWhenTheirTextsAre(left: String, right: String, equal: Bool) {
        #expect((IdentityKey(left) == IdentityKey(right)) == equal)
        #expect(Set([IdentityKey(left), IdentityKey(right)]).count == (equal ? 1 : 2))
    }
}
