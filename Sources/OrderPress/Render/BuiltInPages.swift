import Foundation

/// The group and person pages of the built-in templates, written out in Swift from the summaries.
/// Every other built-in page, and the layout, is compiled from its template (`GeneratedPages`,
/// `scripts/generate-pages.py`); these four are still written by hand, because their view models
/// held a string for every cell of every order, made and copied again into the page, which cost
/// more than the rest of the page together. `BuiltInPagesTests` renders sites through these and
/// through swift-mustache on the same templates and requires the same bytes; they are used only
/// while the template in use is the built-in one.
enum BuiltInPages {
    /// The templates with a Swift writer, compiled or written here, by name.
    static let kinds: Set<String> = GeneratedPages.templates.union(["layout"])

    /// `group.md.mustache` on `PageBuilder.groupPage(summary)`.
    static func group(_ summary: GroupSummary, builder: PageBuilder) -> Data {
        let context = builder.context
        let (group, currency) = (summary.group, summary.currency)
        var out = MarkdownPageWriter(labels: context.markdownLabels, builder: builder)
        out += "# "
        out.escaped(group.name)
        out += "\n\n[← \(out["home"])](../index.md)\n\n"
        let colon = out["colon"]
        out += "- \(out["organizer"])\(colon)"
        out.escaped(group.organizer)
        out += "\n- \(out["shop"])\(colon)"
        out.escaped(group.shop)
        out += "\n- \(out["deadline"])\(colon)\(builder.deadline(group))\n"
        out += "- \(out["currency"])\(colon)\(currency)\n"
        if let rounds = builder.pastRounds(group.name) { out += "- \(out["past_rounds"])\(colon)\(rounds)\n" }
        // Money (issue 24): how to pay the organiser.
        if !group.payment.isEmpty {
            out += "- \(out["payment"])\(colon)"
            out.escaped(group.payment)
            out += "\n"
        }
        out += "\n"
        out.notices(builder.rateNotices)
        if let notice = builder.rejectedNotice(ofGroup: group.name) { out += "> ⚠ \(notice) [\(out["see_why"])](../attention.md)\n\n" }
        if let deletions = context.latestDeletions[group.name], !deletions.isEmpty {
            out += "## ⚠ \(builder.deletedHeading)\n\n"
            for record in deletions { out += "- ~~\(builder.deletionLine(record))~~\n" }
            out += "\n[\(out["all_changes"])](../changes.md)\n\n"
        }
        guard !summary.orders.isEmpty else {
            out += "\(out["no_orders"])\n"
            return out.take()
        }
        let pays = context.aggregation.tracksPayments
        out += "## \(out["shop_sheet"])\n\n"
        out += "| \(out["order_line"]) | \(out["unit_price"]) | \(out["line_total"]) |\n|---|--:|--:|\n"
        for line in summary.shopSheet {
            // `ShopLine.text`, escaped: escaping goes scalar by scalar, so part by part.
            out += "| "
            out.escaped("\(line.quantity) ×")
            out += " "
            out.escaped(line.item)
            for option in line.options {
                out += " "
                out.escaped(option)
            }
            out += " | "
            out.price(line.unitPrice, currency)
            out += " | "
            out.amount(of: line.unitPrice, times: line.quantity, multiplied: true, currency) { line.lineTotal }
            out += " |\n"
        }
        // Money (issue 24): the fee and the discount, under the shop's lines and in the total.
        if summary.fee != 0 {
            out += "| \(out["fee"]) | | "
            out.amount(summary.fee, currency)
            out += " |\n"
        }
        if summary.discount != 0 {
            out += "| \(out["discount"]) | | -"
            out.amount(summary.discount, currency)
            out += " |\n"
        }
        out += "| **\(out["total"])** \(builder.itemsOrders(summary)) | | **"
        out.amount(summary.total, currency)
        out += " \(currency)** |\n\n"
        for line in builder.otherCurrencies(summary.converted, besides: currency) { out += "- = \(line)\n" }
        if pays { out += "- \(builder.outstanding(summary))\n" }
        out += "\n## \(out["per_person"])\n\n"
        let pages = context.orderPages(summary)
        out.groupPeople(summary, rows: pages.peopleRows(ofPage: 1), builder: builder)
        out += "\n![\(out["per_person"])](\(context.groupSlugs[group.name]!).svg)\n\n## \(out["orders"])\n\n"
        out.groupOrders(summary, rows: pages.rows(ofPage: 1), paid: pays)
        if let pager = pages.pager(page: 1, labels: context.labels) { out += "\n\(pager)\n" }
        return out.take()
    }

