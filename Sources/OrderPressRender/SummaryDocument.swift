import Foundation
import OrderPressAggregate
import OrderPressDiff
import OrderPressOutput
import OrderPressSupport

/// `summary.json`: the machine-readable result of a build. Amounts are decimal strings, exact in
/// their own currency and rounded to minor units when converted (null when a rate is missing).
package struct SummaryDocument: Encodable {
    package var title: String
    var dataAsOf: String?
    var rowsRead: Int
    package var rates: SummaryRates?
    package var groups: [SummaryGroup]
    package var people: [SummaryPerson]
    package var rejected: [SummaryRejected]
    package var warnings: [SummaryWarning]
    /// The newest run that changed something.
    package var changes: SummaryChanges?

    enum CodingKeys: String, CodingKey {
        case title, rates, groups, people, rejected, warnings, changes
        case dataAsOf = "data_as_of"
        case rowsRead = "rows_read"
    }

    package struct SummaryRates: Encodable {
        var base: String
        package var asOf: String?
        package var source: String
        var fromCache: Bool
        var stale: Bool
        package var rates: [String: String]

        enum CodingKeys: String, CodingKey {
            case base, source, stale, rates
            case asOf = "as_of"
            case fromCache = "from_cache"
        }
    }

    package struct SummaryGroup: Encodable {
        package var name: String
        package var slug: String
        package var currency: String
        package var orders: Int
        package var total: String
        package var converted: [String: String?]
        /// Only when a `paid` column is mapped, like every payment figure.
        package var outstanding: String?
        package var people: [SummaryGroupPerson]
        /// The fee and discount as shared out (issue 24), included in `total`; only when the group has either.
        package var fee: String? = nil
        package var discount: String? = nil
    }

    package struct SummaryGroupPerson: Encodable {
        package var name: String
        package var slug: String
        package var orders: Int
        package var total: String
        package var converted: [String: String?]
        package var paid: String?
        package var outstanding: String?
        /// Their parts of the group's fee and discount, included in `total`; only when the group has either.
        var feeShare: String? = nil
        var discountShare: String? = nil

        enum CodingKeys: String, CodingKey {
            case name, slug, orders, total, converted, paid, outstanding
            case feeShare = "fee_share"
            case discountShare = "discount_share"
        }
    }

    package struct SummaryPerson: Encodable {
        package var name: String
        package var slug: String
        package var orders: Int
        var totals: [String: String]
        package var converted: [String: String?]
        package var outstanding: [String: String]?
        /// What they still owe from finished rounds, oldest first; absent when nothing.
        package var carried: [SummaryCarried]?
        /// What the payments source recorded beyond their carried debts, by currency; absent when nothing.
        package var credit: [String: String]? = nil
    }

    /// A debt carried from a finished round: `round` is its archive page's name (`2026-11-21`, `2026-11-21-2`).
    package struct SummaryCarried: Encodable {
        package var round: String
        package var group: String
        /// Still owed.
        package var amount: String
        package var currency: String
        /// What payments paid off of it; absent when nothing.
        package var paid: String? = nil
    }

    package struct SummaryRejected: Encodable {
        package var row: Int
        package var values: [String: String]
        package var reasons: [String]
        /// Each reason's stable code (`ReasonCode`), in the order of `reasons`.
        var codes: [String]
    }

    package struct SummaryWarning: Encodable {
        package var row: Int?
        var message: String
        var code: String?
        /// The source it is about when not the orders ("payments"); absent otherwise.
        package var source: String? = nil
    }

    package struct SummaryChanges: Encodable {
        package var time: String
        var firstRun: Bool
        var deleted: [SummaryChangedRow]
        var added: [SummaryChangedRow]
        var changed: [SummaryChange]
        var noLongerCounted: [SummaryCounted]
        var nowCounted: [SummaryCounted]
        /// The orders of finished rounds (`[rounds] close_after_deadline`): only when a round closed.
        var roundClosed: [SummaryChangedRow]? = nil

        enum CodingKeys: String, CodingKey {
            case time, deleted, added, changed
            case roundClosed = "round_closed"
            case firstRun = "first_run"
            case noLongerCounted = "no_longer_counted"
            case nowCounted = "now_counted"
        }
    }

    /// An order that turned rejected (as it was counted, with the reasons) or valid (as it is now), at
    /// the row where it stands, with the fields that changed.
    struct SummaryCounted: Encodable {
        package var row: Int
        var id: String?
        package var group: String
        package var person: String
        package var item: String
        var options: [String]
        var quantity: Int
        package var amount: String?
        package var currency: String
        package var firstSeen: String
        var fields: [String: [String]]
        package var reasons: [String]?

        enum CodingKeys: String, CodingKey {
            case row, id, group, person, item, options, quantity, amount, currency, fields, reasons
            case firstSeen = "first_seen"
        }

        init(_ change: ChangeSet.Change, counted order: RowRecord) {
            (row, id, group, person, item, options) = (change.after.row, change.after.id, order.group, order.person, order.item, order.options)
            (quantity, amount, currency, firstSeen) = (order.quantity, order.amount, order.currency, order.firstSeen)
            (fields, reasons) = (change.fields, change.reasons)
        }
    }

    struct SummaryChangedRow: Encodable {
        package var row: Int
        var id: String?
        package var group: String
        package var person: String
        package var item: String
        var options: [String]
        var quantity: Int
        package var amount: String?
        package var currency: String
        package var rejected: Bool
        package var firstSeen: String

        enum CodingKeys: String, CodingKey {
            case row, id, group, person, item, options, quantity, amount, currency, rejected
            case firstSeen = "first_seen"
        }

        init(_ record: RowRecord) {
            (row, id, group, person, item, options) = (record.row, record.id, record.group, record.person, record.item, record.options)
            (quantity, amount, currency, rejected, firstSeen) = (record.quantity, record.amount, record.currency, record.rejected, record.firstSeen)
        }
    }

    struct SummaryChange: Encodable {
        package var row: Int
        var id: String?
        var fields: [String: [String]]
    }

    /// The whole document; `encoded(_:)` writes the same bytes without keeping the two long lists.
    package init(_ context: SiteContext) {
        self.init(frameOf: context)
        groups = context.aggregation.groups.map { Self.group($0, context) }
        people = context.aggregation.people.map { Self.person($0, context) } + Self.roundDebtors(context).map { key, name in
            SummaryPerson(
                name: name, slug: context.personSlugs[key]!, orders: 0, totals: [:], converted: [:],
                outstanding: context.aggregation.tracksPayments ? [:] : nil, carried: Self.carriedEntries(context.carried[key]!),
                credit: context.credit[key].map { $0.mapValues(DecimalText.exact) })
        }
    }

    /// The people only finished rounds name who still owe something (`SiteContext.roundOnly`): listed after
    /// everyone who orders now, with nothing ordered and their carried debts.
    static func roundDebtors(_ context: SiteContext) -> [(key: String, name: String)] {
        context.roundOnly.filter { context.carried[$0.key] != nil }
    }

    private static func carriedEntries(_ debts: [CarriedDebt]) -> [SummaryCarried] {
        debts.map { debt in
            let members = carried(debt)
            return SummaryCarried(
                round: members["round"]!, group: members["group"]!, amount: members["amount"]!, currency: members["currency"]!,
                paid: members["paid"])
        }
    }

    /// Everything but the lists of groups and people.
    private init(frameOf context: SiteContext) {
        title = context.configuration.title
        dataAsOf = context.dataAsOf.map(Timestamp.iso8601)
        rowsRead = context.data.rowsRead
        rates = context.rates.map { table in
            SummaryRates(
                base: table.base, asOf: table.asOf.map(Timestamp.iso8601), source: table.source,
                fromCache: table.fromCache, stale: context.ratesStale,
                rates: table.rates.mapValues(DecimalText.exact))
        }
        (groups, people) = ([], [])
        rejected = context.data.rejected.map { row in
            SummaryRejected(
                row: row.row,
                values: Dictionary(row.values.map { ($0.column, $0.value) }, uniquingKeysWith: { first, _ in first }),
                reasons: row.reasons, codes: row.details.map(\.code.rawValue))
        }
        warnings = context.data.warnings.map { SummaryWarning(row: $0.row, message: $0.message, code: $0.reason?.code.rawValue, source: $0.source) }
        changes = context.history.first.map { entry in
            SummaryChanges(
                time: entry.time, firstRun: entry.changes.firstRun, deleted: entry.changes.deleted.map(SummaryChangedRow.init),
                added: entry.changes.added.map(SummaryChangedRow.init),
                changed: entry.changes.changed.map { SummaryChange(row: $0.after.row, id: $0.after.id, fields: $0.fields) },
                noLongerCounted: entry.changes.noLongerCounted.map { SummaryCounted($0, counted: $0.before) },
                nowCounted: entry.changes.nowCounted.map { SummaryCounted($0, counted: $0.after) },
                roundClosed: entry.changes.roundClosed?.map(SummaryChangedRow.init))
        }
    }

    private static func converted(_ amounts: [ConvertedAmount], _ context: SiteContext) -> [String: String?] {
        Dictionary(uniqueKeysWithValues: amounts.map { ($0.currency, context.money.plain.display(optional: $0)) })
    }

    /// A payment figure, only when a `paid` column is mapped.
    private static func payment(_ amount: Decimal, _ context: SiteContext) -> String? {
        context.aggregation.tracksPayments ? DecimalText.exact(amount) : nil
    }

    private static func group(_ summary: GroupSummary, _ context: SiteContext) -> SummaryGroup {
        let shared = summary.fee != 0 || summary.discount != 0
        return SummaryGroup(
            name: summary.group.name, slug: context.groupSlugs[summary.group.name]!, currency: summary.currency,
            orders: summary.orders.count, total: DecimalText.exact(summary.total),
            converted: converted(summary.converted, context), outstanding: payment(summary.outstanding, context),
            people: summary.people.map { person in
                SummaryGroupPerson(
                    name: person.name, slug: context.personSlugs[person.key]!, orders: person.orders,
                    total: DecimalText.exact(person.total), converted: converted(person.converted, context),
                    paid: payment(person.paid, context), outstanding: payment(person.outstanding, context),
                    feeShare: shared ? DecimalText.exact(person.feeShare) : nil,
                    discountShare: shared ? DecimalText.exact(person.discountShare) : nil)
            }, fee: shared ? DecimalText.exact(summary.fee) : nil, discount: shared ? DecimalText.exact(summary.discount) : nil)
    }

    private static func person(_ person: PersonSummary, _ context: SiteContext) -> SummaryPerson {
        SummaryPerson(
            name: person.name, slug: context.personSlugs[person.key]!, orders: person.orders.count,
            totals: person.totals.mapValues(DecimalText.exact), converted: converted(person.converted, context),
            outstanding: context.aggregation.tracksPayments ? person.outstanding.mapValues(DecimalText.exact) : nil,
            carried: context.carried[person.key].map(carriedEntries), credit: context.credit[person.key].map { $0.mapValues(DecimalText.exact) })
    }

    /// A carried debt's members, as both ways of writing the document write them.
    package static func carried(_ debt: CarriedDebt) -> [String: String] {
        [
            "round": String(debt.archive.path.split(separator: "/").last ?? ""), "group": debt.archive.group,
            "amount": DecimalText.exact(debt.amount), "currency": debt.currency,
        ].merging(debt.paid > 0 ? ["paid": DecimalText.exact(debt.paid)] : [:]) { first, _ in first }
    }

    /// The same bytes as `JSONOutput.encode(SummaryDocument(context))`. JSONEncoder builds a whole
    /// document as a tree before writing a byte: at a million orders that tree of every group and
    /// person was most of a build's memory, and building it a large share of its time. The
    /// rest of the document goes through JSONEncoder; the two long lists are written entry by entry
    /// in its place, each entry a piece keyed by its page's inputs (`PageKeys`), copied from the
    /// `published` file when that has it.
    static func encoded(_ context: SiteContext) -> OutputFile {
        let stream = MemoryStream()
        _ = write(context, inputs: NoPieceKeys?.none, published: nil, into: stream)
        return OutputFile(path: fileName, contents: stream.take())
    }

    /// Writes the document into `stream`; returns its pieces, each keyed when `inputs` are given.
    package static func write<Keys: PieceKeys>(_ context: SiteContext, inputs: Keys?, published: PublishedPieces?, into stream: ByteStream) -> FilePieces? {
        let frame = [UInt8](JSONOutput.encode(SummaryDocument(frameOf: context)))
        var out = PieceAssembler(into: stream, published: inputs == nil ? nil : published)
        let entries = Entries(context, personSlugs: inputs?.personSlugs ?? TextDictionary(context.personSlugs))
        // The entries' keys by place, looked up before: unwrapping `inputs` in the closures below copied
        // the whole `PageKeys` (a score of arrays retained, then released) for every entry.
        let keys = inputs.map { inputs in
            (groups: context.aggregation.groups.indices.map(inputs.summaryPiece(groupAt:)),
             people: context.aggregation.people.indices.map(inputs.summaryPiece(personAt:)))
        }
        let roundDebtors = roundDebtors(context)
        var done = frame.startIndex
        // Each list's entries one level inside the array, which is one level inside the document.
        let lists: [(key: String, count: Int, write: (Int, inout PieceAssembler) -> Void)] = [
            // `make` a local function, not a closure value: that one held a copy of `entries` (the whole
            // `SiteContext`) for each entry, made even when the entry is copied from the published file.
            ("groups", context.aggregation.groups.count, { index, out in
                func make(_ bytes: inout [UInt8]) {
                    entry(first: index == 0, into: &bytes) { entries.group(context.aggregation.groups[index], to: &$0) }
                }
                if let keys { out.piece(keys.groups[index], make: make) } else { out.write(make: make) }
            }),
            ("people", context.aggregation.people.count + roundDebtors.count, { index, out in
                let people = context.aggregation.people
                guard index < people.count else {
                    // A round's debtor, after everyone who orders now: few, always made.
                    let debtor = roundDebtors[index - people.count]
                    return out.write { bytes in entry(first: index == 0, into: &bytes) { entries.roundDebtor(debtor.key, name: debtor.name, to: &$0) } }
                }
                func make(_ bytes: inout [UInt8]) {
                    entry(first: index == 0, into: &bytes) { entries.person(people[index], to: &$0) }
                }
                if let keys { out.piece(keys.people[index], make: make) } else { out.write(make: make) }
            }),
        ]
        for (key, count, write) in lists {
            let empty = Array("\n  \"\(key)\" : [\n\n  ]".utf8)
            guard let start = Self.index(of: empty, in: frame, from: done) else {
                stream.reset()
                stream.append([UInt8](JSONOutput.encode(SummaryDocument(context))))
                return nil
            }
            out.write(Array(frame[done..<start]) + Array("\n  \"\(key)\" : [".utf8))
            for index in 0..<count { write(index, &out) }
            // JSONEncoder leaves an empty line inside an empty array.
            out.write(Array((count == 0 ? "\n\n  ]" : "\n  ]").utf8))
            done = start + empty.count
        }
        out.write(Array(frame[done...]))
        guard let pieces = out.finish() else {
            stream.reset()
            return write(context, inputs: inputs, published: nil, into: stream)
        }
        return inputs == nil ? nil : pieces
    }

    package static let fileName = "summary.json"

    /// One entry of a list at the second level, with the comma and line break before it, appended.
    private static func entry(first: Bool, into bytes: inout [UInt8], _ write: (inout PrettyJSONWriter) -> Void) {
        bytes += first ? entryStart : nextEntryStart
        PrettyJSONWriter.append(to: &bytes, level: 2, write)
    }

    private static let entryStart = Array("\n    ".utf8)
    private static let nextEntryStart = Array(",\n    ".utf8)

    /// Writes the entries of the two long lists as `SummaryGroup` and `SummaryPerson` encode, straight
    /// from the summaries: building those values made a String per amount and a dictionary per list
    /// of converted amounts, for every group, person and person in a group (`SummaryDocumentTests`
    /// compares the two on generated sites).
    private struct Entries {
        let context: SiteContext
        let tracksPayments: Bool
        /// The display currencies, each with its minor units, and their places in JSONEncoder's key
        /// order: every list of converted amounts the aggregation made follows them.
        let currencies: [String]
        let digits: [Int]
        let sorted: [Int]
        let currencyKeys: [PrettyJSONWriter.Key]
        /// `context.personSlugs`, found by the keys' words first.
        let personSlugs: TextDictionary<String>
        let keys = Keys()

        /// Every key of an entry, escaped once.
        struct Keys {
            let converted = PrettyJSONWriter.Key("converted"), currency = PrettyJSONWriter.Key("currency")
            let name = PrettyJSONWriter.Key("name"), orders = PrettyJSONWriter.Key("orders")
            let outstanding = PrettyJSONWriter.Key("outstanding"), paid = PrettyJSONWriter.Key("paid")
            let people = PrettyJSONWriter.Key("people"), slug = PrettyJSONWriter.Key("slug")
            let total = PrettyJSONWriter.Key("total"), totals = PrettyJSONWriter.Key("totals")
            let fee = PrettyJSONWriter.Key("fee"), discount = PrettyJSONWriter.Key("discount")
            let carried = PrettyJSONWriter.Key("carried"), credit = PrettyJSONWriter.Key("credit")
            let feeShare = PrettyJSONWriter.Key("fee_share"), discountShare = PrettyJSONWriter.Key("discount_share")
        }

        init(_ context: SiteContext, personSlugs: TextDictionary<String>) {
            self.context = context
            self.personSlugs = personSlugs
            tracksPayments = context.aggregation.tracksPayments
            let currencies = context.configuration.displayCurrencies
            self.currencies = currencies
            digits = currencies.map(context.money.minorUnits)
            currencyKeys = currencies.map(PrettyJSONWriter.Key.init)
            // With a currency twice, the lists go the general way (which refuses them, as before).
            sorted = Set(currencies).count == currencies.count
                ? currencies.indices.sorted { currencies[$0].utf8.lexicographicallyPrecedes(currencies[$1].utf8) } : []
        }

        func group(_ summary: GroupSummary, to json: inout PrettyJSONWriter) {
            json.openObject()
            converted(summary.converted, to: &json)
            json.member(keys.currency, summary.currency)
            // Keys in JSONEncoder's sorted order: discount, fee between currency and name.
            let shared = summary.fee != 0 || summary.discount != 0
            if shared {
                json.member(keys.discount, exact: summary.discount)
                json.member(keys.fee, exact: summary.fee)
            }
            json.member(keys.name, summary.group.name)
            json.member(keys.orders, summary.orders.count)
            if tracksPayments { json.member(keys.outstanding, exact: summary.outstanding) }
            json.key(keys.people)
            json.openArray()
            for person in summary.people {
                json.element()
                json.openObject()
                converted(person.converted, to: &json)
                if shared {
                    json.member(keys.discountShare, exact: person.discountShare)
                    json.member(keys.feeShare, exact: person.feeShare)
                }
                json.member(keys.name, person.name)
                json.member(keys.orders, person.orders)
                if tracksPayments {
                    json.member(keys.outstanding, exact: person.outstanding)
                    json.member(keys.paid, exact: person.paid)
                }
                json.member(keys.slug, personSlugs[person.key]!)
                json.member(keys.total, exact: person.total)
                json.closeObject()
            }
            json.closeArray()
            json.member(keys.slug, context.groupSlugs[summary.group.name]!)
            json.member(keys.total, exact: summary.total)
            json.closeObject()
        }

        /// Someone only finished rounds name, who still owes: as `SummaryPerson` encodes them.
        func roundDebtor(_ key: String, name: String, to json: inout PrettyJSONWriter) {
            json.openObject()
            carried(of: key, to: &json)
            json.key(keys.converted)
            json.object([String: String]())
            if let credit = context.credit[key] {
                json.key(keys.credit)
                json.object(credit.mapValues(DecimalText.exact))
            }
            json.member(keys.name, name)
            json.member(keys.orders, 0)
            if tracksPayments {
                json.key(keys.outstanding)
                json.object([String: String]())
            }
            json.member(keys.slug, personSlugs[key]!)
            json.key(keys.totals)
            json.object([String: String]())
            json.closeObject()
        }

        /// `"carried"` and the list of what `key` still owes from finished rounds, if anything.
        private func carried(of key: String, to json: inout PrettyJSONWriter) {
            guard let debts = context.carried[key] else { return }
            json.key(keys.carried)
            json.openArray()
            for debt in debts {
                json.element()
                json.object(SummaryDocument.carried(debt))
            }
            json.closeArray()
        }

        func person(_ person: PersonSummary, to json: inout PrettyJSONWriter) {
            json.openObject()
            // Keys in JSONEncoder's sorted order: carried before converted.
            carried(of: person.key, to: &json)
            converted(person.converted, to: &json)
            if let credit = context.credit[person.key] {
                json.key(keys.credit)
                json.object(credit.mapValues(DecimalText.exact))
            }
            json.member(keys.name, person.name)
            json.member(keys.orders, person.orders.count)
            if tracksPayments {
                json.key(keys.outstanding)
                amounts(person.currencyShares, { $0.outstanding }, to: &json)
            }
            json.member(keys.slug, personSlugs[person.key]!)
            json.key(keys.totals)
            amounts(person.currencyShares, { $0.total }, to: &json)
            json.closeObject()
        }

        /// `"converted"` and its object of display currencies, keys sorted.
        private func converted(_ amounts: [ConvertedAmount], to json: inout PrettyJSONWriter) {
            json.key(keys.converted)
            guard amounts.count == sorted.count, zip(amounts, currencies).allSatisfy({ $0.currency == $1 }) else {
                return json.object(SummaryDocument.converted(amounts, context))
            }
            json.openObject()
            for index in sorted {
                json.key(currencyKeys[index])
                if let value = MoneyFormat.shown(amounts[index], digits: digits[index]) {
                    DecimalText.withFixed(value, digits: digits[index]) { json.string(utf8: $0) }
                } else {
                    json.null()
                }
            }
            json.closeObject()
        }

        /// An object of an exact amount by currency; most people order in one currency.
        private func amounts(
            _ shares: [PersonSummary.CurrencyShare], _ amount: (PersonSummary.CurrencyShare) -> Decimal, to json: inout PrettyJSONWriter
        ) {
            guard shares.count == 1 else {
                return json.object(Dictionary(uniqueKeysWithValues: shares.map { ($0.currency, DecimalText.exact(amount($0))) }))
            }
            json.openObject()
            json.key(shares[0].currency)
            DecimalText.withExact(amount(shares[0])) { json.string(utf8: $0) }
            json.closeObject()
        }
    }

    private static func index(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count - start >= needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
