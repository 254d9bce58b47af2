/// How many rows a page lists before it points elsewhere, so that no page grows with the data
/// (no page over about 1 MB: docs/ARCHITECTURE.md, Performance limits). With the bench data an index row of a group is
/// about 400 bytes of HTML and one of a person about 250, a Changes row about 300.
///
/// A test sets smaller limits to paginate a small site; a build always uses `standard`.
package struct PageLimits: Sendable {
    /// Groups, or people, per list page; the index shows the first page of each list.
    var listRows = 500
    /// Rows of each section of a run (deleted, added, changed) on the Changes page and in the feed:
    /// 20 runs of three full sections stay under 1 MB.
    var changeRows = 50
    /// Rejected rows, and warnings, on the Attention page; `orderpress check` lists them all.
    var attentionRows = 500
    /// Bars of a group's chart; the group page's table lists everyone.
    package var chartBars = 100
    /// Orders on a group page, and on each page of its orders after it (`GroupOrderPages`): an order's
    /// row is about 350 bytes of HTML, so 1,000 of them stay well under 1 MB.
    package var groupOrderRows = 1000

    package static let standard = PageLimits()
}