    /// `person_orders.md.mustache` on `PageBuilder.personOrdersPage(person, page:)`.
    static func personOrders(_ person: PersonSummary, page: Int, builder: PageBuilder) -> Data {
        let context = builder.context
        var out = MarkdownPageWriter(labels: context.markdownLabels, builder: builder)
        let pages = context.personPages(person)
        let pager = pages.pager(page: page, labels: context.labels) ?? ""
        out += "# \(context.personPagesHeading(person, page: page))\n\n[← "
        out.escaped(person.name)
        out += "](\(pages.name(ofPage: 1)).md)\n\n\(pager)\n\n"
        let shares = person.groupShares.compactMap { share in context.groupPlace(share.group).map { (place: $0, share: share) } }
            .sorted { $0.place < $1.place }
        out.personSections(person, shares: shares, rows: pages.rows(ofPage: page), builder: builder)
        out += "\(pager)\n"
        return out.take()
    }

    /// `group_orders.md.mustache` on `PageBuilder.groupOrdersPage(summary, page:)`.
    static func groupOrders(_ summary: GroupSummary, page: Int, builder: PageBuilder) -> Data {
        let context = builder.context
        var out = MarkdownPageWriter(labels: context.markdownLabels, builder: builder)
        let pages = context.orderPages(summary)
        let pager = pages.pager(page: page, labels: context.labels) ?? ""
        out += "# \(context.orderPagesHeading(summary, page: page))\n\n[← "
        out.escaped(summary.group.name)
        out += "](\(pages.name(ofPage: 1)).md)\n\n\(pager)\n\n"
        if !pages.peopleRows(ofPage: page).isEmpty {
            out += "## \(out["per_person"])\n\n"
            out.groupPeople(summary, rows: pages.peopleRows(ofPage: page), builder: builder)
            out += "\n"
        }
        if !pages.rows(ofPage: page).isEmpty {
            out += "## \(out["orders"])\n\n"
            out.groupOrders(summary, rows: pages.rows(ofPage: page), paid: context.aggregation.tracksPayments)
            out += "\n"
        }
        out += "\(pager)\n"
        return out.take()
    }

    /// `person.md.mustache` on `PageBuilder.personPage(person)`.
    static func person(_ person: PersonSummary, builder: PageBuilder) -> Data {
        let context = builder.context
        var out = MarkdownPageWriter(labels: context.markdownLabels, builder: builder)
        let pays = context.aggregation.tracksPayments
        out += "# "
        out.escaped(person.name)
        out += "\n\n[← \(out["home"])](../index.md)\n\n"
        out.notices(builder.rateNotices)
        // The person's groups in the sheet's order, as `SiteContext.groups(named:)` lists them.
        let shares = person.groupShares.compactMap { share in context.groupPlace(share.group).map { (place: $0, share: share) } }
            .sorted { $0.place < $1.place }
        if pays {
            out += "## \(out["to_pay"])\n\n"
            var settled = true
            for (place, share) in shares {
                guard let owed = share.owed else { continue }
                settled = false
                out += "- **"
                out += builder.payment(of: owed, toGroupAt: place)
                out += "**"
                // Money (issue 24): how to pay, beside what to pay.
                if let details = builder.paymentDetails(ofGroupAt: place) { out += " · \(out["payment"])\(out["colon"])\(details)" }
                out += "\n"
            }
            if settled { out += "\(out["settled"])\n" }
            out += "\n"
        }
        let rejected = builder.rejectedLines(ofPerson: person.key)
        if !rejected.isEmpty {
            out += "## ⚠ \(out["not_counted"])\n\n"
            for line in rejected { out += "- \(line)\n" }
            out += "\n"
        }
        let pages = context.personPages(person)
        out.personSections(person, shares: shares, rows: pages.pageCount == 1 ? nil : pages.rows(ofPage: 1), builder: builder)
        if let pager = pages.pager(page: 1, labels: context.labels) { out += "\(pager)\n\n" }
        // `totalsTable` on `PageBuilder.totalRows(of: person)`, written from the shares.
        out.append(builder.builtIn.personTotalsHead)
        for share in person.currencyShares.sorted(by: { $0.currency < $1.currency }) {
            out += "| "
            out += share.currency
            out += " | "
            out.amount(share.total, share.currency)
            out += " |"
            if pays {
                out += " "
                out.amount(share.outstanding, share.currency)
                out += " |"
            }
            out += "\n"
        }
        for (total, unpaid) in zip(person.converted, person.convertedOutstanding) {
            out += "| "
            out += builder.allIn(total.currency)
            out += " | "
            out.amount(total)
            out += " |"
            if pays {
                out += " "
                out.amount(unpaid)
                out += " |"
            }
            out += "\n"
        }
        return out.take()
    }

