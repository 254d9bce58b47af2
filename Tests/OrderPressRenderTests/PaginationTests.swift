import Foundation
import Testing

@testable import OrderPressCatalogue
@testable import OrderPressOutput
@testable import OrderPressFetch
@testable import OrderPressValidate
@testable import OrderPressAggregate
@testable import OrderPressDiff
@testable import OrderPressRender
import OrderPressTestSupport

/// Long lists are split into pages, and long sections are capped, so that no page grows with the
/// data. Rendered in-process with small limits: the same code paths as 500 rows per page.
@Suite struct PaginationTests {
    static let limits = PageLimits(listRows: 5, changeRows: 3, attentionRows: 2, chartBars: 4)

    /// Names made to collide with list pages if list pages shared a folder with slugs.
    static let trickyPeople = ["page-2", "people-2", "People 3", "groups-2", "Index 2", "index", "people"]
    static let trickyGroups = ["groups-2", "people 2", "Groups", "index"]

    /// 7 groups and 23 people: two pages of groups (5 + 2), five of people (5 × 4 + 3).
    static func orders(rejected: Int = 0, badTimes: Int = 0) -> SourceTable {
        let groups = trickyGroups + ["甲", "乙", "丙"]
        let people = trickyPeople + (1...16).map { "訂購人 \($0)" }
        var rows: [[String]] = []
        for (index, person) in people.enumerated() {
            rows.append(["\(index + 1)", groups[index % groups.count], person, "紅茶", "35", index < badTimes ? "soon" : ""])
        }
        for index in 0..<rejected {
            rows.append(["r\(index)", groups[0], "Ben", "紅茶", "-5", ""])
        }
        return TestSupport.table(["id", "group", "orderer", "drink", "price", "time"], rows)
    }

    static func render(
        _ table: SourceTable = orders(), history: [HistoryEntry] = GoldenSiteTests.firstRun, templates: URL? = nil,
        limits: PageLimits = limits
    ) throws -> RenderedSite {
        let configuration = try TestSupport.configuration(TestSupport.minimalTOML)
        let data = try Validator(configuration: configuration).validate(orders: table, groups: nil)
        var renderer = try SiteRenderer(templateOverrides: templates)
        renderer.limits = limits
        return renderer.render(
            configuration: configuration, data: data,
            aggregation: Aggregator.aggregate(data, rates: nil, displayCurrencies: [], baseCurrency: "TWD"),
            rates: nil, history: history, now: GoldenSite.now, siteID: GoldenSite.siteID)
    }

    static func text(_ site: RenderedSite, _ path: String) -> String {
        String(decoding: (site.markdown + site.site).first { $0.path == path }!.contents, as: UTF8.self)
    }

    /// Every Markdown link target in `text` that starts with `prefix`.
    static func links(_ text: String, under prefix: String) -> [String] {
        text.components(separatedBy: "](").dropFirst().compactMap { part in
            let target = String(part.prefix { $0 != ")" })
            return target.hasPrefix(prefix) ? target : nil
        }
    }

