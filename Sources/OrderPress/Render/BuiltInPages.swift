/// The built-in templates that render most of a site's bytes (the index, the list, group and
/// person pages, the HTML layout), written out in Swift. swift-mustache looks up every value as `Any` through dynamic
/// casts, which made the templates half of a build's instructions; these give the same bytes as
/// the built-in `.mustache` files (`BuiltInPagesTests` renders sites both ways and compares), and
/// are used only while the template in use is the built-in one. An overridden template, or one
/// edited from a copy, goes through swift-mustache as before.
enum BuiltInPages {
    /// The templates written out here, by name.
    static let kinds: Set<String> = ["index", "groups", "people", "group", "person", "layout"]

    static func index(_ page: PageModels.IndexPage, labels: [String: String]) -> String {
        var out = MarkdownText(labels: labels)
        let pays = page.tracksPayments
        out += "# \(page.title)\n\n\(page.dataAsOf) · [\(out["rates"])](rates.md) · [\(out["attention"])](attention.md)"
        if let count = page.attentionCount { out += " (\(count))" }
        out += "\n\n## \(out["grand_total"])\n\n"
        if page.hasOrders {
            out.totalsTable(page.grandTotals, unpaid: pays ? "outstanding" : nil, bold: true)
        } else {
            out += "\(out["no_orders"])\n"
        }
        out += "\n"
        if let latest = page.latest {
            out += "## \(out["latest_change"])\(out["colon"])\(latest.time)\n\n\(latest.summary)\n\n"
            for line in latest.deleted { out += "- ⚠ ~~\(line)~~\n" }
            if let more = latest.moreDeleted { out += "- ⚠ \(more)\n" }
            out += "\n[\(out["all_changes"])](changes.md)\n\n"
        }
        out.notices(page.notices)
        out += "## \(out["groups"])\n\n"
        if page.hasGroups {
            out.groupTable(page.groups, currencies: page.displayCurrencies, paid: pays)
            if let pager = page.groupPager { out += "\n\(pager)\n" }
        } else {
            out += "\(out["no_groups"])\n"
        }
        out += "\n## \(out["people"])\n\n"
        if page.hasPeople {
            out.peopleTable(page.people, currencies: page.displayCurrencies)
            if let pager = page.peoplePager { out += "\n\(pager)\n" }
        } else {
            out += "\(out["no_people"])\n"
        }
        return out.text
    }

    static func groups(_ page: PageModels.GroupListPage, labels: [String: String]) -> String {
        var out = MarkdownText(labels: labels)
        out += "# \(page.title)\n\n[← \(out["home"])](index.md)\n\n\(page.pager)\n\n"
        out.groupTable(page.groups, currencies: page.displayCurrencies, paid: page.tracksPayments)
        out += "\n\(page.pager)\n"
        return out.text
    }

    static func people(_ page: PageModels.PeopleListPage, labels: [String: String]) -> String {
        var out = MarkdownText(labels: labels)
        out += "# \(page.title)\n\n[← \(out["home"])](index.md)\n\n\(page.pager)\n\n"
        out.peopleTable(page.people, currencies: page.displayCurrencies)
        out += "\n\(page.pager)\n"
        return out.text
    }