    /// What the built-in templates write the same on every page of a build, made once.
    struct Shared: Sendable {
        /// The layout around a page at the top of the site and around one a folder down.
        let topLayout: Layout
        let nestedLayout: Layout
        /// The head of the table of a person's orders in a group, under each group on their page.
        let personOrdersHead: [UInt8]
        /// "Total: ", before a person's total in a group.
        let personTotal: [UInt8]
        /// By place in `data.groups`, the heading of the group's part of a person's page, linking the group.
        let personGroupHeadings: [[UInt8]]
        /// The heading and the head of the table of a person's totals.
        let personTotalsHead: [UInt8]

        init(_ context: SiteContext) {
            topLayout = Layout(context.layoutModel(root: ""))
            nestedLayout = Layout(context.layoutModel(root: "../"))
            let pays = context.aggregation.tracksPayments
            var out = MarkdownPageWriter(labels: context.markdownLabels)
            out += "| \(out["item"]) | \(out["amount"]) |"
            if pays { out += " \(out["paid"]) |" }
            out += " \(out["qty"]) | \(out["unit_price"]) | \(out["time"]) | \(out["note"]) |\n|---|--:|"
            if pays { out += ":-:|" }
            out += "--:|--:|---|---|\n"
            personTotal = Array("\n\(out["total"])\(out["colon"])".utf8)
            personOrdersHead = Array(out.take())
            personGroupHeadings = context.data.groups.map { group in
                var out = MarkdownPageWriter(labels: [:])
                out += "## ["
                out.escaped(group.name)
                out += "](../groups/\(context.groupSlugs[group.name]!).md)\n\n"
                return Array(out.take())
            }
            out += "## \(out["total"])\n\n"
            out.totalsTable([], unpaid: pays ? "owes" : nil, bold: false)
            personTotalsHead = Array(out.take())
        }
    }

    /// The compiled `layout.html.mustache` (`GeneratedPages.layout`), cut once per build into runs of
    /// bytes around the two values that change from page to page, its title and its body. The layout
    /// branches only on its other values, never on a title's or body's text, so writing the page's
    /// own title and body where markers stood gives the bytes the whole layout would.
    struct Layout: Sendable {
        private enum Part: Sendable {
            case bytes([UInt8])
            case title(escaped: Bool)
            case body(escaped: Bool)
        }

        private let model: PageModels.Layout
        /// Nil when the markers could not be told from the layout's values: each page is written whole.
        private let parts: [Part]?

        /// Private-use characters, which no escaping changes, with a `&` that HTML escaping does.
        private static let marks = (title: "\u{E000}&title\u{E000}", body: "\u{E000}&body\u{E000}")

        /// From the layout's values; the model's page title and body are not used.
        init(_ layout: PageModels.Layout) {
            model = layout
            parts = Self.parts(layout)
        }

        private static func parts(_ layout: PageModels.Layout) -> [Part]? {
            let values = [layout.language, layout.feedTitle, layout.siteTitle, layout.root, layout.attentionCount ?? "", layout.dataAsOf]
                + Array(layout.labels.keys) + Array(layout.labels.values)
            guard !values.contains(where: { $0.unicodeScalars.contains("\u{E000}") }) else { return nil }
            var probe = layout
            (probe.pageTitle, probe.body) = (marks.title, marks.body)
            var out = PageBytes()
            GeneratedPages.layout(probe, into: &out)
            let bytes = [UInt8](out.take())
            let found: [([UInt8], Part)] = [
                (Array(marks.title.utf8), .title(escaped: false)), (Array(XMLEscaper.escape(marks.title).utf8), .title(escaped: true)),
                (Array(marks.body.utf8), .body(escaped: false)), (Array(XMLEscaper.escape(marks.body).utf8), .body(escaped: true)),
            ]
            var parts: [Part] = []
            var (start, index) = (0, 0)
            while index < bytes.count {
                if bytes[index] == 0xEE, let (mark, part) = found.first(where: { bytes[index...].starts(with: $0.0) }) {
                    parts.append(.bytes(Array(bytes[start..<index])))
                    parts.append(part)
                    index += mark.count
                    start = index
                } else {
                    index += 1
                }
            }
            parts.append(.bytes(Array(bytes[start...])))
            return parts
        }

