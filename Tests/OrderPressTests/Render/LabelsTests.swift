import Foundation
import Testing

@testable import OrderPress

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

    @Test func aChangeSetIsSummarisedInTheLanguage() {
        let record = RowRecord(
            row: 2, id: nil, identity: "x", values: [], secrets: [], rejected: false, group: "g", person: "p", item: "i",
            options: [], quantity: 1, amount: "1", currency: "TWD", firstSeen: "")
        let changes = ChangeSet(firstRun: false, deleted: [record, record], added: [record], changed: [])
        #expect(Labels(language: "en").summary(changes) == "2 deleted, 1 added")
        #expect(Labels(language: "zh-Hant").summary(changes) == "刪除 2 筆、新增 1 筆")
        #expect(Labels(language: "ja").summary(ChangeSet(firstRun: true, deleted: [], added: [], changed: [])) == "初回のビルドのため比較対象なし")
    }
}
