import Foundation
import PropertyBased
import Testing

@testable import OrderPress

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
        }
    }

    /// Identities as dictionary keys match by their bytes: equal texts are one key, any other text another.
    @Test(arguments: [("content:a=熟成紅茶", "content:a=熟成紅茶", true), ("content:a=x", "content:a=y", false), ("id:7", "id:7 ", false), ("", "", true)])
    func keysAreEqualWhenTheirTextsAre(left: String, right: String, equal: Bool) {
        #expect((IdentityKey(left) == IdentityKey(right)) == equal)
        #expect(Set([IdentityKey(left), IdentityKey(right)]).count == (equal ? 1 : 2))
    }
}
