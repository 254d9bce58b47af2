import Crypto
import Foundation
import OrderPressAggregate
import OrderPressOutput
import OrderPressRender
import OrderPressSupport
import OrderPressValidate

/// The reuse keys of files: what each declared file (`Dependency`) is made from, as one digest per
/// file — the orders it shows and the few site-wide settings it reads — and the keys of pages' HTML
/// and of the pieces of `summary.json` and `orders.csv`. A rerun whose key matches the one a published
/// file was made with keeps that file without building it again (`PlanRunner`), so that one changed
/// order rebuilds the pages that show it and not the other ten thousand.
///
/// The digest must cover every input: a group page is a function of its group, its orders (every
/// field), the names and slugs of its people, its deletions in the latest run, and the settings in
/// `site`; a person page of the person, their orders, and the groups they ordered in. Totals and
/// conversions are functions of those orders and the rates. `PageKeysTests` renders generated
/// sites twice, changing one thing at a time, and requires the kept and rebuilt files to equal a
/// build from scratch, and changes each field of an `Order` in turn expecting another digest.
struct PageKeys: PieceKeys {
    /// What every page's HTML depends on besides its own Markdown (`html(ofMarkdown:page:title:)`).
    let layout: String
    /// The digest of the settings every group page, chart and person page depends on (the labels
    /// alone are kilobytes: hashed once, not with every page).
    private let site: [UInt8]
    private let context: SiteContext
    /// `context.data.$orders`, read once: through the context's key path each read copied the sheet's data.
    private let generation: OrdersGeneration
    /// Each order's digest and row (`OrderDigestTable`), in the order of `data.orders`: an order shows on a
    /// group page, its chart and a person page, and is read once.
    private let orders: [UInt8]

    /// `digestTable`: each order's digest, made beside the aggregation (`OrderDigestTable`); used
    /// only when made from this very `context.data.orders`, else made here.
    init(_ context: SiteContext, templates: TemplateSet, digestTable: OrderDigestTable? = nil) {
        self.context = context
        generation = context.data.$orders
        layout = Self.layoutKey(context, templates: templates)
        var fields = Fields()
        fields.add(Version.current)
        fields.add(Version.executableStamp)
        fields.add(templates.digest)
        fields.add(context.configuration.language)
        fields.add(context.configuration.timeZone.identifier)
        for (key, value) in context.markdownLabels.sorted(by: { $0.key < $1.key }) { fields.add(key, value) }
        for (currency, digits) in context.configuration.minorUnits.sorted(by: { $0.key < $1.key }) {
            fields.add(currency)
            fields.add(digits)
        }
        fields.add(context.configuration.displayCurrencies)
        fields.add(context.aggregation.tracksPayments)
        // Who owes what: the organiser's own orders count as paid (`[rounds] organizer_settled`).
        fields.add(context.configuration.rounds.organizerSettled)
        if let rates = context.rates {
            fields.add(rates.base)
            for (currency, rate) in rates.rates.sorted(by: { $0.key < $1.key }) { fields.add(currency, DecimalText.exact(rate)) }
        }
        fields.add(context.rateNotices)
        // Rejected rows are not here but in the keys of the pages that show them (`addRejected`): a row
        // deleted above one renumbers it, which remakes its person's page, not every page.
        fields.add(context.limits.chartBars)
        // How many orders a group page shows before the pages of its orders go on (`GroupOrderPages`).
        fields.add(context.limits.groupOrderRows)
        // A group page links its finished rounds' archives (`RoundArchive`): rare, so all pages follow them.
        fields.add(context.archives.map(\.path))
        // What is still owed from them after payments and `keep_unpaid_days` (`PaymentLedger`): shown on the
        // people's pages and in lists (the organiser's "Owed to you" links the debtor's page), and changed by a
        // payment alone, which is rare; so all pages follow it.
        for key in context.carried.keys.sorted() {
            fields.add(key, context.personSlugs[key] ?? "")
            for debt in context.carried[key]! { fields.add(debt.archive.path, debt.currency, DecimalText.exact(debt.amount), DecimalText.exact(debt.paid)) }
        }
        for key in context.credit.keys.sorted() {
            fields.add(key)
            for (currency, amount) in context.credit[key]!.sorted(by: { $0.key < $1.key }) { fields.add(currency, DecimalText.exact(amount)) }
        }
        // Made beside the aggregation (`Pipeline.build`) for the build's orders; made here for any others.
        let digests =
            if let digestTable, digestTable.hold(for: context.data.$orders) { digestTable } else {
                OrderDigestTable(context.data.orders, places: context.groupPlaces, parallel: true)
            }
        fields.add(digests.source.rawValue)
        site = Array(SHA256.hash(data: fields.bytes))
        orders = digests.digests
        orderGroups = digests.groups
        let sheetGroups = context.data.groups
        csvOrganizers = context.configuration.rounds.organizerSettled ? sheetGroups.flatMap { [$0.name, $0.organizerKey.text] } : []
        groupFields = Parallel.map(sheetGroups.count) { index in
            Self.fieldsDigest(of: sheetGroups[index], slug: context.groupSlugs[sheetGroups[index].name] ?? "")
        }.flatMap { $0 }
        // For the group digests' hundred thousand look-ups: most keys are short texts, found by their words.
        personSlugs = TextDictionary(context.personSlugs)
        let summaries = context.aggregation.groups
        // The digests are made by a copy of what is set so far, taken once: calling the methods on `self`
        // from the closures copied all of it (a score of arrays retained, then released) for each group and person.
        var keys = self
        let groupDigests = Self.digests(count: summaries.count, kind: 1) { [keys] range, scratch, each in
            summaries.withUnsafeBufferPointer { summaries in
                for index in range { each(keys.groupHash(summaries[index], scratch: &scratch)) }
            }
        }
        groupList = groupDigests.hex
        groups = Dictionary(zip(summaries.map(\.group.name), groupList), uniquingKeysWith: { first, _ in first })
        groupPieces = groupDigests.pieces
        let people = context.aggregation.people
        keys = self
        let personDigests = Self.digests(count: people.count, kind: 2) { [keys] range, scratch, each in
            people.withUnsafeBufferPointer { people in
                for index in range { each(keys.personHash(people[index], scratch: &scratch)) }
            }
        }
        personList = personDigests.hex
        personKeys = people.map(\.key)
        self.people = Dictionary(zip(personKeys, personList), uniquingKeysWith: { first, _ in first })
        personPieces = personDigests.pieces
    }

