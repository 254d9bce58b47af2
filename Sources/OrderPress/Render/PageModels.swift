/// What each template sees. Every string is Markdown, with user text already escaped. A page's model
/// says which template it renders (`/// Template: …`): `scripts/generate-pages.py` compiles that
/// template against these fields (String, Int, Bool, [String: String], arrays, optionals, structs here,
/// the cells of `PageCell.swift` and `PageRows`; one stored property per line), so a field a template
/// shows is added here and in `PageBuilder`. The tables of orders and people hold cells that write
/// themselves (`PageCell`) in rows made while the page is written (`PageRows`), not a String per cell.
enum PageModels {
    /// Template: `index.md.mustache`.
    struct IndexPage {
        var title: String
        var dataAsOf: String
        var attentionCount: String?
        /// The latest run that changed something, deletions listed first.
        var latest: Latest?
        var notices: [String]
        var displayCurrencies: [String]
        var hasGroups: Bool
        var groups: [GroupRow]
        var hasOrders: Bool
        /// Per currency, then "all in" each display currency.
        var grandTotals: [TotalRow]
        var hasPeople: Bool
        var people: [PersonRow]
        var tracksPayments: Bool
        /// When the lists are longer than a page, `groups` and `people` hold their first page and
        /// these link the others: "1–500 of 10000 · 1 [2](groups-2.md) … · [Next →](groups-2.md)".
        var groupPager: String?
        var peoplePager: String?
        /// Finished rounds, newest first, each a link to its archive page (`RoundArchive`).
        var archives: [String] = []
        var hasArchives = false
    }

    /// A page of the list of every group after the index's first one ("groups-2").
    /// Template: `groups.md.mustache`.
    struct GroupListPage {
        /// "Groups, page 2 of 20".
        var title: String
        /// The rates' notices: the rows show converted totals.
        var notices: [String]
        var pager: String
        var displayCurrencies: [String]
        var tracksPayments: Bool
        var groups: [GroupRow]
    }

    /// A page of the list of every person after the index's first one ("people-2").
    /// Template: `people.md.mustache`.
    struct PeopleListPage {
        var title: String
        var notices: [String]
        var pager: String
        var displayCurrencies: [String]
        var people: [PersonRow]
        /// With a `paid` column, the rows say what each person still owes.
        var tracksPayments = false
    }

    struct GroupRow {
        var name: String
        var link: String
        var shop: String
        var organizer: String
        var deadline: String
        var orders: Int
        var items: Int
        var total: String
        var converted: [String]
        var outstanding: String
    }

    struct PersonRow {
        var name: String
        var link: String
        var orders: Int
        var totals: String
        var converted: [String]
        /// What they still owe, per currency ("45 TWD"), shown with a `paid` column.
        var owes = ""
    }

    struct Amount {
        var currency: String
        var amount: String
    }

    /// A line of a totals table: "TWD | 2210 | 310", or "all in USD | 172.12 | 45.10".
    struct TotalRow {
        var label: String
        var amount: String
        var outstanding: String
    }

    struct Latest {
        var time: String
        var summary: String
        var deleted: [String]
        var moreDeleted: String?
    }

    /// "3 × 熟成紅茶 L 半糖 少冰 | 35 | 105".
    struct ShopRow {
        var text: String
        var unitPrice: String
        var lineTotal: String
    }

    /// A line of a group's shop sheet, "3 × 熟成紅茶 L 半糖 少冰 | 35 | 105", read from the summary.
    struct ShopSheetLine {
        var text: ShopLineCell
        var unitPrice: ShopLineCell
        var lineTotal: ShopLineCell
    }

    /// Template: `group.md.mustache`.
    struct GroupPage {
        var name: String
        /// Nil when the sheet leaves them empty (no groups source): the page leaves out the line.
        var organizer: String?
        var shop: String?
        var deadline: String?
        var currency: String
        /// Money (issue 24): how to pay the organiser (escaped), and the fee and discount as the shop
        /// sheet's lines show them ("60"); nil when the group has none.
        var payment: String? = nil
        var fee: String? = nil
        var discount: String? = nil
        /// "⚠ fee '¥300' not counted: …": a fee or discount that could not be read, beside the total.
        var notCounted: [String] = []
        var notices: [String]
        var hasRecentDeletions: Bool
        var deletedHeading: String
        var recentDeletions: [String]
        var hasOrders: Bool
        var shopSheet: PageRows<ShopSheetLine>
        /// "Total (TWD)".
        var totalHeading: String
        /// "(24 items, 21 orders)".
        var itemsOrders: String
        var total: String
        var totalConverted: [String]
        var displayCurrencies: [String]
        var tracksPayments: Bool
        /// "Still to collect: **310 TWD**".
        var outstanding: String
        var people: PageRows<GroupPerson>
        var chart: String
        var chartTitle: String
        /// The first page of the group's orders (`GroupOrderPages`), and the pager to the others, if any.
        var orders: PageRows<OrderLine>
        var ordersPager: String?
        /// Links to this group's finished rounds (`RoundArchive`), or nil when it has none.
        var pastRounds: String? = nil
        /// "2 rows of this group were rejected …", linking the Attention page; nil without any.
        var rejectedNotice: String?
    }

