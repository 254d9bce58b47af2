import PropertyBased
import Testing

@testable import OrderPressValidate
import OrderPressTestSupport

/// The spellings counted range by range as validation reads the rows (`PersonSpellings.Tally`, one per
/// core) are those counted over all the rows in one pass: the same persons merged, the same spelling
/// shown (the most used, ties to the first in the sheet), the same first row, wherever the ranges end.
@Suite struct PersonSpellingsTests {
    static let names = ["伊藤 健", "伊藤健", "Amy", "amy", " AMY", "Ben", "", "陳小明", "陳 小明", "Zoë", "ZOË", "Ōta Kenji", "ota kenji", "a very long name that is not small"]

    static let sheets = Generator<([String], [Int]), Shrink.None<([String], [Int])>> { rng in
        let names = (0..<Int.random(in: 0...60, using: &rng)).map { _ in Self.names.randomElement(using: &rng)! }
        let cuts = (0..<Int.random(in: 0...4, using: &rng)).map { _ in Int.random(in: 0...names.count, using: &rng) }.sorted()
        return (names, cuts)
    }

    @Test func rangesCountedApartMergeAsOnePass() async {
        await propertyCheck(count: 300, input: Self.sheets) { sheet in
            let (names, cuts) = sheet
            let rows = names.enumerated().map { (person: $0.element, key: PersonKey($0.element), row: $0.offset + 2) }
            let bounds = [0] + cuts + [rows.count]
            let tallies = zip(bounds, bounds.dropFirst()).map { start, end in
                var tally = PersonSpellings.Tally()
                for row in rows[start..<end] { tally.note(row.person, key: row.key, row: row.row) }
                return tally
            }
            #expect(PersonSpellings(tallies: tallies) == PersonSpellings(rows), "\(names) cut at \(cuts)")
        }
    }
}