    static func group(_ page: PageModels.GroupPage, labels: [String: String]) -> String {
        var out = MarkdownText(labels: labels)
        out += "# \(page.name)\n\n[← \(out["home"])](../index.md)\n\n"
        let colon = out["colon"]
        out += "- \(out["organizer"])\(colon)\(page.organizer)\n"
        out += "- \(out["shop"])\(colon)\(page.shop)\n"
        out += "- \(out["deadline"])\(colon)\(page.deadline)\n"
        out += "- \(out["currency"])\(colon)\(page.currency)\n\n"
        out.notices(page.notices)
        if page.hasRecentDeletions {
            out += "## ⚠ \(page.deletedHeading)\n\n"
            for line in page.recentDeletions { out += "- ~~\(line)~~\n" }
            out += "\n[\(out["all_changes"])](../changes.md)\n\n"
        }
        if page.hasOrders {
            let pays = page.tracksPayments
            out += "## \(out["shop_sheet"])\n\n"
            out += "| \(out["order_line"]) | \(out["unit_price"]) | \(out["line_total"]) |\n|---|--:|--:|\n"
            for row in page.shopSheet { out += "| \(row.text) | \(row.unitPrice) | \(row.lineTotal) |\n" }
            out += "| **\(out["total"])** \(page.itemsOrders) | | **\(page.total)** |\n\n"
            for line in page.totalConverted { out += "- = \(line)\n" }
            if pays { out += "- \(page.outstanding)\n" }
            out += "\n## \(out["per_person"])\n\n"
            out += "| \(out["person"]) | \(page.totalHeading) |"
            if pays { out += " \(out["paid"]) | \(out["owes"]) |" }
            out += " \(out["orders"]) |"
            for currency in page.displayCurrencies { out += " \(currency) |" }
            out += "\n|---|--:|"
            if pays { out += "--:|--:|" }
            out += "--:|"
            for _ in page.displayCurrencies { out += "--:|" }
            out += "\n"
            for person in page.people {
                out += "| [\(person.name)](\(person.link)) | \(person.total) |"
                if pays { out += " \(person.paid) | \(person.outstanding) |" }
                out += " \(person.orders) |"
                for amount in person.converted { out += " \(amount) |" }
                out += "\n"
            }
            out += "\n![\(page.chartTitle)](\(page.chart))\n\n## \(out["orders"])\n\n"
            out += "| \(out["person"]) | \(out["item"]) | \(out["amount"]) |"
            if pays { out += " \(out["paid"]) |" }
            out += " \(out["qty"]) | \(out["unit_price"]) | \(out["time"]) | \(out["note"]) |\n|---|---|--:|"
            if pays { out += ":-:|" }
            out += "--:|--:|---|---|\n"
            for order in page.orders {
                out += "| \(order.person) "
                out.orderCells(order, paid: pays)
            }
        } else {
            out += "\(out["no_orders"])\n"
        }
        return out.text
    }

    static func person(_ page: PageModels.PersonPage, labels: [String: String]) -> String {
        var out = MarkdownText(labels: labels)
        let pays = page.tracksPayments
        out += "# \(page.name)\n\n[← \(out["home"])](../index.md)\n\n"
        if pays {
            out += "## \(out["to_pay"])\n\n"
            for line in page.payments { out += "- **\(line)**\n" }
            if page.settled { out += "\(out["settled"])\n" }
            out += "\n"
        }
        for group in page.groups {
            out += "## [\(group.name)](\(group.link))\n\n"
            out += "| \(out["item"]) | \(out["amount"]) |"
            if pays { out += " \(out["paid"]) |" }
            out += " \(out["qty"]) | \(out["unit_price"]) | \(out["time"]) | \(out["note"]) |\n|---|--:|"
            if pays { out += ":-:|" }
            out += "--:|--:|---|---|\n"
            for order in group.orders { out.orderCells(order, paid: pays) }
            out += "\n\(out["total"])\(out["colon"])\(group.total)"
            for amount in group.converted { out += " · \(amount)" }
            out += "\n\n"
        }
        out += "## \(out["total"])\n\n"
        out.totalsTable(page.totals, unpaid: pays ? "owes" : nil, bold: false)
        return out.text
    }

