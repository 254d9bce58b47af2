import Foundation

/// `summary.json`: the machine-readable result of a build. Amounts are decimal strings, exact in
/// their own currency and rounded to minor units when converted (null when a rate is missing).
struct SummaryDocument: Encodable {
    var title: String
    var dataAsOf: String?
    var rowsRead: Int
    var rates: SummaryRates?
    var groups: [SummaryGroup]
    var people: [SummaryPerson]
    var rejected: [SummaryRejected]
    var warnings: [SummaryWarning]
    /// The newest run that changed something.
    var changes: SummaryChanges?

    enum CodingKeys: String, CodingKey {
        case title, rates, groups, people, rejected, warnings, changes
        case dataAsOf = "data_as_of"
        case rowsRead = "rows_read"
    }

    struct SummaryRates: Encodable {
        var base: String
        var asOf: String?
        var source: String
        var fromCache: Bool
        var stale: Bool
        var rates: [String: String]

        enum CodingKeys: String, CodingKey {
            case base, source, stale, rates
            case asOf = "as_of"
            case fromCache = "from_cache"
        }
    }

    struct SummaryGroup: Encodable {
        var name: String
        var slug: String
        var currency: String
        var orders: Int
        var total: String
        var converted: [String: String?]
        /// Only when a `paid` column is mapped, like every payment figure.
        var outstanding: String?
        var people: [SummaryGroupPerson]
    }

    struct SummaryGroupPerson: Encodable {
        var name: String
        var slug: String
        var orders: Int
        var total: String
        var converted: [String: String?]
        var paid: String?
        var outstanding: String?
    }

    struct SummaryPerson: Encodable {
        var name: String
        var slug: String
        var orders: Int
        var totals: [String: String]
        var converted: [String: String?]
        var outstanding: [String: String]?
    }

    struct SummaryRejected: Encodable {
        var row: Int
        var values: [String: String]
        var reasons: [String]
    }

    struct SummaryWarning: Encodable {
        var row: Int?
        var message: String
    }

    struct SummaryChanges: Encodable {
        var time: String
        var firstRun: Bool
        var deleted: [SummaryChangedRow]
        var added: [SummaryChangedRow]
        var changed: [SummaryChange]

        enum CodingKeys: String, CodingKey {
            case time, deleted, added, changed
            case firstRun = "first_run"
        }
    }

    struct SummaryChangedRow: Encodable {
        var row: Int
        var id: String?
        var group: String
        var person: String
        var item: String
        var options: [String]
        var quantity: Int
        var amount: String?
        var currency: String
        var rejected: Bool
        var firstSeen: String

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
        var row: Int
        var id: String?
        var fields: [String: [String]]
    }

    init(_ context: SiteContext) {
        func converted(_ amounts: [ConvertedAmount]) -> [String: String?] {
            Dictionary(uniqueKeysWithValues: amounts.map { ($0.currency, context.money.display(optional: $0)) })
        }
        title = context.configuration.title
        dataAsOf = context.dataAsOf.map(Timestamp.iso8601)
        rowsRead = context.data.rowsRead
        rates = context.rates.map { table in
            SummaryRates(
                base: table.base, asOf: table.asOf.map(Timestamp.iso8601), source: table.source,
                fromCache: table.fromCache, stale: context.ratesStale,
                rates: table.rates.mapValues(DecimalText.exact))
        }
        let payments = context.aggregation.tracksPayments
        func exact(_ amount: Decimal) -> String? { payments ? DecimalText.exact(amount) : nil }
        groups = context.aggregation.groups.map { summary in
            SummaryGroup(
                name: summary.group.name, slug: context.groupSlugs[summary.group.name]!, currency: summary.currency,
                orders: summary.orders.count, total: DecimalText.exact(summary.total),
                converted: converted(summary.converted), outstanding: exact(summary.outstanding),
                people: summary.people.map { person in
                    SummaryGroupPerson(
                        name: person.name, slug: context.personSlugs[person.key]!, orders: person.orders,
                        total: DecimalText.exact(person.total), converted: converted(person.converted),
                        paid: exact(person.paid), outstanding: exact(person.outstanding))
                })
        }
        people = context.aggregation.people.map { person in
            SummaryPerson(
                name: person.name, slug: context.personSlugs[person.key]!, orders: person.orders.count,
                totals: person.totals.mapValues(DecimalText.exact), converted: converted(person.converted),
                outstanding: payments ? person.outstanding.mapValues(DecimalText.exact) : nil)
        }
        rejected = context.data.rejected.map { row in
            SummaryRejected(
                row: row.row,
                values: Dictionary(row.values.map { ($0.column, $0.value) }, uniquingKeysWith: { first, _ in first }),
                reasons: row.reasons)
        }
        warnings = context.data.warnings.map { SummaryWarning(row: $0.row, message: $0.message) }
        changes = context.history.first.map { entry in
            SummaryChanges(
                time: entry.time, firstRun: entry.changes.firstRun, deleted: entry.changes.deleted.map(SummaryChangedRow.init),
                added: entry.changes.added.map(SummaryChangedRow.init),
                changed: entry.changes.changed.map { SummaryChange(row: $0.after.row, id: $0.after.id, fields: $0.fields) })
        }
    }

    /// The same bytes as `JSONOutput.encode(self)`. JSONEncoder builds a whole document as a tree
    /// before writing a byte, and at a million orders that tree of every group and person was most
    /// of a build's memory: the two long lists are encoded one entry at a time and put in place,
    /// indented as JSONEncoder indents them (a JSON string holds no raw newline, so every line of an
    /// entry but an empty one is indented alike).
    func encoded() -> Data {
        var skeleton = self
        (skeleton.groups, skeleton.people) = ([], [])
        // Bytes, not Data: Data's generic search and per-call appends cost more than the encoding.
        let frame = [UInt8](JSONOutput.encode(skeleton))
        var out: [UInt8] = []
        var done = frame.startIndex
        for (key, entries) in [("groups", groups.map(JSONOutput.encode)), ("people", people.map(JSONOutput.encode))] where !entries.isEmpty {
            let empty = Array("\n  \"\(key)\" : [\n\n  ]".utf8)
            guard let start = Self.index(of: empty, in: frame, from: done) else { return JSONOutput.encode(self) }
            out += frame[done..<start]
            out += Array("\n  \"\(key)\" : [\n".utf8)
            for (index, entry) in entries.enumerated() {
                if index > 0 { out += Array(",\n".utf8) }
                // Each entry ends in JSONOutput's newline, which the list does not want.
                for (number, line) in entry.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                    if number > 0 { out.append(0x0A) }
                    // The empty line of an empty list stays empty, as JSONEncoder leaves it.
                    if !line.isEmpty { out += [0x20, 0x20, 0x20, 0x20] }
                    out += line
                }
            }
            out += Array("\n  ]".utf8)
            done = start + empty.count
        }
        out += frame[done...]
        return Data(out)
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
