import Foundation
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// A look-up by words (`TextBits`) is only a cache in front of the look-up by text: whatever the length
/// and however the query is spelt, the dictionary answers what a `[String: Value]` answers.
@Suite struct TextDictionaryTests {
    static let keys = ["Amy", "王小明", "清心福全 048團", "可不可熟成紅茶 001團 週五下午茶", "Café", "Ben O'Neil and friends"]

    @Test(arguments: [
        "Amy", "王小明", "清心福全 048團", "可不可熟成紅茶 001團 週五下午茶", "Café", "Ben O'Neil and friends",
        // The same texts in other bytes (decomposed): only the look-up by text finds them.
        "Cafe\u{301}", "清心福全 048團".decomposedStringWithCanonicalMapping,
        // Texts that are not keys.
        "amy", "清心福全 049團", "", "Ben O'Neil and friend",
    ])
    func answersAsADictionaryByText(query: String) {
        let byText = Dictionary(uniqueKeysWithValues: Self.keys.enumerated().map { ($1, $0) })
        let dictionary = TextDictionary(byText)
        // A copy made apart from the keys' own storage, as a sheet's cell is.
        let copy = String(decoding: Array(query.utf8), as: UTF8.self)
        #expect(dictionary[copy] == byText[query])
        #expect(dictionary[query] == byText[query])
    }
}
