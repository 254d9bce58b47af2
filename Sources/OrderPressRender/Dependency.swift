import OrderPressAggregate

/// What a planned file is made from, as render declares it (`PlannedFile.dependsOn`,
/// `PageKind.Page.dependsOn`). The reuse layer turns a declaration into a key (`PageKeys.key(of:)`)
/// and keeps the published file when the last build recorded the same key for it.
///
/// A declaration must cover *everything* the file shows: a case names the values the file is a
/// function of, and `PageKeys` digests every field of them that any page of that kind reads, with the
/// site-wide settings (`PageKeys`' site digest). A file whose inputs no case covers declares nothing
/// (nil), and is always made: publish then compares its bytes, so leaving a declaration out costs time,
/// never correctness. `PageKeysTests` renders generated sites twice, changing one thing at a time,
/// and requires kept files to equal a build from scratch.
///
/// A page's HTML is not declared apart: it is made from the page's Markdown, its place and title and the
/// layout every page shares (`PageKeys.html(ofMarkdown:page:title:)`), keyed by the Markdown's key when
/// the Markdown declares one and by its bytes otherwise, so that unchanged Markdown never runs cmark-gfm
/// again.
package enum Dependency: Sendable {
    /// A group's page: the group, every field of its orders, its people's names and slugs, its
    /// deletions in the latest run.
    case group(GroupSummary)
    /// Page `page` (from 2) of a group's people and orders.
    case groupOrders(GroupSummary, page: Int, of: GroupOrderPages)
    /// A person's page: the person, their orders, the groups they ordered in. `at`: their place in
    /// `aggregation.people`, where the digest made up front is found.
    case person(PersonSummary, at: Int)
    /// Page `page` (from 2) of a person's orders.
    case personOrders(PersonSummary, at: Int, page: Int, of: GroupOrderPages)
    /// Page `page` (from 2) of the list of every group or every person.
    case listPage(ListPages.List, page: Int, of: ListPages)
    /// A group's chart: what its page shows of its people's totals.
    case chart(GroupSummary)
    /// The page of someone known only from rejected rows: the rows (in the site digest) and the groups.
    case rejectedOnly(key: String, name: String)
}