    /// What digesting one group or person needs besides the keys, kept for a whole chunk of them: a buffer
    /// for the fields and one for a person's groups, rather than two arrays allocated for each.
    private struct Scratch {
        var fields = Fields()
        var places: [Int32] = []
    }

    /// The digests of the `count` groups or people, as hex and as the keys of their entries in `summary.json`
    /// (`kind`: 1 for a group, 2 for a person), made on both cores: `make` calls its last argument with the
    /// SHA-256 of each of a range, in order, reusing the chunk's `Scratch`.
    private static func digests(
        count: Int, kind: UInt8, _ make: (Range<Int>, inout Scratch, (SHA256.Digest) -> Void) -> Void
    ) -> (hex: [String], pieces: [PieceKey]) {
        let chunks = Parallel.chunks(count: count, minimumChunk: 100) { range in
            var scratch = Scratch()
            var hex: [String] = []
            var pieces: [PieceKey] = []
            hex.reserveCapacity(range.count)
            pieces.reserveCapacity(range.count)
            make(range, &scratch) { digest in
                hex.append(digest.withUnsafeBytes { Hex.lowercase($0) })
                pieces.append(pieceKey(kind, digest, range.lowerBound + pieces.count == 0))
            }
            return (hex, pieces)
        }
        return chunks.count == 1 ? chunks[0] : (chunks.flatMap(\.0), chunks.flatMap(\.1))
    }

    /// The key of a file that declares what it is made from.
    package func key(of dependency: Dependency) -> String {
        switch dependency {
        case .group(let summary): group(summary)
        case .groupOrders(let summary, let page, let pages): groupOrders(summary, page: page, of: pages)
        case .person(let person, let index): self.person(person, at: index)
        case .personOrders(let person, let index, let page, let pages): personOrders(person, at: index, page: page, of: pages)
        case .listPage(let list, let page, let pages): listPage(list, page: page, of: pages)
        case .chart(let summary): chart(summary)
        case .rejectedOnly(let key, let name): rejectedOnly(key: key, name: name)
        }
    }