        /// The page: `body` is cmark-gfm's HTML, as it made it (from valid UTF-8, so valid UTF-8).
        func html(title: String, body: Data) -> Data {
            guard let parts else {
                var page = model
                (page.pageTitle, page.body) = (title, String(decoding: body, as: UTF8.self))
                var out = PageBytes()
                GeneratedPages.layout(page, into: &out)
                return out.take()
            }
            var html = Data(capacity: body.count + 1024)
            for part in parts {
                switch part {
                case .bytes(let bytes): html.append(contentsOf: bytes)
                case .title(let escaped):
                    var title = escaped ? XMLEscaper.escape(title) : title
                    title.withUTF8 { html.append($0) }
                case .body(false): html.append(body)
                case .body(true):
                    var body = XMLEscaper.escape(String(decoding: body, as: UTF8.self))
                    body.withUTF8 { html.append($0) }
                }
            }
            return html
        }
    }
}

/// A Markdown page being written as UTF-8, with the labels (already escaped for Markdown) at hand.
private struct MarkdownPageWriter: ~Copyable {
    /// Handed to `Data` without a copy when the page is done.
    private var buffer = ByteBuffer()
    let labels: [String: String]
    /// For amounts and order lines, on group and person pages.
    private let builder: PageBuilder?
    /// Minor units by currency, for the few currencies of a page.
    private var minorUnits: [(currency: String, digits: Int)] = []
    /// Amounts already written on this page: a group page shows the same few prices on line after line,
    /// and each costs a `Decimal` multiplication and `DecimalText.fixed`.
    private var amounts: [AmountKey: String] = [:]

    init(labels: [String: String], builder: PageBuilder? = nil) {
        self.labels = labels
        self.builder = builder
        thousands = builder?.context.money.thousandsSeparator ?? ""
    }

    /// Between each three digits of an amount's whole part (`MoneyFormat.thousandsSeparator`), read once per page.
    private let thousands: String

    /// `text` grouped by thousands as the page's money format says.
    private func grouped(_ text: String) -> String {
        thousands.isEmpty ? text : DecimalText.grouped(text, separator: thousands)
    }

    /// The page, which leaves this empty.
    mutating func take() -> Data { buffer.take() }

    /// A label, or nothing, as Mustache renders a missing key.
    subscript(_ key: String) -> String { labels[key] ?? "" }

