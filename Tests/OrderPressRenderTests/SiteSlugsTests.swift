import Foundation
import PropertyBased
import Testing

@testable import OrderPressRender
import OrderPressTestSupport

@Suite struct SiteSlugsTests {
    /// Texts as the validator hands them out: short and long, composed and decomposed (equal as
    /// `String`s), and the same text made afresh (its own storage) or shared.
    static let texts = ["Amy", "amy", "Zo\u{EB}", "Zoe\u{308}", "陳小明", "陳小明 2", String(repeating: "長", count: 6), "a long name of many bytes"]

    /// Each distinct text once, first occurrence first, as a set of `String`s would count them, the
    /// words' cache (`TextBits`) notwithstanding.
    @Test func distinctKeysAreThoseAStringSetCounts() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...(2 * Self.texts.count - 1)).array(of: 0...60)) { picks in
            let keys = picks.map { pick in
                // Half of them made afresh: a long text then has storage of its own.
                pick < Self.texts.count ? Self.texts[pick] : String(decoding: Array(Self.texts[pick - Self.texts.count].utf8), as: UTF8.self)
            }
            var seen = Set<String>()
            let expected = keys.filter { seen.insert($0).inserted }
            let distinct = SiteSlugs.distinct(keys)
            #expect(distinct == expected)
            #expect(distinct.map { Array($0.utf8) } == expected.map { Array($0.utf8) })
        }
    }
}
