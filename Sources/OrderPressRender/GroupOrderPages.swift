import OrderPressAggregate
import OrderPressCatalogue
import OrderPressSupport

/// A group's order list, and its per-person totals, split into pages of `size` rows each (no page over
/// about 1 MB, docs/ARCHITECTURE.md, Performance limits; unsplit, a large group's
/// page passed it many times over, its people's totals alone included). The group page keeps its organiser, shop sheet, totals and chart, and shows the first
/// `size` people and orders; the rest go on pages of their own beside it, `groups/<slug>--2`,
/// `groups/<slug>--3`, … (each with the next people, then the next orders), linked by the same pager as
/// the index's lists.
///
/// Named with a double hyphen, not `<slug>-2` as the top-level lists are (`groups-2`): inside
/// `groups/` the name `<slug>-2` is another group's slug ("tea" and "tea 2"), while a slug never
/// holds two hyphens in a row (`Slugger`), so no group page can take these names.
///
/// A person's page is split the same way (`SiteContext.personPages`, in `people/`): a person with
/// thousands of orders (an organiser entering everyone's) made a page of more than 1 MB.
package struct GroupOrderPages: Sendable {
    /// The folder of the pages: `groups`, or `people` for a person's orders.
    var folder = "groups"
    /// The group's slug.
    package let slug: String
    /// How many orders the group has.
    package let count: Int
    /// How many people order in it.
    package var people = 0
    let size: Int

    /// At least one: a group with no orders still has its page.
    package var pageCount: Int { max(1, (count + size - 1) / size, (people + size - 1) / size) }

    /// The pages after the group page, which shows the first.
    var extraPages: ClosedRange<Int>? { pageCount > 1 ? 2...pageCount : nil }

    /// The orders of a page (positions in the group's list), numbered from 1.
    package func rows(ofPage page: Int) -> Range<Int> {
        min((page - 1) * size, count)..<min(page * size, count)
    }

    /// The people of a page (positions in the group's per-person totals), numbered from 1.
    package func peopleRows(ofPage page: Int) -> Range<Int> {
        min((page - 1) * size, people)..<min(page * size, people)
    }

    /// The part of `rows` (positions in a whole list) that falls in a run of `count` rows starting at
    /// `start`, as positions in that run: a group's part of a page of a person's orders.
    static func part(of rows: Range<Int>, from start: Int, count: Int) -> Range<Int> {
        let lower = min(count, max(0, rows.lowerBound - start))
        return lower..<max(lower, min(count, rows.upperBound - start))
    }

    /// The page's file name inside `groups/`, without extension.
    package func name(ofPage page: Int) -> String {
        page == 1 ? slug : "\(slug)--\(page)"
    }

    /// Where a page goes, without extension, relative to the top of the site.
    package func path(ofPage page: Int) -> String {
        "\(folder)/\(name(ofPage: page))"
    }

    /// The pager line in Markdown, links relative to `groups/`; nil when every order fits on the group page.
    func pager(page: Int, labels: Labels) -> String? {
        guard pageCount > 1 else { return nil }
        // The range of orders, or of people on a page past the last orders.
        let (rows, count) = rows(ofPage: page).isEmpty ? (peopleRows(ofPage: page), people) : (rows(ofPage: page), count)
        return ListPages.pager(page: page, pageCount: pageCount, rows: rows, count: count, labels: labels) { name(ofPage: $0) }
    }
}

extension SiteContext {
    /// The pages of a group's orders.
    func orderPages(_ summary: GroupSummary) -> GroupOrderPages {
        GroupOrderPages(slug: groupSlugs[summary.group.name]!, count: summary.orders.count, people: summary.people.count, size: limits.groupOrderRows)
    }

    /// The pages of a person's orders (`GroupOrderPages` in `people/`).
    func personPages(_ person: PersonSummary) -> GroupOrderPages {
        GroupOrderPages(folder: "people", slug: personSlugs[person.key]!, count: person.orders.count, size: limits.groupOrderRows)
    }

    /// "Amy, page 2 of 3", as Markdown and as plain text.
    func personPagesHeading(_ person: PersonSummary, page: Int) -> String {
        input.labels.markdown(
            "group_orders_page", ["group": MarkdownEscaper.escape(person.name), "page": String(page), "pages": String(personPages(person).pageCount)])
    }

    func personPagesTitle(_ person: PersonSummary, page: Int) -> String {
        input.labels.text("group_orders_page", ["group": person.name, "page": String(page), "pages": String(personPages(person).pageCount)])
    }

    /// "週五下午茶: orders, page 2 of 5", as Markdown.
    func orderPagesHeading(_ summary: GroupSummary, page: Int) -> String {
        input.labels.markdown(
            "group_orders_page",
            ["group": MarkdownEscaper.escape(summary.group.name), "page": String(page), "pages": String(orderPages(summary).pageCount)])
    }

    /// "週五下午茶: orders, page 2 of 5", as plain text.
    func orderPagesTitle(_ summary: GroupSummary, page: Int) -> String {
        input.labels.text(
            "group_orders_page", ["group": summary.group.name, "page": String(page), "pages": String(orderPages(summary).pageCount)])
    }
}
