import Foundation
import Testing

@testable import OrderPressCatalogue
import OrderPressTestSupport

/// The label catalogue: complete in every language, chosen by language tag, overridable per key.
@Suite struct LabelsTests {
    @Test(arguments: [
        ("en", "en"), ("en-GB", "en"), ("fr", "en"), ("", "en"), ("de-DE", "en"),
        ("zh-Hant", "zh-Hant"), ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-MO", "zh-Hant"), ("zh-Hant-TW", "zh-Hant"),
        ("zh_TW", "zh-Hant"), ("zh-Hans", "zh-Hans"), ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh", "zh-Hans"),
        ("ja", "ja"), ("ja-JP", "ja"), ("JA", "ja"),
    ])
    func aLanguageTagFallsBackToItsNearestCatalogue(tag: String, catalogue: String) {
        #expect(Labels.catalogue(for: tag) == catalogue)
    }

    @Test func everyKeyIsTranslatedOnceInEveryLanguageWithTheSamePlaceholders() throws {
        let keys = LabelCatalogue.rows.map(\.key)
        #expect(Set(keys).count == keys.count, "a key appears twice")
        let placeholder = try NSRegularExpression(pattern: #"\{[a-z]+\}"#)
        func names(_ text: String) -> [String] {
            placeholder.matches(in: text, range: NSRange(text.startIndex..., in: text))
                .map { String(text[Range($0.range, in: text)!]) }.sorted()
        }
        for row in LabelCatalogue.rows {
            let texts = [row.en, row.zhHant, row.zhHans, row.ja]
            #expect(texts.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty }, "\(row.key) is empty somewhere")
            #expect(Set(texts.map(names)).count == 1, "\(row.key) has different placeholders")
        }
    }

    /// Built-in labels reach Markdown unescaped (readable in git), so none may carry Markdown syntax.
    @Test func builtInLabelsCarryNoMarkdownSyntax() {
        let active = Set("*_[]<>|\\`#~!&")
        for row in LabelCatalogue.rows {
            for text in [row.en, row.zhHant, row.zhHans, row.ja] {
                #expect(!text.contains(where: active.contains), "\(row.key): \(text)")
            }
        }
    }

    @Test func overridesReplaceSingleLabelsAndAreEscapedForMarkdown() {
        let labels = Labels(language: "zh-TW", overrides: ["total": "總額 *", "pay_to": "{amount} → {organizer} [{group}]"])
        #expect(labels["total"] == "總額 *")
        #expect(labels["grand_total"] == "總計")
        #expect(labels.markdownTable["total"] == "總額 \\*")
        #expect(labels.markdown("pay_to", ["amount": "155 TWD", "organizer": "王小明", "group": "週五下午茶"]) == "155 TWD → 王小明 \\[週五下午茶\\]")
        #expect(labels.text("pay_to", ["amount": "155 TWD", "organizer": "王小明", "group": "週五下午茶"]) == "155 TWD → 王小明 [週五下午茶]")
    }

    @Test func placeholdersAreFilledInEachLanguage() {
        let values = ["amount": "155 TWD", "organizer": "王小明", "group": "週五下午茶"]
        #expect(Labels(language: "en").text("pay_to", values) == "155 TWD to 王小明 for 週五下午茶")
        #expect(Labels(language: "zh-Hant").text("pay_to", values) == "155 TWD 付給 王小明（週五下午茶）")
        #expect(Labels(language: "zh-Hans").text("pay_to", values) == "155 TWD 付给 王小明（週五下午茶）")
        #expect(Labels(language: "ja").text("pay_to", values) == "王小明 さんへ 155 TWD（週五下午茶）")
        // A value is put in once, as it is: braces inside it are not placeholders.
        #expect(Labels(language: "en").text("all_in", ["currency": "{currency}"]) == "all in {currency}")
    }

    @Test func everySingularBelongsToALabelWithTheSamePlaceholders() throws {
        let placeholder = try NSRegularExpression(pattern: #"\{[a-z]+\}"#)
        func names(_ text: String) -> [String] {
            placeholder.matches(in: text, range: NSRange(text.startIndex..., in: text))
                .map { String(text[Range($0.range, in: text)!]) }.sorted()
        }
        let rows = Dictionary(uniqueKeysWithValues: Labels.rows.map { ($0.key, $0) })
        for (key, singular) in LabelCatalogue.singulars {
            let row = try #require(rows[key], "\(key) has a singular but no label")
            #expect(names(singular) == names(row.en), "\(key)'s singular has other placeholders")
            #expect(names(singular).contains("{count}") || names(singular).contains("{hours}"), "\(key) counts nothing")
            #expect(Labels.keys.contains(key + "_one"))
        }
    }

    @Test(arguments: [
        ("en", "rejected_notice", ["count": "1"], "1 row was rejected and is not counted."),
        ("en", "rejected_notice", ["count": "2"], "2 rows were rejected and are not counted."),
        ("en", "rejected_notice", ["count": "0"], "0 rows were rejected and are not counted."),
        ("en", "rejected_notice", ["count": "11"], "11 rows were rejected and are not counted."),
        ("en", "group_rejected", ["count": "1"], "1 row of this group was rejected and is not counted."),
        ("en", "round_closed_line", ["group": "Thai", "count": "1"], "Round closed: Thai, 1 order archived"),
        ("en", "round_closed_line", ["group": "Thai", "count": "3"], "Round closed: Thai, 3 orders archived"),
        ("en", "more_people", ["count": "1"], "and 1 more person"),
        ("en", "stale", ["hours": "1"], "stale: older than 1 hour"),
        ("en", "stale", ["hours": "48"], "stale: older than 48 hours"),
        ("zh-Hant", "rejected_notice", ["count": "1"], "有 1 列資料被退回，未計入合計。"),
        ("zh-Hant", "round_closed_line", ["group": "午餐", "count": "1"], "團購已結束：午餐，1 筆訂單已封存"),
        ("ja", "more_people", ["count": "1"], "ほか 1 人"),
    ] as [(String, String, [String: String], String)])
    func aCountOfOneTakesTheSingular(language: String, key: String, values: [String: String], text: String) {
        #expect(Labels(language: language).text(key, values) == text)
        #expect(Labels(language: language).markdown(key, values) == text)
    }

    @Test func theItemsAndOrdersOfAGroupAreCountedInEachLanguage() {
        func line(_ language: String, _ items: Int, _ orders: Int) -> String {
            let labels = Labels(language: language)
            return labels.text("items_and_orders", [
                "items": labels.text("item_count", ["count": String(items)]),
                "orders": labels.text("order_count", ["count": String(orders)]),
            ])
        }
        #expect(line("en", 1, 1) == "(1 item, 1 order)")
        #expect(line("en", 3, 1) == "(3 items, 1 order)")
        #expect(line("en", 24, 21) == "(24 items, 21 orders)")
        #expect(line("zh-Hant", 24, 21) == "（共 24 份、21 筆訂單）")
        #expect(line("zh-Hans", 1, 1) == "（共 1 份、1 笔订单）")
        #expect(line("ja", 24, 21) == "（24 点・注文 21 件）")
    }

    /// A user who rewords a label need not know it has a singular; one who knows may word both.
    @Test func anOverriddenLabelKeepsTheUsersWordsForOneUnlessTheSingularIsOverriddenToo() {
        let reworded = Labels(language: "en", overrides: ["rejected_notice": "Not counted: {count} *"])
        #expect(reworded.text("rejected_notice", ["count": "1"]) == "Not counted: 1 *")
        #expect(reworded.markdown("rejected_notice", ["count": "1"]) == "Not counted\\: 1 \\*")
        let both = Labels(language: "en", overrides: ["rejected_notice": "{count} lines out", "rejected_notice_one": "{count} line out"])
        #expect(both.text("rejected_notice", ["count": "1"]) == "1 line out")
        #expect(both.text("rejected_notice", ["count": "5"]) == "5 lines out")
    }
}
