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

    @Test func aReasonIsShownInTheSiteLanguageWithItsValuesEscaped() {
        let reason = Reason(.priceNotNumber, ["value": "<b>*5*</b>"], english: "price '<b>*5*</b>' is not a number")
        #expect(Labels(language: "zh-Hant").reason(reason) == "價格「\\<b\\>\\*5\\*\\</b\\>」不是數字")
        // An English site shows the sentence `orderpress check` prints, escaped.
        #expect(Labels(language: "en").reason(reason) == "price '\\<b\\>\\*5\\*\\</b\\>' is not a number")
        // `[labels]` overrides a reason's text like any label.
        let overridden = Labels(language: "en", overrides: ["reason_price_not_number": "bad price {value}"])
        #expect(overridden.reason(reason) == "bad price \\<b\\>\\*5\\*\\</b\\>")
    }

    /// A warning about a source names it in the site's language ("訂單表：欄位「電子郵件地址」…"), not by its
    /// English key; an English site keeps the sentence `orderpress check` prints.
    @Test(arguments: [
        ("zh-Hant", "orders", "訂單表：欄位「電子郵件地址」未在設定中對應，不會公開"),
        ("zh-Hant", "groups", "團購表：欄位「電子郵件地址」未在設定中對應，不會公開"),
        ("zh-Hans", "orders", "订单表：列“电子郵件地址”未在配置中对应，不会公开"),
        ("ja", "groups", "グループシート：列「電子郵件地址」は設定に対応づけられていないため公開しません"),
        ("en", "orders", "orders\\: column 'email' is not mapped in the configuration and is not published"),
    ])
    func aSourceIsNamedInTheSiteLanguage(language: String, table: String, shown: String) {
        let column = language == "en" ? "email" : (language == "zh-Hans" ? "电子郵件地址" : "電子郵件地址")
        let reason = Reason(
            .columnUnmapped, ["table": table, "column": column],
            english: "\(table): column '\(column)' is not mapped in the configuration and is not published")
        #expect(Labels(language: language).reason(reason) == shown)
    }
}