    @Test func listPagesHaveExactNamesBesideTheFixedPages() throws {
        let site = try Self.render()
        let topLevel = site.markdown.map(\.path).filter { !$0.contains("/") }
        #expect(
            topLevel == [
                "attention.md", "changes.md", "groups-2.md", "index.md", "people-2.md", "people-3.md", "people-4.md",
                "people-5.md", "rates.md",
            ])
        // No two files of the site are one file on a case-insensitive file system, tricky names included.
        let paths = site.site.map { $0.path.lowercased() }
        #expect(Set(paths).count == paths.count)
        #expect(site.markdown.contains { $0.path == "groups/groups-2.md" })
        #expect(site.markdown.contains { $0.path == "people/people-2.md" })
        #expect(site.markdown.contains { $0.path == "people/page-2.md" })
    }

    @Test(arguments: [
        (ListPages.List.groups, ["index.md", "groups-2.md"], 7),
        (.people, ["index.md", "people-2.md", "people-3.md", "people-4.md", "people-5.md"], 23),
    ])
    func everyRowAppearsOnceAcrossTheListPages(list: ListPages.List, pages: [String], count: Int) throws {
        let site = try Self.render()
        let folder = list == .groups ? "groups/" : "people/"
        let linked = pages.flatMap { Self.links(Self.text(site, $0), under: folder) }
        let all = site.markdown.map(\.path).filter { $0.hasPrefix(folder) && $0.hasSuffix(".md") }
        #expect(linked.count == count)
        #expect(linked.sorted() == all.sorted())
    }

    @Test func theIndexShowsTheFirstPagesAndLinksTheOthers() throws {
        let site = try Self.render()
        let index = Self.text(site, "index.md")
        #expect(index.contains("\n\n1–5 of 7 · **1** [2](groups-2.md) · [Next →](groups-2.md)\n"))
        #expect(index.contains("\n\n1–5 of 23 · **1** [2](people-2.md) [3](people-3.md) … [5](people-5.md) · [Next →](people-2.md)\n"))
        let people3 = Self.text(site, "people-3.md")
        #expect(people3.hasPrefix("# People, page 3 of 5\n\n[← All groups](index.md)\n\n"))
        let pager = "11–15 · [← Previous](people-2.md) · [1](index.md) [2](people-2.md) **3** [4](people-4.md) [5](people-5.md) · [Next →](people-4.md)"
        #expect(people3.components(separatedBy: pager).count == 3, "the pager above and below the table")
        #expect(Self.text(site, "people-5.md").contains("21–23 · [← Previous](people-4.md) · [1](index.md) … [3](people-3.md) [4](people-4.md) **5**\n"))
        #expect(Self.text(site, "groups-2.html").contains("<title>Groups, page 2 of 2 · Orders</title>"))
    }

    @Test(arguments: [
        (1, 1, [1] as [Int?]), (1, 5, [1, 2, 3, nil, 5]), (3, 5, [1, 2, 3, 4, 5]), (10, 20, [1, nil, 8, 9, 10, 11, 12, nil, 20]),
        (20, 20, [1, nil, 18, 19, 20]), (4, 7, [1, 2, 3, 4, 5, 6, 7]),
    ])
    func thePagerLinksTheEndsAndTheNeighbours(page: Int, pages: Int, expected: [Int?]) {
        #expect(ListPages(list: .people, count: pages * 10, size: 10).pagerPages(around: page) == expected)
    }

    @Test func aListThatFitsHasNoPager() {
        let pages = ListPages(list: .groups, count: 5, size: 5)
        #expect(pages.pageCount == 1)
        #expect(pages.extraPages == nil)
        #expect(pages.pager(page: 1, labels: Labels(language: "en")) == nil)
        #expect(ListPages(list: .groups, count: 0, size: 5).pageCount == 1)
        #expect(ListPages(list: .groups, count: 6, size: 5).rows(ofPage: 2) == 5..<6)
    }

    /// From the top-level list pages and the nested group and person pages alike, every relative
    /// link of the HTML site names a file that exists.
    @Test func everyRelativeLinkResolvesToAFile() throws {
        let site = try Self.render()
        let files = Set(site.site.map(\.path))
        let href = try NSRegularExpression(pattern: #"(?:href|src)="([^"]*)""#)
        var checked = 0
        for file in site.site where file.path.hasSuffix(".html") {
            let html = String(decoding: file.contents, as: UTF8.self)
            let folder = (file.path as NSString).deletingLastPathComponent
            for match in href.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
                let target = String(html[Range(match.range(at: 1), in: html)!])
                #expect(!target.hasPrefix("/") && !target.contains("://"), "\(file.path): \(target) is not relative")
                var resolved: [Substring] = folder.isEmpty ? [] : [Substring(folder)]
                for part in target.removingPercentEncoding!.split(separator: "/") {
                    if part == ".." { _ = resolved.popLast() } else { resolved.append(part) }
                }
                #expect(files.contains(resolved.joined(separator: "/")), "\(file.path): \(target) names no file")
                checked += 1
            }
        }
        #expect(checked > 100)
        let index = Self.text(site, "index.html")
        #expect(index.contains(#"<a href="people-2.html">2</a>"#))
        #expect(Self.text(site, "people-2.html").contains(#"<a href="index.html">1</a>"#))
    }

    @Test func attentionListsAtMostItsLimitAndSaysHowManyMore() throws {
        let site = try Self.render(Self.orders(rejected: 5, badTimes: 4))
        let attention = Self.text(site, "attention.md")
        #expect(attention.contains("\n\nand 3 more: run `orderpress check` to list them all.\n\n## Warnings"))
        #expect(attention.hasSuffix("\n\nand 2 more: run `orderpress check` to list them all.\n"))
        let tableRows = attention.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.first(where: \.isNumber) != nil }
        #expect(tableRows.count == 4, "two rejected rows and two warnings")
        // Within the limit, nothing is said.
        let whole = try Self.render(Self.orders(rejected: 2, badTimes: 2))
        #expect(!Self.text(whole, "attention.md").contains("more"))
    }

    static func record(_ number: Int) -> RowRecord {
        RowRecord(
            row: number + 1, id: "\(number)", identity: "id:\(number)", values: [], secrets: [], rejected: false, group: "甲",
            person: "Amy \(number)", item: "紅茶", options: [], quantity: 1, amount: "35", currency: "TWD",
            firstSeen: "2026-11-21T09:00:00Z")
    }

    @Test func changesListAtMostItsLimitPerSectionAndSayHowManyMore() throws {
        let records = (1...7).map(Self.record)
        let changed = (1...4).map { ChangeSet.Change(before: Self.record($0), after: Self.record($0), fields: ["price": ["30", "35"]]) }
        let history = [
            HistoryEntry(
                time: "2026-11-21T11:00:00Z",
                changes: ChangeSet(firstRun: false, deleted: records, added: Array(records.prefix(3)), changed: changed), sequence: 1)
        ]
        let site = try Self.render(history: history)
        let changes = Self.text(site, "changes.md")
        #expect(changes.contains("Amy 3") && !changes.contains("Amy 4"))
        #expect(changes.contains("| **Amy 3** | 1 × 紅茶 | 35.00 TWD | 甲 | 2026-11-21 09:00 | 4 |\n\nand 4 more deleted\n\n### Added orders (3)"))
        #expect(changes.contains("| Amy 3 | 1 × 紅茶 | 35.00 TWD | 甲 | 4 |\n\n### Changed orders (4)"), "three added: all shown")
        // A changed price shows as an amount, as the pages show amounts.
        #expect(changes.hasSuffix("| Amy 3 | 1 × 紅茶 | 甲 | 4 | price: 30.00 → 35.00 |\n\nand 1 more changed\n\n"))
        let feed = Self.text(site, "feed.xml")
        #expect(feed.contains("Deleted: Amy 3, 1 × 紅茶, 甲, 35.00 TWD\nand 4 more deleted\nAdded: Amy 1"))
        #expect(feed.contains("and 1 more changed</content>"))
    }

    @Test func aChartShowsItsLimitOfBarsAndSaysHowManyMore() throws {
        let rows = (1...6).map { ["\($0)", "甲", "Amy \($0)", "紅茶", "35", ""] }
        let site = try Self.render(TestSupport.table(["id", "group", "orderer", "drink", "price", "time"], rows))
        let chart = Self.text(site, "groups/甲.svg")
        #expect(chart.components(separatedBy: "<rect").count - 1 == 4)
        #expect(chart.contains(#"height="218""#), "four bars and the line under them, 42 units each, plus 8")
        #expect(chart.hasSuffix("<text x=\"0\" y=\"187\">and 2 more people</text>\n</svg>\n"))
    }

    /// A site made by `orderpress init` before pagination keeps its copy of the old index template:
    /// it still renders, showing the first page of each list.
    @Test func anOldIndexTemplateStillRendersTheFirstPages() throws {
        var old = DefaultTemplates.files["index.md.mustache"]!
        for pager in ["groupPager", "peoplePager"] {
            old = old.replacingOccurrences(of: "{{#\(pager)}}\n\n{{.}}\n{{/\(pager)}}\n", with: "")
        }
        #expect(!old.contains("Pager"))
        let folder = TestSupport.temporaryFolder()
        TestSupport.write(["index.md.mustache": old], in: folder)
        let site = try Self.render(templates: folder)
        let index = Self.text(site, "index.md")
        #expect(Self.links(index, under: "people/").count == 5)
        #expect(Self.links(index, under: "groups/").count == 5)
        #expect(!index.contains("](people-2.md)"))
        #expect(site.markdown.contains { $0.path == "people-5.md" })
    }
}
