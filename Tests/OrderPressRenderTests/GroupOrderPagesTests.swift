import Foundation
import Testing

@testable import OrderPressFetch
@testable import OrderPressRender
import OrderPressTestSupport

/// A group's orders and people beyond `PageLimits.groupOrderRows` go on pages of their own beside the
/// group page, `groups/<slug>--2`, …: rendered in-process with small limits, the same code paths as 1,000 a page.
@Suite struct GroupOrderPagesTests {
    static let limits = PageLimits(listRows: 5, changeRows: 3, attentionRows: 2, chartBars: 4, groupOrderRows: 4)

    /// "tea" with 10 orders (three pages), and "tea 2", whose slug is what `tea-2` would have been.
    static func orders() -> SourceTable {
        var rows: [[String]] = []
        for index in 1...10 { rows.append(["\(index)", "tea", "訂購人 \(index)", "紅茶 \(index)", "35", ""]) }
        rows.append(["11", "tea 2", "Amy", "綠茶", "30", ""])
        return TestSupport.table(["id", "group", "orderer", "drink", "price", "time"], rows)
    }

    @Test func everyOrderAppearsOnceAcrossTheGroupsPages() throws {
        let site = try PaginationTests.render(Self.orders(), limits: Self.limits)
        let groups = site.markdown.map(\.path).filter { $0.hasPrefix("groups/") && $0.hasSuffix(".md") }
        #expect(groups == ["groups/tea--2.md", "groups/tea--3.md", "groups/tea-2.md", "groups/tea.md"])
        let pages = ["groups/tea.md", "groups/tea--2.md", "groups/tea--3.md"].map { PaginationTests.text(site, $0) }
        let items = pages.flatMap { page in (1...10).filter { page.contains("| 紅茶 \($0) |") } }
        #expect(items == Array(1...10))
        #expect(pages.map { page in (1...10).filter { page.contains("| 紅茶 \($0) |") }.count } == [4, 4, 2])
        // The group page keeps its totals; the other pages list orders only, linked both ways.
        #expect(pages[0].contains("## Shop order sheet"))
        #expect(pages[0].contains("\n1–4 of 10 · **1** [2](tea--2.md) [3](tea--3.md) · [Next →](tea--2.md)\n"))
        #expect(pages[1].hasPrefix("# tea, page 2 of 3\n\n[← tea](tea.md)\n\n5–8 of 10 · [← Previous](tea.md) · [1](tea.md) **2** [3](tea--3.md) · [Next →](tea--3.md)\n"))
        #expect(!pages[1].contains("Shop order sheet"))
        // Its ten people's totals likewise, four a page, each linking their page once.
        let people = pages.map { PaginationTests.links($0, under: "../people/") }
        #expect(people.map(\.count) == [4, 4, 2])
        #expect(Set(people.flatMap { $0 }).count == 10)
        #expect(pages[1].contains("## Totals per person\n\n") && pages[1].contains("## Orders\n\n"))
        #expect(PaginationTests.text(site, "groups/tea--3.html").contains("<title>tea, page 3 of 3 · "))
        // Every link of every page names a page of the site.
        let files = Set(site.markdown.map(\.path))
        for (path, page) in zip(["groups/tea.md", "groups/tea--2.md", "groups/tea--3.md"], pages) {
            for link in PaginationTests.links(page, under: "") where link.hasSuffix(".md") {
                let target = URL(fileURLWithPath: "/site/groups").appendingPathComponent(link).standardized.path.dropFirst("/site/".count)
                #expect(files.contains(String(target)), "\(path) links \(link)")
            }
        }
    }

    @Test func aGroupThatFitsHasNoPager() throws {
        let site = try PaginationTests.render(Self.orders(), limits: PageLimits(groupOrderRows: 10))
        #expect(!site.markdown.contains { $0.path.contains("--") })
        #expect(!PaginationTests.text(site, "groups/tea.md").contains("1–10 of 10"))
    }
}

/// A person's orders beyond `PageLimits.groupOrderRows` go on `people/<slug>--2`, …, by group as on their page.
@Suite struct PersonOrderPagesTests {
    /// Amy with 10 orders, 6 in "tea" and 4 in "lunch" (interleaved in the sheet), and Ben with one.
    static func orders() -> SourceTable {
        var rows: [[String]] = []
        for index in 1...10 { rows.append(["\(index)", index % 5 < 3 ? "tea" : "lunch", "Amy", "紅茶 \(index)", "35", ""]) }
        rows.append(["11", "tea", "Ben", "綠茶", "30", ""])
        return TestSupport.table(["id", "group", "orderer", "drink", "price", "time"], rows)
    }

    @Test func everyOrderAppearsOnceAcrossThePersonsPages() throws {
        let site = try PaginationTests.render(Self.orders(), limits: GroupOrderPagesTests.limits)
        let people = site.markdown.map(\.path).filter { $0.hasPrefix("people/") }
        #expect(people == ["people/amy--2.md", "people/amy--3.md", "people/amy.md", "people/ben.md"])
        let pages = ["people/amy.md", "people/amy--2.md", "people/amy--3.md"].map { PaginationTests.text(site, $0) }
        // In the sheet's order of the groups (tea first), each group's orders in sheet order.
        let tea = [1, 2, 5, 6, 7, 10], lunch = [3, 4, 8, 9]
        let found = pages.map { page in (tea + lunch).filter { page.contains("| 紅茶 \($0) |") } }
        #expect(found == [[1, 2, 5, 6], [7, 10, 3, 4], [8, 9]])
        #expect(pages[1].hasPrefix("# Amy, page 2 of 3\n\n[← Amy](amy.md)\n\n5–8 of 10 · [← Previous](amy.md) · [1](amy.md) **2** [3](amy--3.md) · [Next →](amy--3.md)\n"))
        // The totals stay on the first page; each page heads its groups' parts with the group's link.
        #expect(pages[0].contains("## Total") && !pages[1].contains("## Total\n"))
        #expect(pages[1].contains("## [tea](../groups/tea.md)") && pages[1].contains("## [lunch](../groups/lunch.md)"))
        #expect(pages[0].contains("\n1–4 of 10 · **1** [2](amy--2.md) [3](amy--3.md) · [Next →](amy--2.md)\n"))
        #expect(!PaginationTests.text(site, "people/ben.md").contains(" of 1"))
    }
}
