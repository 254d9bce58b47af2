import OrderPressCatalogue

/// A long list (every group, every person) split into pages of `size` rows: the first on the index,
/// the others on top-level pages of their own, `groups-2`, `groups-3`, ….
///
/// Those names cannot collide with a group's or a person's page: slugs only ever name files inside
/// `groups/` and `people/`, and the top level holds nothing but the fixed pages of `PageKind`.
package struct ListPages: Sendable {
    package enum List: String, CaseIterable, Sendable {
        case groups, people
    }

    let list: List
    /// How many rows the whole list has.
    package let count: Int
    let size: Int

    /// At least one: an empty list still has its (empty) first page, the index.
    package var pageCount: Int { max(1, (count + size - 1) / size) }

    /// The pages after the first, which the index does not show.
    var extraPages: ClosedRange<Int>? { pageCount > 1 ? 2...pageCount : nil }

    /// The rows of a page, numbered from 1.
    package func rows(ofPage page: Int) -> Range<Int> {
        min((page - 1) * size, count)..<min(page * size, count)
    }

    /// Where a page goes, without extension, relative to the top of the site.
    package func path(ofPage page: Int) -> String {
        page == 1 ? "index" : "\(list.rawValue)-\(page)"
    }

    static func pagerPages(around page: Int, of pageCount: Int) -> [Int?] {
        var result: [Int?] = []
        for number in 1...pageCount where number == 1 || number == pageCount || abs(number - page) <= 2 {
            if let last = result.last ?? nil, number > last + 1 { result.append(nil) }
            result.append(number)
        }
        return result
    }

    /// The pager line in Markdown, links relative to the top of the site; nil when the list fits on the index.
    /// "1–500 of 10000 · **1** [2](groups-2.md) … · [Next →](groups-2.md)" on the index; on the pages after it
    /// "1001–1500 · [← Previous](groups-2.md) · [1](index.md) [2](groups-2.md) **3** … · [Next →](groups-4.md)",
    /// without the list's length: someone new at the end of the list would otherwise remake every page before
    /// theirs, whose rows stay the same. The index, which says it, is made again by any change.
    func pager(page: Int, labels: Labels) -> String? {
        guard pageCount > 1 else { return nil }
        return Self.pager(
            page: page, pageCount: pageCount, rows: rows(ofPage: page), count: page == 1 ? count : nil, labels: labels
        ) { path(ofPage: $0) }
    }

    /// The pager line of any list split into `pageCount` pages (also a group's orders, `GroupOrderPages`),
    /// `path` giving each page's link without `.md`, relative to the page the line is on; `count`, the
    /// length of the whole list, said when given.
    static func pager(page: Int, pageCount: Int, rows: Range<Int>, count: Int?, labels: Labels, path: (Int) -> String) -> String {
        func link(_ text: String, _ page: Int) -> String { "[\(text)](\(path(page)).md)" }
        let (first, last) = (String(rows.lowerBound + 1), String(rows.upperBound))
        var parts = [
            count.map { labels.markdown("list_range", ["first": first, "last": last, "count": String($0)]) }
                ?? labels.markdown("list_rows", ["first": first, "last": last])
        ]
        if page > 1 { parts.append(link(labels.markdown("previous_page"), page - 1)) }
        parts.append(
            pagerPages(around: page, of: pageCount).map { number in
                guard let number else { return "…" }
                return number == page ? "**\(number)**" : link(String(number), number)
            }.joined(separator: " "))
        if page < pageCount { parts.append(link(labels.markdown("next_page"), page + 1)) }
        return parts.joined(separator: " · ")
    }
}