    /// A page of a person's orders after their page ("people/<slug>--2").
    /// Template: `person_orders.md.mustache`.
    struct PersonOrdersPage {
        /// "Amy, page 2 of 3".
        var title: String
        var name: String
        var personLink: String
        var pager: String
        var tracksPayments: Bool
        var groups: [PersonGroup]
    }

    /// A page of a group's people and orders after the group page ("groups/<slug>--2").
    /// Template: `group_orders.md.mustache`.
    struct GroupOrdersPage {
        /// "週五下午茶, page 2 of 5".
        var title: String
        var name: String
        var groupLink: String
        var pager: String
        var tracksPayments: Bool
        /// "Total (TWD)".
        var totalHeading: String
        var displayCurrencies: [String]
        /// The next people's totals and the next orders; either may be empty.
        var hasPeople: Bool
        var people: PageRows<GroupPerson>
        var hasOrders: Bool
        var orders: PageRows<OrderLine>
    }

    /// A person's line in a group's per-person totals, read from the summary.
    struct GroupPerson {
        var name: TextCell
        var link: LinkCell
        var orders: Int
        var total: MoneyCell
        var converted: [ConvertedCell]
        var paid: MoneyCell
        var outstanding: MoneyCell
    }

    /// One order, read where it is stored (`OrderCell`); no sheet row number, so that deleting a row
    /// leaves every other line as it was.
    struct OrderLine {
        var person: OrderCell
        /// The item with its options: "熟成紅茶 L 半糖 少冰".
        var item: OrderCell
        var paidMark: String
        var quantity: Int
        var unitPrice: OrderCell
        var amount: OrderCell
        var time: OrderCell
        var note: OrderCell
    }

    /// Template: `person.md.mustache`.
    struct PersonPage {
        var name: String
        /// The rates' notices (cached, stale, missing): the page shows converted totals.
        var notices: [String]
        /// The groups of the first page of the person's orders, and the pager to the others, if any.
        var groups: [PersonGroup]
        var ordersPager: String?
        var totals: [TotalRow]
        /// False for someone known only from rejected rows: no totals table with no rows.
        var hasTotals: Bool
        var tracksPayments: Bool
        /// "155 TWD to 王小明 for 週五下午茶", one per group with something unpaid, with how to pay.
        var payments: [PaymentLine]
        var settled: Bool
        /// Their rejected rows (`PageBuilder.rejectedLines`).
        var hasRejected: Bool
        var rejected: [String]
        /// "Owed to you": what others still owe them as the organiser of finished rounds (`RoundPeople.owedTo`).
        var hasOwed = false
        var owed: [OwedLine] = []
        /// "45 TWD + 3 USD": all of it, per currency.
        var owedTotal = ""
        /// The finished rounds they ordered in or organised, newest first, each linked to its archive.
        var hasRounds = false
        var rounds: [String] = []
    }

    /// One debt carried from a finished round, on its organiser's page: who owes it (linked to their page),
    /// how much, and the round (linked to its archive).
    struct OwedLine {
        var name: String
        var link: String
        var amount: String
        var round: String
        var archive: String
    }

    struct PersonGroup {
        var name: String
        var link: String
        var orders: PageRows<OrderLine>
        /// "155 TWD", and "68.79 USD" in each other display currency.
        var total: MoneyCell
        var converted: [ConvertedCell]
        /// "Fee share: 15 TWD · Discount share: -8 TWD"; nil without either.
        var shares: String? = nil
    }

    /// A line of what a person is to pay: "155 TWD to 王小明 for 週五下午茶", and the group's `payment`
    /// column beside it ("LINE Pay: …", escaped), if any.
    struct PaymentLine {
        var text: String
        var payment: String?
    }

    /// Template: `rates.md.mustache`.
    struct RatesPage {
        var notices: [String]
        var available: Bool
        var source: String
        var fromCache: Bool
        var base: String
        var asOf: String
        /// "stale: older than 48 hours", or nil.
        var stale: String?
        var unitsPer: String
        var rates: [Amount]
        var inDisplay: String
        var hasConversions: Bool
        var conversions: [Amount]
    }

    /// Template: `attention.md.mustache`.
    struct AttentionPage {
        /// The rates' notices, which every page carries (docs/guarantees.md).
        var notices: [String]
        var hasRejected: Bool
        var rejected: [RejectedLine]
        var hasWarnings: Bool
        var warnings: [WarningLine]
        /// "and 12 more: run `orderpress check` to list them all.", past the page's limit.
        var moreRejected: String?
        var moreWarnings: String?
    }

