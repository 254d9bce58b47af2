import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// Sorting by bytes gives exactly what sorting by `<` gives.
@Suite struct TextOrderTests {
    static let pieces = ["a", "B", "é", "e\u{301}", "陳", "林", "小明", " ", "1", "🏴", "Å", "A\u{30A}", "ß", ""]

    /// Byte order and `<` agree on NFC text, which is all the text `Text.normalize` leaves.
    @Test func sortsExactlyAsStringComparisonDoes() async {
        let text = Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...4).map {
            $0.map { Self.pieces[$0] }.joined().precomposedStringWithCanonicalMapping
        }
        await propertyCheck(count: 300, input: text.array(of: 0...12)) { texts in
            let people = texts.enumerated().map { (key: $0.element, position: $0.offset) }
            let expected = people.sorted { ($0.key, $0.position) < ($1.key, $1.position) }
            let sorted = TextOrder.sorted(people, keys: { [$0.key] }, by: { ($0.key, $0.position) < ($1.key, $1.position) })
            #expect(sorted.map(\.position) == expected.map(\.position))
        }
    }

    /// On text that is not NFC the check falls back on `<`, which is then no order at all: Swift finds
    /// a composed "éa" neither before, after nor equal to a decomposed "é". Whatever comes out holds
    /// every element once.
    @Test func textInOtherFormsLosesNothing() async {
        let text = Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...4).map { $0.map { Self.pieces[$0] }.joined() }
        await propertyCheck(count: 300, input: text.array(of: 0...12)) { texts in
            let people = texts.enumerated().map { (key: $0.element, position: $0.offset) }
            let sorted = TextOrder.sorted(people, keys: { [$0.key] }, by: { ($0.key, $0.position) < ($1.key, $1.position) })
            #expect(sorted.map(\.position).sorted() == Array(texts.indices))
        }
    }
}
