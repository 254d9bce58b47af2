/// A site whose orders carry member reasons (`MemberReasonTests`, and its pages through the binary).
package enum MemberReasonFixtures {
    /// Words that advise what only the organiser can do, by catalogue; any language's reason may name a
    /// setting or a sheet mode.
    package static let organiserOnly: [String: [String]] = [
        "en": [
            "in the sheet", "fix the", "currency column", "yes or no", "delete one", "did you mean", "check the feed", "write it like",
            "write the amount", "read the sheet", "read the groups sheet",
        ],
        "zh-Hant": ["在試算表中修正", "幣別欄", "請在", "請以", "請修正", "請刪除", "是指", "請檢查", "請寫成", "請填「是」或「否」"],
        "zh-Hans": ["在表格中修正", "币种列", "请在", "请用", "请以", "请修正", "请删除", "是指", "请检查", "请写成", "请填“是”或“否”"],
        "ja": ["シートで直して", "通貨列", "直してください", "削除してください", "のことですか", "確認してください", "のように書いて", "を設定", "で読んで", "で読むか", "通貨で書いて"],
    ]

    package static let settings = ["decimal_separator", "date_order", "UNFORMATTED_VALUE", "cast_numbers", "mode="]
}
