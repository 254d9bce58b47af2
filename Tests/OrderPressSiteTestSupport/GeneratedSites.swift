import Foundation
import OrderPressTestSupport
import PropertyBased
import Testing

@testable import OrderPressSupport
@testable import OrderPressCatalogue
@testable import OrderPressOutput
@testable import OrderPressConfig
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressSlugs
@testable import OrderPressAggregate
@testable import OrderPressDiff
@testable import OrderPressRender

/// Generated sites (hostile names, every setting that changes a page) validated, diffed and aggregated, ready to render.
package enum GeneratedSites {
    /// One generated site: rows of orders in the sample's columns, and the settings that change
    /// what the templates show (language, payments, display currencies, rates, recent deletions).
    package struct Site: Sendable, CustomStringConvertible {
        package var rows: [[String: String]]
        package var language: String
        package var tracksPayments: Bool
        package var displayCurrencies: [String]
        package var withRates: Bool
        /// Rows the previous run had that this one deletes (indices into `rows`, dropped from it).
        package var deleted: Set<Int>
        /// Lists of a few rows per page, so that the index and list pages paginate.
        package var shortLists: Bool
        /// Finished rounds kept in the state (`RoundArchive`): the index lists them, group pages link them.
        package var withArchives = false
        /// Each group's `payment`, `fee` and `discount` cells (issue 24), when the groups sheet has them.
        package var groupMoney: [[String]]? = nil
        package var limits: PageLimits {
            shortLists ? PageLimits(listRows: 2, changeRows: 3, attentionRows: 2, chartBars: 4, groupOrderRows: 2) : .standard
        }
        package var description: String {
            "\(rows.count) rows, \(language), paid \(tracksPayments), \(displayCurrencies), rates \(withRates), deleted \(deleted.sorted()), short lists \(shortLists), archives \(withArchives), group money \(groupMoney ?? [])"
        }
    }

    /// Hostile names: Markdown and HTML syntax, pipes, backslashes, brackets, line breaks, a bidi
    /// override, right-to-left text, emoji sequences, decomposed accents, and one past the length
    /// group pages shorten names to.
    package static let names = [
        "Amy", "王小明", "Ben | Co", "*Kim*", "~~Lee~~", "<b>Joe</b>", "a\\b", "[x](y)", "山田 花子", "Zoë\u{301}", "",
        "a|b\\c]", "[x]\n(y)", "\u{202E}evil", "👩‍💻 dev 🏳️‍🌈", "e\u{301}cole", "مرحبا | x", "tab\there  two",
        String(repeating: "長", count: 29) + "名字", "`x` \\| y",
    ]

    package static let groups = ["週五下午茶", "東京出差午餐", "SF boba run", "週一早餐", "no such group"]

    package static let drinks = [
        "熟成紅茶", "Taro `milk` tea", "# not a heading", "1. list", "a_b_c", "&amp;", "珍珠\\奶茶 [L]", "cafe\u{301} | au lait",
        String(repeating: "x", count: 70),
    ]

    package static let sites = Generator<Site, Shrink.None<Site>> { rng in
        var rows: [[String: String]] = []
        for index in 0..<Int.random(in: 0...40, using: &rng) { rows.append(row(index, using: &rng)) }
        let deleted = Set(rows.indices.filter { _ in Int.random(in: 0..<5, using: &rng) == 0 })
        return Site(
            rows: rows, language: ["en", "zh-Hant", "ja"].randomElement(using: &rng)!,
            tracksPayments: Bool.random(using: &rng), displayCurrencies: [[], ["USD", "JPY"], ["TWD"]].randomElement(using: &rng)!,
            withRates: Bool.random(using: &rng), deleted: deleted, shortLists: Bool.random(using: &rng),
            withArchives: Bool.random(using: &rng),
            groupMoney: Bool.random(using: &rng)
                ? (0..<4).map { _ in
                    [
                        ["", "LINE Pay: 0912-345-678", "*bold* | [x](y) <b>", "銀行 012 帳號 1234"].randomElement(using: &rng)!,
                        ["", "60", "12.5", "1,000", "-3", "x"].randomElement(using: &rng)!,
                        ["", "30", "7", "2500", "no"].randomElement(using: &rng)!,
                    ]
                } : nil)
    }

    /// One generated row of the sample's columns, with Markdown characters, bad values and secrets.
    package static func row(_ index: Int, using rng: inout some RandomNumberGenerator) -> [String: String] {
        [
            "id": String(index + 1), "group": groups.randomElement(using: &rng)!,
            "orderer": names.randomElement(using: &rng)!, "drink": drinks.randomElement(using: &rng)!,
            "size": ["", "L", "M|"].randomElement(using: &rng)!, "sugar": ["", "半糖"].randomElement(using: &rng)!,
            "ice": ["", "少冰"].randomElement(using: &rng)!, "quantity": ["1", "2", "", "x"].randomElement(using: &rng)!,
            "price": ["35", "1,200", "5.75", "0", "-1"].randomElement(using: &rng)!,
            "currency": ["", "", "USD", "JPY"].randomElement(using: &rng)!,
            "time": ["2026-11-21 09:15:00", "", "yesterday"].randomElement(using: &rng)!,
            "note": ["", "少冰 | 加珍珠", "*不要吸管*", "<3 #42", "~x~", "a\\|b\n[c]", "\u{2067}rtl\u{2069} ✓"].randomElement(using: &rng)!,
            "paid": ["TRUE", "", "已付", "no"].randomElement(using: &rng)!, "editCode": "secret\(index)",
        ]
    }

    /// A generated site validated, diffed against its rows before the deletions, and aggregated.
    package struct Built {
        package var configuration: Configuration
        package var data: ValidatedData
        package var aggregation: Aggregation
        package var rates: RateTable?
        package var history: [HistoryEntry]
        package var archives: [RoundArchive] = []

        package var context: SiteContext { context(limits: .standard) }

        package func context(limits: PageLimits) -> SiteContext {
            SiteContext(
                configuration: configuration, data: data, aggregation: aggregation, rates: rates,
                history: history, now: GoldenSite.now, siteID: GoldenSite.siteID, archives: archives, limits: limits)
        }
    }

    package static func build(_ site: Site, sample: Configuration, fetched: FetchedData) -> Built {
        var configuration = sample
        configuration.language = site.language
        configuration.displayCurrencies = site.displayCurrencies
        let rates = site.withRates ? fetched.rates : nil
        var headers = ["id", "group", "orderer", "drink", "size", "sugar", "ice", "quantity", "price", "currency", "time", "note", "editCode"]
        if site.tracksPayments { headers.append("paid") }
        func table(_ rows: [[String: String]]) -> SourceTable {
            TestSupport.table(headers, rows.map { row in headers.map { row[$0]! } })
        }
        let validator = Validator(configuration: configuration)
        let groups = site.groupMoney.flatMap { money in fetched.groups.map { Self.groups($0, money: money) } } ?? fetched.groups
        let before = try! validator.validateSheet(orders: table(site.rows), groups: groups)
        let kept = site.rows.enumerated().filter { !site.deleted.contains($0.offset) }.map(\.element)
        let sheet = try! validator.validateSheet(orders: table(kept), groups: groups)
        let data = sheet.data
        var archives: [RoundArchive] = []
        if site.withArchives {
            // One of a group still in the sheet, one of a group that left it, with Markdown in the names.
            archives = ["週五下午茶", "*gone* | [x](y)"].map { group in
                RoundArchive(
                    group: group, slug: Slugger.slug(group), date: "2026-11-14", deadline: "2026-11-14 14:00", organizer: "王小明",
                    shop: "<b>shop</b>", closedAt: "2026-11-15T01:00:00Z",
                    orders: [
                        .init(person: "Amy | A", item: "熟成紅茶", options: ["L"], quantity: 2, amount: "70", currency: "TWD", paid: true),
                        // Still owed when it closed: a carried debt, on the debtor's and the organiser's pages.
                        .init(person: "*Kim*", item: "[x](y)", options: [], quantity: 1, amount: "35", currency: "TWD", paid: false),
                    ])
            }
        }
        let diff = DiffStep(deletionGuard: nil, now: "2026-11-21T10:00:00Z", key: DiffFixtures.key)
        let first = try! diff.run(before, rates: rates, previous: nil, history: [])
        let second = try! diff.run(sheet, rates: rates, previous: PreviousSnapshot(first.snapshot), history: first.history)
        let aggregation = Aggregator.aggregate(
            data, rates: rates, displayCurrencies: configuration.displayCurrencies, baseCurrency: configuration.baseCurrency,
            money: MoneyFormat(minorUnitOverrides: configuration.minorUnits))
        return Built(configuration: configuration, data: data, aggregation: aggregation, rates: rates, history: second.history, archives: archives)
    }

    /// The sample's groups sheet with `payment`, `fee` and `discount` columns holding `money` row by row.
    package static func groups(_ groups: SourceTable, money: [[String]]) -> SourceTable {
        // The sample's own money columns give way to the generated ones.
        let kept = groups.headers.indices.filter { !["payment", "fee", "discount"].contains(groups.headers[$0]) }
        let headers = kept.map { groups.headers[$0] } + ["payment", "fee", "discount"]
        let rows = (0..<groups.dataRowCount).map { row in
            kept.map { groups.cell(row, $0) } + money[row % money.count]
        }
        return TestSupport.table(headers, rows, name: "groups")
    }
}
