import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressCatalogue
import OrderPressTestSupport

/// The reasons pages show are for members, who answered a Form: no page tells them to fix the sheet, to
/// use a currency column or to set `decimal_separator` or `date_order` — the organiser's advice, which
/// `check` and the terminal keep (`Reason.english`).
@Suite struct MemberReasonTests {

    /// `{name}` placeholders of a text.
    static func names(_ text: String) -> Set<String> {
        let placeholder = try! NSRegularExpression(pattern: #"\{([a-z_]+)\}"#)
        return Set(placeholder.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) })
    }

    /// A reason of `code` with a value for each name its organiser's text holds, and that text (filled) as its
    /// English sentence, as the validator makes it.
    static func sample(_ code: ReasonCode) -> Reason {
        let english = ReasonCatalogue.english[code.labelKey]!
        let values = Dictionary(uniqueKeysWithValues: names(english).map { ($0, $0 == "table" ? "orders" : "V\($0.count)") })
        return Reason(code, values, english: Labels.Filler(english, names: Array(values.keys), literal: { $0 }).fill(Array(values.values)))
    }

    static let cases: [(ReasonCode, String)] = ReasonCode.allCases.flatMap { code in LabelCatalogue.languages.map { (code, $0) } }

    @Test(arguments: cases)
    func noReasonOnAPageAdvisesWhatOnlyTheOrganiserCanDo(code: ReasonCode, language: String) {
        let shown = Labels(language: language).reason(Self.sample(code))
        // Markdown escapes `_` and `[`: the words as a reader sees them.
        let read = shown.replacingOccurrences(of: "\\", with: "")
        for word in MemberReasonFixtures.organiserOnly[language]! + MemberReasonFixtures.settings {
            #expect(!read.contains(word), "\(code.rawValue) in \(language) shows '\(word)': \(read)")
        }
    }

    /// What members read names only values the reason carries, the same in every language, for a code there is.
    @Test func membersWordsNameTheReasonsOwnValues() throws {
        let members = ReasonCatalogue.rows.filter { $0.key.hasPrefix("member_") }
        #expect(members.count >= 20)
        for row in members {
            let code = try #require(ReasonCode.allCases.first { $0.memberLabelKey == row.key }, "\(row.key) is no code's")
            let texts = [row.en, row.zhHant, row.zhHans, row.ja]
            #expect(Set(texts.map(Self.names)).count == 1, "\(row.key) names different values")
            #expect(Self.names(row.en).isSubset(of: Self.names(ReasonCatalogue.english[code.labelKey]!)), "\(row.key) names a value the reason lacks")
        }
    }

    /// The terminal and `summary.json` keep the organiser's sentence; a site's own words for a reason stand
    /// unless it also gave the members' words.
    @Test func theOrganisersSentenceAndASitesOwnWordsStand() {
        let reason = Reason(
            .priceFormatted, ["value": "45元", "number": "45", "column": "price"],
            english: "price '45元' is not a plain number; write 45 (the currency belongs in the currency column or the group)")
        #expect(reason.english.contains("currency column"))
        #expect(Labels(language: "en").reason(reason) == "price '45元' is not a plain number\\: answer only the number, 45")
        #expect(Labels(language: "ja").reason(reason) == "価格「45元」は数字だけではありません。数字だけ（45）で回答してください")
        let own = Labels(language: "en", overrides: ["reason_price_formatted": "{value}: numbers only"])
        #expect(own.reason(reason) == "45元\\: numbers only")
        let both = Labels(language: "en", overrides: ["reason_price_formatted": "{value}: numbers only", "member_reason_price_formatted": "{value}?"])
        #expect(both.reason(reason) == "45元?")
    }
}