    /// The HTML page around a page's body; every value but the body escaped as the layout's
    /// content type (`LayoutHTML`) escapes it.
    static func layout(_ layout: PageModels.Layout) -> String {
        func e(_ text: String) -> String { XMLText.escape(text) }
        func label(_ key: String) -> String { e(layout.labels[key] ?? "") }
        let root = e(layout.root)
        let attention = layout.attentionCount.map { " (\(e($0)))" } ?? ""
        return """
            <!doctype html>
            <html lang="\(e(layout.language))">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(layout.pageTitle))</title>
            <link rel="stylesheet" href="\(root)style.css">
            <link rel="alternate" type="application/atom+xml" title="\(e(layout.feedTitle))" href="\(root)feed.xml">
            </head>
            <body>
            <header>
            <nav>
            <a href="\(root)index.html">\(e(layout.siteTitle))</a>
            <a href="\(root)rates.html">\(label("rates"))</a>
            <a href="\(root)attention.html">\(label("attention"))\(attention)</a>
            <a href="\(root)changes.html">\(label("changes"))</a>
            </nav>
            </header>
            <main>
            \(layout.body)
            </main>
            <footer>\(e(layout.dataAsOf)) · \(label("made_by"))</footer>
            </body>
            </html>

            """
    }
}

/// A Markdown page being written, with the labels (already escaped for Markdown) at hand.
private struct MarkdownText {
    var text = ""
    let labels: [String: String]

    init(labels: [String: String]) {
        self.labels = labels
        text.reserveCapacity(4096)
    }

    /// A label, or nothing, as Mustache renders a missing key.
    subscript(_ key: String) -> String { labels[key] ?? "" }

    static func += (page: inout MarkdownText, text: String) { page.text += text }

    mutating func notices(_ notices: [String]) {
        for notice in notices { text += "> \(notice)\n\n" }
    }

    /// Totals per currency and converted, with the unpaid column (headed by the label `unpaid`) when
    /// payments are tracked: the index's grand totals (amounts in bold) and a person's totals.
    mutating func totalsTable(_ rows: [PageModels.TotalRow], unpaid: String?, bold: Bool) {
        text += "| \(self["currency"]) | \(self["total"]) |"
        if let unpaid { text += " \(self[unpaid]) |" }
        text += "\n|---|--:|"
        if unpaid != nil { text += "--:|" }
        text += "\n"
        for row in rows {
            text += bold ? "| \(row.label) | **\(row.amount)** |" : "| \(row.label) | \(row.amount) |"
            if unpaid != nil { text += " \(row.outstanding) |" }
            text += "\n"
        }
    }

    /// The table of groups on the index and the group list pages.
    mutating func groupTable(_ rows: [PageModels.GroupRow], currencies: [String], paid: Bool) {
        text += "| \(self["group"]) | \(self["total"]) |"
        if paid { text += " \(self["outstanding"]) |" }
        text += " \(self["orders"]) | \(self["items"]) | \(self["shop"]) | \(self["organizer"]) | \(self["deadline"]) |"
        for currency in currencies { text += " \(currency) |" }
        text += "\n|---|--:|"
        if paid { text += "--:|" }
        text += "--:|--:|---|---|---|"
        for _ in currencies { text += "--:|" }
        text += "\n"
        for row in rows {
            text += "| [\(row.name)](\(row.link)) | \(row.total) |"
            if paid { text += " \(row.outstanding) |" }
            text += " \(row.orders) | \(row.items) | \(row.shop) | \(row.organizer) | \(row.deadline) |"
            for amount in row.converted { text += " \(amount) |" }
            text += "\n"
        }
    }

    /// The table of people on the index and the people list pages.
    mutating func peopleTable(_ rows: [PageModels.PersonRow], currencies: [String]) {
        text += "| \(self["person"]) | \(self["total"]) | \(self["orders"]) |"
        for currency in currencies { text += " \(currency) |" }
        text += "\n|---|--:|--:|"
        for _ in currencies { text += "--:|" }
        text += "\n"
        for row in rows {
            text += "| [\(row.name)](\(row.link)) | \(row.totals) | \(row.orders) |"
            for amount in row.converted { text += " \(amount) |" }
            text += "\n"
        }
    }

    /// The cells an order line shares on group and person pages, from the item on.
    mutating func orderCells(_ order: PageModels.OrderLine, paid: Bool) {
        text += "| \(order.item) | \(order.amount) |"
        if paid { text += " \(order.paidMark) |" }
        text += " \(order.quantity) | \(order.unitPrice) | \(order.time) | \(order.note) |\n"
    }
}