    static func += (page: inout MarkdownPageWriter, text: String) { page.append(text) }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(UnsafeRawBufferPointer($0)) }
    }

    mutating func append(_ number: Int) { DecimalText.withInteger(number) { buffer.append(UnsafeRawBufferPointer($0)) } }

    mutating func append(_ bytes: [UInt8]) { buffer.append(bytes) }

    /// User text, escaped for Markdown.
    mutating func escaped(_ text: String) {
        MarkdownEscaper.withEscaped(text) { buffer.append(UnsafeRawBufferPointer($0)) }
    }

    private mutating func digits(_ currency: String) -> Int {
        if let known = minorUnits.first(where: { $0.currency == currency }) { return known.digits }
        let digits = builder!.context.money.minorUnits(currency)
        minorUnits.append((currency, digits))
        return digits
    }

    /// A price as `MoneyFormat.display` writes it, remembered on this page.
    mutating func price(_ price: Decimal, _ currency: String) {
        amount(of: price, times: 1, multiplied: false, currency) { price }
    }

    /// `value()` as `MoneyFormat.display` writes it, remembered on this page: `price` × `quantity`,
    /// multiplied or not as `value` does (`multiplied`), which with the minor units decides the text.
    mutating func amount(
        of price: Decimal, times quantity: Int, multiplied: Bool, _ currency: String, _ value: () -> Decimal
    ) {
        let digits = digits(currency)
        let key = AmountKey(price, quantity: quantity, multiplied: multiplied, digits: digits)
        if let key, let text = amounts[key] { return append(text) }
        let text = grouped(DecimalText.fixed(multiplied ? value() : price, digits: digits))
        if let key { amounts[key] = text }
        append(text)
    }

    /// An amount that is not a price: written, not remembered.
    mutating func amount(_ value: Decimal, _ currency: String) {
        append(grouped(DecimalText.fixed(value, digits: digits(currency))))
    }

    /// A converted amount, or "n/a".
    mutating func amount(_ converted: ConvertedAmount) {
        append(builder!.context.money.display(optional: converted, digits: digits(converted.currency)) ?? "n/a")
    }

    /// A price's bits, how many and whether multiplied, and the minor units: equal keys are equal
    /// texts, since equal bits are equal `Decimal`s. Equal amounts may differ in bits (35 and 35.0):
    /// a look-up can miss, never mistake.
    private struct AmountKey: Hashable {
        let low: UInt64
        let high: UInt64
        let rest: UInt32
        let quantity: Int
        let multiplied: Bool
        let digits: Int

        /// Nil where `Decimal` is not the 20 bytes read here.
        init?(_ price: Decimal, quantity: Int, multiplied: Bool, digits: Int) {
            guard MemoryLayout<Decimal>.size == 20 else { return nil }
            (low, high, rest) = withUnsafeBytes(of: price) {
                ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                 $0.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
            }
            (self.quantity, self.multiplied, self.digits) = (quantity, multiplied, digits)
        }
    }

    mutating func notices(_ notices: [String]) {
        for notice in notices { self += "> \(notice)\n\n" }
    }

    /// A person's orders by group, each group with its heading, table and total, in the sheet's order of
    /// the groups: all of them, or those at `rows` in that order (a page of `SiteContext.personPages`).
    mutating func personSections(
        _ person: PersonSummary, shares: [(place: Int, share: PersonSummary.GroupShare)], rows: Range<Int>?, builder: PageBuilder
    ) {
        let context = builder.context
        let pays = context.aggregation.tracksPayments
        // Each order's group, found in one pass over the orders: its place in the sheet, as the shares'.
        let orders = person.orders
        let places = orders.indices.map { index in orders.withOrder(at: index) { context.groupPlace($0.pointee.group) } }
        var position = 0
        for (place, share) in shares {
            let indices = orders.indices.filter { places[$0] == place }
            defer { position += indices.count }
            let shown = rows.map { indices[GroupOrderPages.part(of: $0, from: position, count: indices.count)] } ?? indices[...]
            guard !shown.isEmpty else { continue }
            let group = context.data.groups[place]
            let settled = builder.settledKey(of: group)
            append(builder.builtIn.personGroupHeadings[place])
            append(builder.builtIn.personOrdersHead)
            for index in shown {
                orders.withOrder(at: index) { orderCells($0, paid: pays, shortened: false, settled: settled) }
            }
            // Money (issue 24): their parts of the group's fee and discount.
            if let shares = builder.sharesLine(share, currency: group.currency) { self += "\n\(shares)\n" }
            append(builder.builtIn.personTotal)
            amount(share.total, group.currency)
            self += " "
            self += group.currency
            for converted in share.converted where converted.currency != group.currency {
                self += " · "
                amount(converted)
                self += " "
                self += converted.currency
            }
            self += "\n\n"
        }
    }

    /// The table of the per-person totals of a group's people at `rows` (positions in its list), as the
    /// group page and the pages of its orders after it show them.
    mutating func groupPeople(_ summary: GroupSummary, rows: Range<Int>, builder: PageBuilder) {
        let context = builder.context
        let (currency, pays) = (summary.currency, context.aggregation.tracksPayments)
        let displayCurrencies = context.configuration.displayCurrencies
        let paidHead = pays ? " \(self["paid"]) | \(self["owes"]) |" : ""
        tableHead(
            "| \(self["person"]) | \(context.labels.markdown("total_in", ["currency": currency])) |\(paidHead) \(self["orders"]) |",
            pays ? "|---|--:|--:|--:|--:|" : "|---|--:|--:|", currencies: displayCurrencies)
        for person in summary.people[rows] {
            self += "| ["
            escaped(Text.shortened(person.name, to: TextLimits.person))
            self += "](../people/"
            self += context.personSlugs[person.key]!
            self += ".md) | "
            amount(person.total, currency)
            self += " |"
            if pays {
                self += " "
                amount(person.paid, currency)
                self += " | "
                amount(person.outstanding, currency)
                self += " |"
            }
            self += " "
            append(person.orders)
            self += " |"
            for converted in person.converted {
                self += " "
                amount(converted)
                self += " |"
            }
            self += "\n"
        }
    }

    /// The table of a group's orders at `rows` (positions in its list), as the group page and the pages
    /// of its orders after it show them.
    mutating func groupOrders(_ summary: GroupSummary, rows: Range<Int>, paid pays: Bool) {
        self += "| \(self["person"]) | \(self["item"]) | \(self["amount"]) |"
        if pays { self += " \(self["paid"]) |" }
        self += " \(self["qty"]) | \(self["unit_price"]) | \(self["time"]) | \(self["note"]) |\n|---|---|--:|"
        if pays { self += ":-:|" }
        self += "--:|--:|---|---|\n"
        // Each order read in place, not copied (see `OrderList.withOrder`).
        let orders = summary.orders
        let settled = builder!.settledKey(of: summary.group)
        for index in rows {
            orders.withOrder(at: index) { order in
                self += "| "
                escaped(Text.shortened(order.pointee.person, to: TextLimits.person))
                self += " "
                orderCells(order, paid: pays, shortened: true, settled: settled)
            }
        }
    }

    /// Totals per currency and converted, with the unpaid column (headed by the label `unpaid`) when
    /// payments are tracked: the index's grand totals (amounts in bold) and a person's totals.
    mutating func totalsTable(_ rows: [PageModels.TotalRow], unpaid: String?, bold: Bool) {
        self += "| \(self["currency"]) | \(self["total"]) |"
        if let unpaid { self += " \(self[unpaid]) |" }
        self += "\n|---|--:|"
        if unpaid != nil { self += "--:|" }
        self += "\n"
        for row in rows {
            self += bold ? "| \(row.label) | **\(row.amount)** |" : "| \(row.label) | \(row.amount) |"
            if unpaid != nil { self += " \(row.outstanding) |" }
            self += "\n"
        }
    }

    /// A table's head: `cells` ("| Person | Total |"), a column for each display currency, then the
    /// alignment row, `alignment` ("|---|--:|") and the currencies' columns.
    mutating func tableHead(_ cells: String, _ alignment: String, currencies: [String]) {
        self += cells
        for currency in currencies { self += " \(currency) |" }
        self += "\n\(alignment)"
        for _ in currencies { self += "--:|" }
        self += "\n"
    }

    /// The cells an order line shares on group and person pages, from the item on, as
    /// `PageBuilder.orderLine` makes them: on group pages (`shortened`) over-long text is cut. The
    /// order is read where it is stored (`OrderList.withOrder`): passed as a value, it was copied.
    /// `settled`: the key of the group's settled organiser, whose orders count as paid.
    mutating func orderCells(_ order: UnsafePointer<Order>, paid: Bool, shortened: Bool, settled: String? = nil) {
        func text(_ value: String, _ limit: Int) { escaped(shortened ? Text.shortened(value, to: limit) : value) }
        self += "| "
        text(order.pointee.item, TextLimits.item)
        for option in order.pointee.options {
            self += " "
            text(option, TextLimits.option)
        }
        self += " | "
        amount(of: order.pointee.unitPrice, times: order.pointee.quantity, multiplied: order.pointee.quantity != 1, order.pointee.currency) { order.pointee.amount }
        self += " |"
        if paid { self += order.pointee.paid || (settled != nil && order.pointee.personKey == settled) ? " ✓ |" : "  |" }
        self += " "
        append(order.pointee.quantity)
        self += " | "
        price(order.pointee.unitPrice, order.pointee.currency)
        self += " | "
        if let time = order.pointee.time {
            // Its bytes from the stack: 16 bytes are one too many for a String without an allocation.
            Timestamp.withDisplay(time, timeZone: builder!.context.configuration.timeZone) { buffer.append(UnsafeRawBufferPointer($0)) }
            if builder!.context.isLate(order.pointee) { self += " \(self["late_mark"])" }
        } else {
            escaped(order.pointee.timeText)
        }
        self += " | "
        text(order.pointee.note, TextLimits.note)
        self += " |\n"
    }
}