    struct RejectedLine {
        /// Who and what first, so that a phone shows them before the values scroll out of view.
        var who: String
        var what: String
        /// "李美玲 · 珍珠奶茶": one cell that wraps on a phone, beside the reasons (which wrap too).
        var whoWhat: String
        var row: Int
        var values: String
        var reasons: String
    }

    struct WarningLine {
        var row: String
        var message: String
    }

    /// Template: `changes.md.mustache`.
    struct ChangesPage {
        /// The rates' notices, which every page carries (docs/guarantees.md).
        var notices: [String]
        var runs: [Run]
    }

    struct Run {
        var time: String
        var summary: String
        var hasDeleted: Bool
        var deletedCount: Int
        var deleted: [ChangeRow]
        var hasAdded: Bool
        var addedCount: Int
        var added: [ChangeRow]
        var hasChanged: Bool
        var changedCount: Int
        var changed: [ChangedRow]
        /// Orders whose row is now rejected, with why.
        var hasNoLongerCounted: Bool
        var noLongerCountedCount: Int
        var noLongerCounted: [CountedRow]
        /// Rejected rows that are now orders.
        var hasNowCounted: Bool
        var nowCountedCount: Int
        var nowCounted: [CountedRow]
        /// "and 12 more deleted", past the page's limit of rows per section.
        var moreDeleted: String?
        var moreAdded: String?
        var moreChanged: String?
        var moreNoLongerCounted: String?
        var moreNowCounted: String?
        /// "Round closed: 週五下午茶, 4 orders archived", linked to the archive page: not deletions.
        var roundsClosed: [String] = []
        var hasRoundsClosed = false
    }

    struct ChangeRow {
        var row: Int
        var who: String
        /// "1 × 熟成紅茶 L 半糖 少冰".
        var what: String
        var group: String
        var amount: String
        var firstSeen: String
    }

    /// An order that turned rejected (its amount as it was counted, and the reasons) or valid (its amount now).
    struct CountedRow {
        var row: Int
        var who: String
        var what: String
        var group: String
        var amount: String
        var reasons: String
    }

    struct ChangedRow {
        var row: Int
        var who: String
        var what: String
        var group: String
        var fields: String
    }

    /// What the HTML layout sees; plain text, escaped for HTML by the template engine.
    /// Template: `layout.html.mustache`.
    struct Layout {
        var language: String
        /// Plain labels, escaped for HTML by the template engine.
        var labels: [String: String]
        var feedTitle: String
        var pageTitle: String
        var siteTitle: String
        var root: String
        var attentionCount: String?
        var dataAsOf: String
        var body: String
        /// `<meta name="robots" content="noindex">`: the pages list names and debts (unless `indexable = true`).
        var noindex: Bool = true
    }

    /// A finished round's final state (`RoundArchive`).
    /// Template: `archive.md.mustache`.
    struct ArchivePage {
        /// "週五下午茶 · 2026-11-21".
        var title: String
        var group: String
        /// The group's page, while the group is still in the sheet.
        var groupLink: String?
        /// "The final state of this round, kept when …".
        var closed: String
        /// Nil when the group had none: the page leaves out the line.
        var organizer: String?
        var shop: String?
        var deadline: String?
        /// The group's `payment` when the round closed.
        var payment: String?
        var shopSheet: [ShopRow]
        /// The group's fee and discount as the shop sheet's last lines ("60 TWD"), nil without.
        var fee: String?
        var discount: String?
        var total: String
        var tracksPayments: Bool
        var people: [ArchivePerson]
    }

    struct ArchivePerson {
        var name: String
        /// The person's page, while they have one.
        var link: String?
        var total: String
        var paid: String
        var outstanding: String
    }

    /// The page an earlier build made for a spelling now merged into another person's (`PageSlugs.aliases`):
    /// it points to theirs, so that no link to it dies.
    /// Template: `moved.md.mustache`.
    struct MovedPage {
        var name: String
        var notice: String
        /// The person's page, beside this one.
        var link: String
    }

    /// The page of a person or group whose orders were all deleted, kept for `Tombstones.days` days.
    /// Template: `tombstone.md.mustache`.
    struct TombstonePage {
        var name: String
        /// "Every order on this page was deleted. …until 2026-12-21 18:00 …".
        var notice: String
        /// "2026-11-21 19:00 — Ben: 1 × 熟成紅茶 (35 TWD) · 週五下午茶", newest first: this page's part.
        var deleted: [String]
        /// The pager to the list's other pages (`GroupOrderPages`); nil when it fits on one.
        var pager: String?
    }
}
