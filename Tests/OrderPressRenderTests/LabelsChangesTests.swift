import Foundation
import Testing

@testable import OrderPressCatalogue
@testable import OrderPressDiff
@testable import OrderPressRender
import OrderPressTestSupport

/// `Labels.summary` (Labels+Changes.swift): a change set in the site's language.
@Suite struct LabelsChangesTests {
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