    /// The key of a page's HTML: made from its Markdown's bytes (for a page whose Markdown declares
    /// nothing), the page's place and title, and what every page shares (`layout`).
    func html(ofMarkdown markdown: some DataProtocol, page path: String, title: String) -> String {
        html(page: path, title: title) { $0.update(data: markdown) }
    }

    /// The key of the HTML of a page whose Markdown has the key `markdownKey`: its text stands for the Markdown.
    func html(ofMarkdownKey markdownKey: String, page path: String, title: String) -> String {
        html(page: path, title: title) { hash in Text.withUTF8(markdownKey) { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) } }
    }

    private func html(page path: String, title: String, markdown: (inout SHA256) -> Void) -> String {
        var hash = SHA256()
        // Each part and a zero byte after it, without an array of the parts or a copy of each.
        func add(_ part: String) {
            Text.withUTF8(part) { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            withUnsafeBytes(of: UInt8(0)) { hash.update(bufferPointer: $0) }
        }
        add(layout)
        add(path)
        add(title)
        markdown(&hash)
        return Hex.lowercase(hash.finalize())
    }

    /// What every page's HTML depends on besides its own Markdown: the program, the templates,
    /// the language and labels, and the lines every page carries. Hashed once, here, rather than
    /// with every page's key.
    private static func layoutKey(_ context: SiteContext, templates: TemplateSet) -> String {
        let labels = context.labels.plain.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        let parts = [
            Version.current, Version.executableStamp, templates.digest, context.configuration.language,
            context.configuration.title, context.attentionCount ?? "", context.dataAsOfText,
            context.configuration.indexable ? "indexable" : "noindex",
        ] + labels
        return Hex.lowercase(SHA256.hash(data: Data(parts.joined(separator: "\u{0}").utf8)))
    }

    /// The organisers of every group, when they are settled: each order's `owed` in `orders.csv` depends on them.
    private var csvOrganizers: [String] = []

    /// The keys of the entries of `summary.json`, in the order of `aggregation.groups` and `.people`.
    private var groupPieces: [PieceKey] = []
    private var personPieces: [PieceKey] = []

    /// `context.personSlugs`, found by the keys' words first (see `init`).
    package private(set) var personSlugs = TextDictionary<String>([:])

    /// Each order's group, as its place in `data.groups` (-1 for none), in the order of `data.orders`.
    private(set) var orderGroups: [Int32] = []
    /// The digest of each group's fields (`fieldsDigest(of:slug:)`), as a person's digest adds them, in the order of
    /// `data.groups`: `groupFieldsSize` bytes each, in one array (copied from without a slice, and its retain, per group).
    private var groupFields: [UInt8] = []
    private static let groupFieldsSize = SHA256.byteCount

    /// Each group's digest, by name: its page, its chart and its entry in `summary.json` need it.
    private var groups: [String: String] = [:]
    /// Each person's digest, by key: their page and their entry in `summary.json`.
    private var people: [String: String] = [:]
    /// The same digests in the order of `aggregation.groups` and `.people`, where the list pages show
    /// them and the person pages are made: found by place, not by hashing a name for each.
    private var groupList: [String] = []
    private var personList: [String] = []
    /// The keys of `aggregation.people`, in its order: a person page's place is checked against them, not
    /// through the context's key path, which copied the aggregation's lists for each of ten thousand pages.
    private var personKeys: [String] = []

    private static let orderDigestSize = OrderDigestTable.size

    private func add(_ orders: OrderList, to fields: inout Fields) {
        fields.add(orders.count)
        guard orders.isPositioned(in: generation) else {
            // Summaries made apart from this build's orders (in a test, say): each order read again.
            var own = Fields()
            var digest: [UInt8] = []
            for order in orders {
                digest.removeAll(keepingCapacity: true)
                OrderDigestTable.append(order, fields: &own, to: &digest)
                fields.append(digest[..<OrderDigestTable.digestSize])
            }
            return
        }
        fields.appendDigests(at: orders.positions, of: self.orders)
    }

    /// The digest of a group's page.
    func group(_ summary: GroupSummary) -> String {
        // The digests made up front are of this build's summaries; one made apart is digested anew.
        (summary.orders.isPositioned(in: generation) ? groups[summary.group.name] : nil) ?? groupDigest(summary)
    }

    private func groupDigest(_ summary: GroupSummary) -> String {
        var scratch = Scratch()
        return groupHash(summary, scratch: &scratch).withUnsafeBytes { Hex.lowercase($0) }
    }

    private func groupHash(_ summary: borrowing GroupSummary, scratch: inout Scratch) -> SHA256.Digest {
        scratch.fields.reset(site)
        scratch.fields.add("group")
        add(summary.group, to: &scratch.fields)
        add(summary.orders, to: &scratch.fields)
        // Each person's fields read where they are: iterating copied every `PersonTotal` (retains and releases).
        summary.people.withUnsafeBufferPointer { people in
            for index in people.indices {
                scratch.fields.add(people[index].key)
                scratch.fields.add(people[index].name)
                scratch.fields.add(personSlugs[people[index].key] ?? "")
            }
        }
        // "2 rows of this group were rejected", and the pages of the people they name (`PageBuilder.rejectedNotice`).
        // Most sites have no rejected rows and no deletions: no group name hashed to find none.
        let name = summary.group.name
        scratch.fields.add(context.rejected.countByGroup.isEmpty ? 0 : context.rejected.countByGroup[name] ?? 0)
        if !context.rejected.peopleByGroup.isEmpty {
            for person in context.rejected.peopleByGroup[name] ?? [] {
                scratch.fields.add(person.key, person.name, context.personSlugs[person.key] ?? "")
            }
        }
        let deletions = context.latestDeletions.isEmpty ? [] : context.latestDeletions[name] ?? []
        // The heading of the latest run's deletions names that run's time; only a group with some shows it.
        if !deletions.isEmpty { scratch.fields.add(context.history.first?.time ?? "") }
        for record in deletions {
            scratch.fields.add(record.person, record.what, record.amount ?? "", record.currency)
        }
        return scratch.fields.sha256()
    }

    /// The digest of page `page` (from 2) of a group's people and orders: the orders it shows, where the
    /// page stands among how many (its title and pager), and the group's name and slug (its heading and
    /// link). A page that shows people's totals depends on every order of theirs in the group, and on how
    /// many people share its fee: it takes the group page's digest, which covers them all.
    func groupOrders(_ summary: GroupSummary, page: Int, of pages: GroupOrderPages) -> String {
        var fields = Fields(site)
        fields.add("group orders")
        fields.add(summary.group.name, pages.slug)
        fields.add(page)
        fields.add(pages.pageCount)
        fields.add(pages.count)
        fields.add(pages.people)
        let people = pages.peopleRows(ofPage: page)
        fields.add(people.lowerBound)
        fields.add(people.count)
        if !people.isEmpty { fields.add(group(summary)) }
        let rows = pages.rows(ofPage: page)
        fields.add(rows.lowerBound)
        fields.add(rows.count)
        let orders = summary.orders
        if orders.isPositioned(in: generation) {
            fields.appendDigests(at: orders.positions[rows], of: self.orders)
        } else {
            var own = Fields()
            var digest: [UInt8] = []
            for index in rows {
                digest.removeAll(keepingCapacity: true)
                OrderDigestTable.append(orders[index], fields: &own, to: &digest)
                fields.append(digest[..<OrderDigestTable.digestSize])
            }
        }
        return fields.digest()
    }

    /// The digest of page `page` (from 2) of a person's orders: their page's digest (every order of theirs
    /// and the groups they ordered in), and where the page stands among how many.
    func personOrders(_ person: PersonSummary, at index: Int, page: Int, of pages: GroupOrderPages) -> String {
        var fields = Fields(site)
        fields.add("person orders")
        fields.add(self.person(person, at: index))
        fields.add(page)
        fields.add(pages.pageCount)
        return fields.digest()
    }

    /// The digest of a group's chart.
    func chart(_ summary: GroupSummary) -> String {
        "chart " + group(summary)
    }

    /// The digest of the page of `person`, which stands at `index` in `aggregation.people`.
    func person(_ person: PersonSummary, at index: Int) -> String {
        guard index < personList.count, index < personKeys.count, personKeys[index] == person.key,
            person.orders.isPositioned(in: generation)
        else { return self.person(person) }
        return personList[index]
    }

    /// The digest of page `page` of a list after the first (`ListPages`): the digests of the groups or
    /// people it shows, which cover every figure, name and link of their rows, and where the page
    /// stands among how many (its title and pager). Not how long the list is, which only the index says
    /// (`ListPages.pager`): someone new at the end of the list keeps the pages before theirs.
    func listPage(_ list: ListPages.List, page: Int, of pages: ListPages) -> String {
        var fields = Fields(site)
        fields.add("list")
        fields.add(list.rawValue)
        fields.add(page)
        fields.add(pages.pageCount)
        let digests = list == .groups ? groupList : personList
        let rows = pages.rows(ofPage: page).clamped(to: digests.indices)
        fields.add(rows.lowerBound)
        fields.add(rows.count)
        for digest in digests[rows] { fields.add(digest) }
        return fields.digest()
    }

    /// The digest of the page of someone known only from rejected rows (`RejectedIndex.onlyRejected`):
    /// their rows, and the groups for their organisers.
    func rejectedOnly(key: String, name: String) -> String {
        var fields = Fields(site)
        fields.add("rejected person")
        fields.add(key, name, context.personSlugs[key] ?? "")
        addRejected(ofPerson: key, to: &fields)
        for group in context.data.groups { add(group, to: &fields) }
        return fields.digest()
    }

    /// The rejected rows naming the person of `key`, as their page lists them (`PageBuilder.rejectedLines`):
    /// each row's number, cells and reasons, and whom it says to ask — its group's organiser, from the
    /// groups sheet (found missing by PageKeysTests' change of an organiser).
    private func addRejected(ofPerson key: String, to fields: inout Fields) {
        guard !context.rejected.byPerson.isEmpty, let rows = context.rejected.byPerson[key] else { return }
        for row in rows {
            fields.add(row.row)
            for cell in row.values { fields.add(cell.column, cell.value) }
            for reason in row.details { fields.add(reason.code.rawValue) }
            fields.add(row.reasons)
            fields.add(context.groupPlace(row.group).map { context.data.groups[$0].organizer } ?? "")
        }
    }

    /// The digest of a person's page.
    func person(_ person: PersonSummary) -> String {
        (person.orders.isPositioned(in: generation) ? people[person.key] : nil) ?? personDigest(person)
    }

    private func personDigest(_ person: PersonSummary) -> String {
        var scratch = Scratch()
        return personHash(person, scratch: &scratch).withUnsafeBytes { Hex.lowercase($0) }
    }

    private func personHash(_ person: borrowing PersonSummary, scratch: inout Scratch) -> SHA256.Digest {
        scratch.fields.reset(site)
        scratch.fields.add("person")
        // The slug found by the key's words (`personSlugs`), not by hashing its Unicode text.
        scratch.fields.add(person.key, person.name, personSlugs[person.key] ?? "")
        addRejected(ofPerson: person.key, to: &scratch.fields)
        add(person.orders, to: &scratch.fields)
        if person.orders.isPositioned(in: generation) {
            // The groups they ordered in, in the sheet's order, found by number rather than by name.
            scratch.places.removeAll(keepingCapacity: true)
            for position in person.orders.positions where orderGroups[Int(position)] >= 0 { scratch.places.append(orderGroups[Int(position)]) }
            scratch.places.sort()
            groupFields.withUnsafeBytes { groupFields in
                for (index, place) in scratch.places.enumerated() where index == 0 || scratch.places[index - 1] != place {
                    let start = Int(place) * Self.groupFieldsSize
                    scratch.fields.append(UnsafeRawBufferPointer(rebasing: groupFields[start..<start + Self.groupFieldsSize]))
                }
            }
        } else {
            for group in context.groups(named: Set(person.orders.map(\.group))) {
                scratch.fields.append(Self.fieldsDigest(of: group, slug: context.groupSlugs[group.name] ?? "")[...])
            }
        }
        // Their parts of fees and discounts, which depend on the others in the group as well; read where they
        // are, not copied share by share.
        person.groupShares.withUnsafeBufferPointer { shares in
            for index in shares.indices where shares[index].feeShare != 0 || shares[index].discountShare != 0 {
                scratch.fields.add(shares[index].group)
                scratch.fields.add(shares[index].feeShare)
                scratch.fields.add(shares[index].discountShare)
            }
        }
        return scratch.fields.sha256()
    }

    /// The key of the entry in `summary.json` of the group at `index` in `aggregation.groups`, which
    /// shows what its page shows. The first entry of a list is written without the comma the others
    /// start with.
    func summaryPiece(groupAt index: Int) -> PieceKey { groupPieces[index] }

    /// The key of the entry in `summary.json` of the person at `index` in `aggregation.people`.
    func summaryPiece(personAt index: Int) -> PieceKey { personPieces[index] }

    /// The key of the rows of `orders.csv` that show the orders at `positions` in `data.orders`.
    func csvPiece(_ positions: Range<Int>) -> PieceKey {
        var fields = Fields(site)
        fields.add("orders.csv")
        // What an order still owes depends on who organises its group.
        fields.add(csvOrganizers)
        fields.add(positions.count)
        fields.append(orders[positions.lowerBound * Self.orderDigestSize..<positions.upperBound * Self.orderDigestSize])
        return PieceKey(Digest128(SHA256.hash(data: fields.bytes)))
    }

    /// The key of an entry of `summary.json` (`kind`: 1 a group's, 2 a person's) from the digest of what it
    /// shows: its bytes, not its hex, and no buffer of fields for them.
    private static func pieceKey(_ kind: UInt8, _ digest: SHA256.Digest, _ first: Bool) -> PieceKey {
        var hash = SHA256()
        withUnsafeBytes(of: (kind, first ? UInt8(1) : 0)) { hash.update(bufferPointer: $0) }
        digest.withUnsafeBytes { hash.update(bufferPointer: $0) }
        return PieceKey(Digest128(hash.finalize()))
    }

    private func add(_ group: Group, to fields: inout Fields) {
        Self.add(group, slug: context.groupSlugs[group.name] ?? "", to: &fields)
    }

    /// The SHA-256 of a group's fields (`add(_:slug:to:)`): what a person's digest adds for each group they
    /// ordered in. The fields themselves, a hundred bytes or more a group and some ten groups a person, were
    /// most of what a person's digest hashed.
    private static func fieldsDigest(of group: Group, slug: String) -> [UInt8] {
        var fields = Fields()
        add(group, slug: slug, to: &fields)
        return Array(SHA256.hash(data: fields.bytes))
    }

    private static func add(_ group: Group, slug: String, to fields: inout Fields) {
        fields.add(group.name, group.organizer, group.shop, group.currency, group.deadline)
        // How the deadline reads (shown, and what makes an order late) depends on the source's date order too.
        fields.add(group.dateOrder?.rawValue ?? "")
        fields.add(slug)
        // How to pay, the fee and the discount (issue 24): on the group page and its people's pages.
        fields.add(group.payment)
        fields.add(group.fee)
        fields.add(group.discount)
        // A fee or discount not counted is said on the group page and every share line.
        for reason in [group.feeNotCounted, group.discountNotCounted] {
            fields.add(reason.map { $0.code.rawValue + "\u{1F}" + $0.english + "\u{1F}" + $0.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\u{1F}") } ?? "")
        }
    }

    /// Every field of an order but its sheet row, which `OrderDigestTable` keeps beside the digest
    /// (`PageKeysTests` changes each one and expects another entry). The
    /// unit price as it is stored (value and form, which `DecimalText.exact` shows), not as text:
    /// writing it out was a fifth of the work.
    static func add(_ order: Order, to fields: inout Fields) {
        fields.add(order.id != nil)
        fields.add(order.id ?? "")
        fields.add(order.group)
        fields.add(order.person)
        fields.add(order.personKey.text)
        fields.add(order.item)
        fields.add(order.options)
        fields.add(order.quantity)
        fields.add(order.unitPrice)
        fields.add(order.currency)
        fields.add(order.time != nil)
        fields.add(order.time.map { Int(bitPattern: UInt($0.timeIntervalSince1970.bitPattern)) } ?? 0)
        fields.add(order.timeText)
        fields.add(order.note)
        fields.add(order.paid)
    }

    /// Fields as bytes, each text preceded by its length, so that no two lists of fields run together alike.
    struct Fields {
        private(set) var bytes: [UInt8]

        init(_ start: [UInt8] = []) {
            bytes = start
            bytes.reserveCapacity(start.count + 1024)
        }

        /// Empty but for `start`, keeping the buffer.
        mutating func reset(_ start: [UInt8] = []) {
            bytes.removeAll(keepingCapacity: true)
            bytes += start
        }

        mutating func add(_ text: String) {
            // Native text is contiguous already: no copy of the String to make it so.
            Text.withUTF8(text) { utf8 in
                add(utf8.count)
                bytes.append(contentsOf: UnsafeRawBufferPointer(utf8))
            }
        }

        /// A Decimal's sign, significand and exponent as stored.
        mutating func add(_ amount: Decimal) {
            let raw = RawDecimal(amount)
            add(raw != nil)
            guard let raw else { return }
            add(raw.negative)
            add(Int(truncatingIfNeeded: UInt64(truncatingIfNeeded: raw.significand >> 64)))
            add(Int(truncatingIfNeeded: UInt64(truncatingIfNeeded: raw.significand)))
            add(raw.exponent)
        }

        mutating func add(_ first: String, _ second: String, _ rest: String...) {
            add(first)
            add(second)
            for text in rest { add(text) }
        }

        mutating func add(_ texts: [String]) {
            add(texts.count)
            for text in texts { add(text) }
        }

        /// A number (or a length) in as few bytes as it needs: LEB128 of its zigzag form, which no
        /// other number's bytes begin with. At eight bytes each, an order's numbers and lengths were
        /// more than half of what its digest hashed, and a SHA-256 block costs by the 64 bytes.
        mutating func add(_ number: Int) {
            var rest = UInt64(bitPattern: Int64(number) << 1 ^ Int64(number) >> 63)
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        mutating func add(_ flag: Bool) { bytes.append(flag ? 1 : 0) }

        /// Bytes that are already a fixed-size digest.
        mutating func append(_ digest: ArraySlice<UInt8>) { bytes += digest }

        mutating func append(_ digest: UnsafeRawBufferPointer) { bytes.append(contentsOf: digest) }

        /// The digests of the orders at `positions` in `table` (`OrderDigestTable.digests`), each its first
        /// `digestSize` bytes: copied in one pass over the table, not through a slice (a retain, a release and
        /// a call of the generic append) for each of a hundred thousand orders.
        mutating func appendDigests(at positions: some Collection<UInt32>, of table: [UInt8]) {
            let (size, digestSize) = (OrderDigestTable.size, OrderDigestTable.digestSize)
            var at = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: positions.count * digestSize))
            table.withUnsafeBytes { table in
                bytes.withUnsafeMutableBytes { out in
                    for position in positions {
                        let start = Int(position) * size
                        precondition(start + digestSize <= table.count, "an order's digest must be in the table")
                        out.baseAddress!.advanced(by: at).copyMemory(from: table.baseAddress!.advanced(by: start), byteCount: digestSize)
                        at += digestSize
                    }
                }
            }
        }

        func digest() -> String { Hex.lowercase(SHA256.hash(data: bytes)) }

        func sha256() -> SHA256.Digest { bytes.withUnsafeBytes { SHA256.hash(data: $0) } }

        /// Appends the first `count` bytes of the SHA-256 of the fields to `digests`.
        func appendDigest(_ count: Int, to digests: inout [UInt8]) {
            bytes.withUnsafeBytes { digests += SHA256.hash(data: $0).prefix(count) }
        }
    }
}
