import Foundation
import Testing

@testable import OrderPressSupport
@testable import OrderPressCatalogue
@testable import OrderPressValidate
@testable import OrderPressRender
import OrderPressTestSupport

/// A reason as a page shows it (`Labels.reason`): in the site's language, its values escaped, `[labels]`
/// overrides applied. The catalogue's texts themselves are `ReasonCatalogueTests`'.
@Suite struct ReasonTextTests {
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

    @Test func aQuantityTypedWithItsUnitIsShownInTheSiteLanguage() {
        #expect(Labels(language: "zh-Hant").reason(QuantityText.problem("2杯")) == "數量「2杯」不是單純的數字；請寫 2")
    }
}
