import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressCatalogue
import OrderPressTestSupport

/// Every reason code has its text in each built-in language, naming the same values.
@Suite struct ReasonCatalogueTests {
    @Test(arguments: ReasonCode.allCases)
    func everyCodeHasATextInAllFourCatalogues(code: ReasonCode) throws {
        let row = try #require(ReasonCatalogue.rows.first { $0.key == code.labelKey }, "\(code.rawValue) has no text")
        let placeholder = try NSRegularExpression(pattern: #"\{[a-z_]+\}"#)
        func names(_ text: String) -> [String] {
            placeholder.matches(in: text, range: NSRange(text.startIndex..., in: text))
                .map { String(text[Range($0.range, in: text)!]) }.sorted()
        }
        let texts = [row.en, row.zhHant, row.zhHans, row.ja]
        #expect(texts.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(Set(texts.map(names)).count == 1, "\(code.rawValue) names different values")
        for language in LabelCatalogue.languages {
            #expect(Labels(language: language)[code.labelKey] != code.labelKey)
        }
    }

    /// A reason's English sentence (terminal, `summary.json`, an English site's pages) is written once, in the
    /// catalogue: a reason made from its code and values says the catalogue's English text with them put in.
    @Test(arguments: ReasonCode.allCases)
    func aReasonSaysTheCatalogueEnglishWithItsValues(code: ReasonCode) throws {
        let text = try #require(ReasonCatalogue.english[code.labelKey])
        let placeholder = try NSRegularExpression(pattern: #"\{([a-z_]+)\}"#)
        let names = Set(placeholder.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) })
        // Values that look like placeholders themselves are put in as they are, not filled again.
        let values = Dictionary(uniqueKeysWithValues: names.map { ($0, "<\($0)> {row}") })
        var expected = text
        for name in names { expected = expected.replacingOccurrences(of: "{\(name)}", with: "\u{0}\(name)\u{0}") }
        for name in names { expected = expected.replacingOccurrences(of: "\u{0}\(name)\u{0}", with: "<\(name)> {row}") }
        let reason = Reason(code, values)
        #expect(reason.english == expected)
        #expect(!names.isEmpty || reason.english == text)
    }

    @Test func noKeyIsBothALabelAndAReason() {
        let keys = LabelCatalogue.rows.map(\.key) + ReasonCatalogue.rows.map(\.key)
        #expect(Set(keys).count == keys.count)
    }
}
