import Foundation
import OrderPressConfig
import OrderPressFetch
import OrderPressSupport

/// Normalises and checks every row: each one becomes an `Order` or a `RejectedRow` with all its reasons.
public struct Validator: Sendable {
    public var configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The orders, groups and rejected rows, and what the diff reads beside them: every row as it compares
    /// them, and the secret cells of the same rows read in the same pass. Throws when a required column is
    /// not in a sheet: every row would be rejected, or every order in an unknown group, and the site would
    /// show nothing but that.
    /// The orders' cells are let go before the rows for the diff are made when the caller hands over its
    /// only copy of `sheet`: every text they need is in the orders and the rows by then.
    /// `known`: what the last snapshot knew of its rows (`KnownRows`), asked for once the sheet-wide rules
    /// are settled (the state is read on the other core meanwhile); a valid row it holds a valid record of,
    /// under the same context, is handed over as `SheetRow.kept`.
    package func validateSheet(
        orders sheet: consuming SourceTable, groups: SourceTable?, known: () -> KnownRows? = { nil }
    ) throws(DataError) -> ValidatedSheet {
        let columns = configuration.orderColumns
        // Rows nobody filled in (a checkbox column's unused rows) are no rows at all: neither orders nor rejected.
        var orders: SourceTable, blankRows: Int
        (orders, blankRows) = BlankRows.skipping(sheet, columns: columns.mapped)
        _ = consume sheet
        try requireColumns(
            [("group", columns.group), ("person", columns.person), ("item", columns.item), ("price", columns.price)],
            in: orders, mapping: "orders.columns")
        try requireUniqueColumns(columns.mapped, in: orders)
        if let groups {
            try requireColumns([("group name", configuration.groupColumns.name)], in: groups, mapping: "groups.columns")
            try requireUniqueColumns(configuration.groupColumns.mapped, in: groups)
        }
        var warnings: [DataWarning] = []
        var signedAmounts = 0
        let listedGroups = groups.map { readGroups($0, warnings: &warnings, signedAmounts: &signedAmounts) }
        warnings += unmappedColumnWarnings(orders, mapped: columns.mapped)

        let reader = RowReader(table: orders, columns: configuration.orderColumns)
        // Every row names its group: found by the name's words first (see `GroupPlaces`).
        let listed = listedGroups.map { (groups: $0, places: GroupPlaces($0)) }
        let roles = Roles(reader)
        // Rows are independent until groups are resolved: the two halves of a large sheet are read on two cores,
        // each row's order and candidate put in place in the final arrays. Each row's order apart from the rest
        // of what was read of it: when no row is rejected (the usual sheet), that array is the valid orders as it
        // is, not a second copy of a million of them.
        var (read, candidates, chunks) = Parallel.fill(count: orders.dataRowCount) { (range, put: (Int, consuming Order, consuming Candidate) -> Void) -> Chunk in
            var chunk = Chunk()
            // Ids are usually one per row: the counts made at their size once, not grown fourteen times over.
            if roles.id != nil { chunk.idCounts.reserveCapacity(range.count) }
            // Orders pick their options from a few sizes and sweetnesses: each distinct list is kept
            // once and shared, not allocated again for every order (about 100 bytes a row).
            var optionLists: [[String]: [String]] = [:]
            // The same, found by the options' words first (`TextBits`: hashing CJK text is costly).
            var knownLists: [OptionBits: [String]] = [:]
            // Each thread remembers the zone's offsets for the hours its rows' times fall in.
            var offsets = ZoneOffsets(configuration.timeZone)
            var people = PersonKeys()
            let numbers = orders.numbers
            // Each long text that repeats (a group's name in each of its orders, a person's e-mail in each of
            // theirs) made once on this thread; room for a few long texts a row.
            var repeated = RepeatedTexts(texts: range.count * 4)
            // Each row's order and candidate taken as owned and moved into the arrays: an order copied there
            // retained and released each of its texts, on both cores at once.
            func hand(_ row: Int, _ order: consuming Order, _ candidate: consuming Candidate, group: Int?) {
                if !order.options.isEmpty {
                    let bits = OptionBits(order.options)
                    if let bits, let shared = knownLists[bits] {
                        order.options = shared
                    } else {
                        if let shared = optionLists[order.options] { order.options = shared } else { optionLists[order.options] = order.options }
                        if let bits { knownLists[bits] = order.options }
                    }
                }
                if let id = order.id {
                    // One look-up for an id not seen yet, the usual case.
                    if let count = chunk.idCounts.updateValue(1, forKey: id) {
                        chunk.idCounts[id] = count + 1
                        chunk.repeatsId = true
                    }
                }
                // With a groups source, each order's group is found here, on both cores (see `GroupsFound`).
                if listed != nil {
                    chunk.groups.groupOfOrder.append(group ?? -1)
                    if let group, candidate.reasons.isEmpty, candidate.currencyFromRow {
                        chunk.groups.currencyVotes[group, default: [:]][order.currency, default: 0] += 1
                    }
                }
                put(row, consume order, consume candidate)
            }
            // Apart from `chunk`, which `hand` captures: two of its fields lent at once are one access to it.
            var dates = DateEvidence()
            var signedPrices = 0
            // Each row's fingerprint made here, while its cells are in the cache: a pass of its own after the
            // rows were read went through every cell again.
            let width = orders.headers.count
            orders.withCells { cells in
                for row in range {
                    var (order, candidate, group) = check(
                        cells, row: row, number: numbers[row], reader: reader, roles: roles, listed: listed, offsets: &offsets,
                        people: &people, repeated: &repeated, warnings: &chunk.warnings, dates: &dates, signedPrices: &signedPrices)
                    candidate.fingerprint = SourceTable.rowFingerprint(row, width: width, in: cells)
                    hand(row, consume order, consume candidate, group: group)
                }
            }
            (chunk.dates, chunk.signedPrices) = (dates, signedPrices)
            return chunk
        }
        var dates = DateEvidence()
        for chunk in chunks {
            warnings += chunk.warnings
            dates.merge(chunk.dates)
        }
        settleTimes(dates, orders: &read, warnings: &warnings)
        // CSV rows whose cells sit a column off are rejected whole, before anything reads their texts.
        let shifted = orders.fromCSV ? shiftedRows(orders, read: read, candidates: candidates, warnings: warnings) : [:]
        if !shifted.isEmpty {
            for (index, reason) in shifted {
                candidates[index].reasons = [reason]
                read[index] = Order(
                    row: read[index].row, id: nil, group: "", person: "", personKey: .none, item: "", options: [], quantity: 1,
                    unitPrice: 0, currency: configuration.baseCurrency, time: nil, timeText: "", note: "", paid: false)
            }
            let numbers = Set(shifted.keys.map { read[$0].row })
            warnings.removeAll { $0.row.map(numbers.contains) ?? false }
        }
        let found = listed == nil ? nil : GroupsFound(joining: chunks.map(\.groups))
        // Counted by each chunk: a list of rows for every id would be an array for every row. In the usual
        // sheet no id repeats, and every row with an id is the only one with it: the counts are only summed
        // (a second table of every id, grown on one core) and looked up again when one does.
        let idsRepeat = chunks.contains(where: \.repeatsId) || Self.sharesIds(chunks)
        let idCounts = idsRepeat ? Self.idCounts(takenFrom: &chunks) : [:]
        let groupList = resolveGroups(listed: listedGroups, found: found, orders: &read, candidates: &candidates)
        let anyRejected = candidates.contains { !$0.reasons.isEmpty }
        var valid: [Order] = anyRejected ? [] : read
        var rejected: [RejectedRow] = []
        var malformed = orders.malformed[...]
        // By index: iterating the arrays would copy every order and candidate, and retain each of their texts.
        for index in read.indices {
            let row = read[index].row
            while let malformedRow = malformed.first, malformedRow.number < row {
                rejected.append(Self.rejected(malformedRow, headerCount: orders.headers.count))
                malformed.removeFirst()
            }
            if candidates[index].reasons.isEmpty {
                if anyRejected { valid.append(read[index]) }
            } else if shifted[index] != nil {
                rejected.append(RejectedRow(row: row, values: [], details: candidates[index].reasons))
            } else {
                var rejectedRow = RejectedRow(
                    row: row, values: reader.shownValues(values: candidates[index].values, secrets: candidates[index].secrets),
                    details: candidates[index].reasons)
                rejectedRow.name(person: read[index].person, key: read[index].personKey, group: read[index].group)
                rejected.append(rejectedRow)
            }
        }
        rejected += malformed.map { Self.rejected($0, headerCount: orders.headers.count) }
        var rowsById: [String: [Int]] = [:]
        if idsRepeat {
            for index in read.indices {
                if let id = read[index].id, idCounts[id, default: 0] > 1 { rowsById[id, default: []].append(read[index].row) }
            }
        }
        warnings += duplicateIdWarnings(rowsById)
        warnings += RepeatedSubmissions.warnings(valid)
        // Each person's spellings, from every row that names them (valid or not), read where the rows are.
        let spellings = read.withUnsafeBufferPointer { rows in
            PersonSpellings(rows.indices.lazy.map { index in (rows[index].person, rows[index].personKey, rows[index].row) })
        }
        warnings += spellings.warnings
        if let listed = listedGroups, let found {
            warnings += Self.unmatchedOrganizers(listed, groupOfOrder: found.groupOfOrder, read: read, candidates: candidates, spellings: spellings)
        }
        let shownColumns = reader.displayColumns.filter { !reader.secret.contains($0) }
        let secretColumns = reader.displayColumns.filter { reader.secret.contains($0) }
        let identity = RowIdentity(columns: shownColumns, idColumn: columns.id, paidColumn: columns.paid)
        // Captured as constants: an element of a captured `var` is copied out of its box before it can be
        // lent, and 100,000 orders and candidates copied (their texts retained, then released) took longer
        // than making the rows.
        // A shifted row, like one whose fields do not fit the header, is not compared or stored: any of its cells could be a secret.
        let kept = shifted.isEmpty ? nil : read.indices.filter { shifted[$0] == nil }
        let (madeOrders, madeCandidates) = kept.map { kept in (kept.map { read[$0] }, kept.map { candidates[$0] }) } ?? (read, candidates)
        var data = ValidatedData(
            groups: groupList, orders: valid, rejected: rejected, warnings: warnings.sorted(),
            rowsRead: orders.rowCount, tracksPayments: orders.headers.contains(configuration.orderColumns.paid),
            malformedRows: orders.malformed.count + shifted.count, blankRows: blankRows,
            amountsWithSign: signedAmounts + chunks.reduce(0) { $0 + $1.signedPrices })
        data.spellings = spellings
        // Each row's cells as they came, and what else validating it read: how a rerun tells the rows it
        // need not make records of again (`RowContext`).
        let fingerprints = RowFingerprints(madeCandidates.map(\.fingerprint))
        let context = RowContext(
            configuration: configuration, table: orders, groups: groupList, dateOrder: dates.order(configured: configuration.orders.dateOrder),
            shiftedRows: shifted.keys.sorted())
        // Read no more: at a million rows its cells' array alone is 200 MB.
        orders = SourceTable(name: orders.name, headers: [], rows: [])
        let counts = idsRepeat ? idCounts : nil
        // Only under the context the last snapshot's records were made under does a row's fingerprint tell its record.
        let last = known().flatMap { $0.holds(context) ? $0 : nil }
        // Each row apart from the others, a range on each core, with its secret cells: the rows' amounts
        // worked out once for each distinct product (`AmountProducts`). A row the last snapshot holds
        // (`keptPosition`) is only its identity: the diff keeps its record and reads nothing else of it.
        // Each row's order and candidate lent in place: an element of an array captured by the closure was
        // copied out of it (its texts retained, then released) for every row.
        let (rows, secretRows, keptCounts) = madeOrders.withUnsafeBufferPointer { madeOrders in
            madeCandidates.withUnsafeBufferPointer { madeCandidates in
                Parallel.fill(count: madeOrders.count, minimumChunk: 5_000) {
                    (range, put: (Int, consuming SheetRow, consuming [SecretValue]) -> Void) -> Int in
                    var products = AmountProducts()
                    var kept = 0
                    // How far the last snapshot's records are from this run's rows, as the last row found tells it.
                    var drift = 0
                    for index in range {
                        if let last, let position = Self.keptPosition(madeCandidates[index], in: last, near: index + drift) {
                            drift = position - index
                            put(
                                index,
                                .kept(
                                    keptRow(madeOrders[index], madeCandidates[index], identity: identity, idCounts: counts, last: last, known: position)),
                                [])
                            kept += 1
                            continue
                        }
                        put(
                            index, .validated(row(madeOrders[index], madeCandidates[index], identity: identity, idCounts: counts, products: &products)),
                            madeCandidates[index].secrets)
                    }
                    return kept
                }
            }
        }
        var sheet = ValidatedSheet(data: data, columns: shownColumns, secrets: SecretCells(columns: secretColumns, rows: secretRows))
        (sheet.rows, sheet.fingerprints, sheet.context) = (rows, fingerprints, context)
        sheet.keptRows = keptCounts.reduce(0, +)
        return sheet
    }

    /// What the diff needs of a row: its identity, its mapped values and what it meant. `idCounts`: how
    /// many rows use each id; nil when none is used twice.
    /// Borrowed: an order copied out of the array for every row retained and released its texts.
    private func row(
        _ order: borrowing Order, _ candidate: borrowing Candidate, identity: RowIdentity, idCounts: [String: Int]?, products: inout AmountProducts
    ) -> ValidatedRow {
        let valid = candidate.reasons.isEmpty
        return ValidatedRow(
            row: order.row, id: order.id, identity: Self.identity(order, candidate, rule: identity, idCounts: idCounts),
            values: candidate.values, rejected: !valid, group: order.group, person: order.person, item: order.item,
            options: order.options, quantity: order.quantity, amount: valid ? products.amount(of: order) : nil,
            currency: valid ? order.currency : candidate.currencyText)
    }

    /// The last snapshot's position of a valid record made from `candidate`'s cells (near `guess`), when `candidate` is
    /// valid after every rule of the sheet and has every secret cell seen (a record made again would look
    /// up the last hash of one it could not see).
    private static func keptPosition(_ candidate: borrowing Candidate, in last: KnownRows, near guess: Int) -> Int? {
        guard candidate.reasons.isEmpty, !candidate.secrets.contains(where: \.isUnknown) else { return nil }
        return last.position(of: candidate.fingerprint, near: guess)
    }

    /// What the diff reads of a row it keeps the record of (`KeptRow`, the last snapshot's at `known`): its
    /// identity, that record's when it is made the same way (by id, or by content, as `row` makes it), so
    /// not hashed again; made as `row` makes it when not (an id that became shared or no longer is).
    private func keptRow(
        _ order: borrowing Order, _ candidate: borrowing Candidate, identity rule: RowIdentity, idCounts: [String: Int]?, last: KnownRows,
        known: Int
    ) -> KeptRow {
        let idCount = Self.idCount(order, idCounts: idCounts)
        let identity =
            last.identity(at: known, byID: Identity.isByID(id: order.id ?? "", idCount: idCount), rule: rule)
            ?? Identity(id: order.id ?? "", idCount: idCount, values: candidate.values, rule: rule)
        return KeptRow(row: order.row, id: order.id, identity: identity, known: Int32(known))
    }

    /// A row's identity: by its id when no other row uses it (`idCounts`: how many rows use each id; nil
    /// when none is used twice), else by its values.
    private static func identity(
        _ order: borrowing Order, _ candidate: borrowing Candidate, rule: RowIdentity, idCounts: [String: Int]?
    ) -> Identity {
        Identity(id: order.id ?? "", idCount: idCount(order, idCounts: idCounts), values: candidate.values, rule: rule)
    }

    /// How many rows use `order`'s id (0 without one; 1 when `idCounts` is nil: none is used twice).
    private static func idCount(_ order: borrowing Order, idCounts: [String: Int]?) -> Int {
        order.id.map { id in idCounts.map { $0[id] ?? 0 } ?? 1 } ?? 0
    }

    /// A row whose cells cannot be matched to columns shows none of them: any could be a secret.
    private static func rejected(_ row: SourceTable.MalformedRow, headerCount: Int) -> RejectedRow {
        RejectedRow(row: row.number, values: [], details: [Reason.malformed(row, headerCount: headerCount)])
    }

    // MARK: - Rows

    /// "Did you mean …": a group whose organiser is no one who ordered (`PersonKey`), but one letter away
    /// from someone who did in that group. `groupOfOrder`: each row's place in `listed`, or -1.
    private static func unmatchedOrganizers(
        _ listed: [Group], groupOfOrder: [Int], read: [Order], candidates: [Candidate], spellings: PersonSpellings
    ) -> [DataWarning] {
        let organizers = listed.map(\.organizerKey)
        guard organizers.contains(where: { !$0.isEmpty }) else { return [] }
        var matched = organizers.map(\.isEmpty)
        // Lengths first: comparing every row's name with its organiser's as text was a cost of every run.
        let organizerLengths = organizers.map(\.text.utf8.count)
        for index in read.indices where candidates[index].reasons.isEmpty {
            let group = groupOfOrder[index]
            guard group >= 0, !matched[group], read[index].personKey.text.utf8.count == organizerLengths[group] else { continue }
            if UTF8Key(read[index].personKey.text) == UTF8Key(organizers[group].text) { matched[group] = true }
        }
        guard matched.contains(false) else { return [] }
        // Only the unmatched organisers' groups are read again; a name several letters longer or shorter is no candidate.
        var suggestions: [Int: String] = [:]
        for index in read.indices where candidates[index].reasons.isEmpty {
            let group = groupOfOrder[index]
            guard group >= 0, !matched[group], suggestions[group] == nil else { continue }
            let key = read[index].personKey
            guard abs(key.text.utf8.count - organizers[group].text.utf8.count) <= 4, key.isOneEdit(from: organizers[group]) else { continue }
            suggestions[group] = spellings.shown(key.text, else: read[index].person)
        }
        // An organiser who orders in another group is someone, not a typo: one scan, only when there is a suggestion.
        if !suggestions.isEmpty {
            var suggested = Set(suggestions.keys.map { UTF8Key(organizers[$0].text) })
            // Only a name as long as one of theirs is looked up: hashing every row's was most of this scan.
            let lengths = Set(suggested.map(\.text.utf8.count))
            for index in read.indices where candidates[index].reasons.isEmpty && !suggested.isEmpty {
                let key = read[index].personKey.text
                guard lengths.contains(key.utf8.count) else { continue }
                suggested.remove(UTF8Key(key))
            }
            suggestions = suggestions.filter { suggested.contains(UTF8Key(organizers[$0.key].text)) }
        }
        return listed.indices.compactMap { group in
            guard let suggestion = suggestions[group] else { return nil }
            let (name, organizer) = (listed[group].name, listed[group].organizer)
            return DataWarning(
                row: nil,
                Reason(
                    .organizerUnmatched, ["group": name, "organizer": organizer, "suggestion": suggestion]))
        }
    }

    /// What one range of rows found besides its orders and candidates.
    private struct Chunk {
        var warnings: [DataWarning] = []
        /// How many of the range's rows use each id, and whether any is used twice.
        var idCounts: [String: Int] = [:]
        var repeatsId = false
        var groups = GroupsFound()
        /// What the range's times prove of the source's date order, and the times it leaves unsettled.
        var dates = DateEvidence()
        /// Prices read with their currency's sign (`¥300`).
        var signedPrices = 0
    }

    /// Reads the times whose day and month only the source's evidence settles (`DateEvidence`), or warns
    /// that each is shown as written.
    private func settleTimes(_ dates: DateEvidence, orders: inout [Order], warnings: inout [DataWarning]) {
        guard !dates.unsettled.isEmpty else { return }
        let order = dates.order(configured: configuration.orders.dateOrder)
        for index in dates.unsettled {
            let text = orders[index].timeText
            if let order, let time = Timestamp.read(text, order: order, timeZone: configuration.timeZone).date {
                orders[index].time = time
                continue
            }
            warnings.append(
                .init(
                    row: orders[index].row,
                    Reason(
                        .timeUnsettled, ["value": text, "table": configuration.orders.name])))
        }
    }

    /// With a groups source, what `resolveGroups` needs of the rows, found as they are read: each row's
    /// group (its position in the list, -1 for none), and the currencies of the valid rows that name
    /// one, counted by group.
    private struct GroupsFound {
        var groupOfOrder: [Int] = []
        var currencyVotes: [Int: [String: Int]] = [:]

        init() {}

        /// The ranges' findings, in row order.
        init(joining parts: [GroupsFound]) {
            groupOfOrder.reserveCapacity(parts.reduce(0) { $0 + $1.groupOfOrder.count })
            for part in parts {
                groupOfOrder += part.groupOfOrder
                currencyVotes.merge(part.currencyVotes) { mine, theirs in mine.merging(theirs, uniquingKeysWith: +) }
            }
        }
    }

    /// Whether an id of one chunk is also one of another's.
    private static func sharesIds(_ chunks: [Chunk]) -> Bool {
        for (index, chunk) in chunks.enumerated().dropFirst() {
            for id in chunk.idCounts.keys where chunks[..<index].contains(where: { $0.idCounts[id] != nil }) { return true }
        }
        return false
    }

    /// The chunks' id counts summed, taken out of them: the largest moved as it is (held nowhere else, it
    /// is not copied), the others added to it.
    private static func idCounts(takenFrom chunks: inout [Chunk]) -> [String: Int] {
        guard let largest = chunks.indices.max(by: { chunks[$0].idCounts.count < chunks[$1].idCounts.count }) else { return [:] }
        var total: [String: Int] = [:]
        swap(&total, &chunks[largest].idCounts)
        for index in chunks.indices where index != largest {
            total.merge(chunks[index].idCounts, uniquingKeysWith: +)
            chunks[index].idCounts = [:]
        }
        return total
    }

    /// A row on its way through validation, beside its `Order` (which holds what could be read even when rejected).
    private struct Candidate {
        var reasons: [Reason]
        /// The currency cell as written (upper-cased); "" when the row left it to its group.
        var currencyText: String
        /// The row's non-secret mapped values and its secret cells (`RowReader.split`).
        var values: [String]
        var secrets: [SecretValue]
        /// The row's cells as the sheet gave them (`SourceTable.rowFingerprint(_:)`).
        var fingerprint = Digest128(high: 0, low: 0)
        var currencyFromRow: Bool { !currencyText.isEmpty }
    }

    /// Each short name's key (`PersonKey`) made once on a thread, found by the name's words (`TextBits`):
    /// most rows name someone who ordered before.
    private struct PersonKeys {
        private var known = FlatTable<TextBits>()
        private var keys: [PersonKey] = []

        mutating func key(_ name: String) -> PersonKey {
            guard let bits = TextBits(name) else { return PersonKey(name) }
            if let index = known[bits] { return keys[Int(index)] }
            let key = PersonKey(name)
            known.insert(bits, Int32(keys.count))
            keys.append(key)
            return key
        }
    }

    /// Up to four options by their words (`TextBits`): a cache key in front of the options themselves,
    /// valid while the list it was made from lives.
    private struct OptionBits: Hashable {
        var count: Int
        var first, second, third, fourth: TextBits?

        init?(_ options: [String]) {
            guard options.count <= 4 else { return nil }
            func word(_ index: Int) -> TextBits?? {
                guard index < options.count else { return .some(nil) }
                return TextBits(options[index]).map { .some($0) }
            }
            guard let first = word(0), let second = word(1), let third = word(2), let fourth = word(3) else { return nil }
            (count, self.first, self.second, self.third, self.fourth) = (options.count, first, second, third, fourth)
        }

        /// One word of the options' words, mixed: the synthesised hash fed the count and each optional
        /// word apart (a dozen rounds of the hasher), for every row that names options.
        func hash(into hasher: inout Hasher) {
            func spread(_ bits: TextBits?) -> UInt64 { bits.map { $0.spread } ?? 0 }
            hasher.combine(
                FlatTable<TextBits>.mix(
                    FlatTable<TextBits>.mix(spread(first), spread(second) &+ UInt64(count)), FlatTable<TextBits>.mix(spread(third), spread(fourth))))
        }
    }

    /// Where each field's column is among a row's mapped texts (nil: the sheet lacks it), found once per table.
    private struct Roles {
        let person, item, group, price, quantity, currency, note, time, id, paid: RowReader.Place?
        let options: [RowReader.Place]

        init(_ reader: RowReader) {
            let columns = reader.columns
            person = reader.place(columns.person)
            item = reader.place(columns.item)
            group = reader.place(columns.group)
            price = reader.place(columns.price)
            quantity = reader.place(columns.quantity)
            currency = reader.place(columns.currency)
            note = reader.place(columns.note)
            time = reader.place(columns.time)
            id = reader.place(columns.id)
            paid = reader.place(columns.paid)
            options = columns.options.compactMap(reader.place)
        }
    }

    private func check(
        _ cells: CellStore.View, row index: Int, number: Int, reader: RowReader, roles: Roles,
        listed: (groups: [Group], places: GroupPlaces)?, offsets: inout ZoneOffsets, people: inout PersonKeys, repeated: inout RepeatedTexts,
        warnings: inout [DataWarning],
        dates: inout DateEvidence, signedPrices: inout Int
    ) -> (Order, Candidate, group: Int?) {
        let columns = configuration.orderColumns
        let (values, secrets) = reader.read(cells, row: index, repeated: &repeated)
        func text(_ place: RowReader.Place?) -> String {
            switch place {
            case .value(let slot): return values[slot]
            case .secret(let slot): return secrets[slot].text
            case nil: return ""
            }
        }
        var reasons: [Reason] = []

        let person = text(roles.person)
        if person.isEmpty { reasons.append(Reason(.personMissing, ["column": columns.person])) }
        let item = text(roles.item)
        if item.isEmpty { reasons.append(Reason(.itemMissing, ["column": columns.item])) }
        let group = text(roles.group)
        let groupPosition = group.isEmpty ? nil : listed?.places.place(group)
        // Only its currency is read: the whole group (and the list, captured by a closure) copied for
        // every row, its texts retained and released, was a cost on every row.
        var knownCurrency: String?
        if let groupPosition, let listed { knownCurrency = listed.groups[groupPosition].currency }
        if group.isEmpty {
            reasons.append(Reason(.groupMissing, ["column": columns.group]))
        } else if listed != nil, groupPosition == nil {
            reasons.append(Reason(.groupUnknown, ["group": group]))
        }

        let currencyText = text(roles.currency).uppercased()
        let currency: String
        if !currencyText.isEmpty {
            currency = currencyText
            if !isKnownCurrency(currencyText) {
                reasons.append(Reason(.currencyUnknown, ["value": currencyText]))
            }
        } else if let groupCurrency = knownCurrency, !groupCurrency.isEmpty {
            currency = groupCurrency
        } else {
            currency = configuration.baseCurrency
        }

        let priceText = text(roles.price)
        var price: Decimal?
        // The row's currency's sign may stand beside the price, as a currency-formatted cell shows it.
        switch PriceText.read(priceText, separator: configuration.orders.decimalSeparator, currency: currency) {
        case .success(let amount):
            price = amount.value
            if amount.signed { signedPrices += 1 }
        case .failure(let problem):
            reasons.append(
                problem.explained(
                    column: columns.price, fromSheetAPI: Self.readsSheetAPI(configuration.orders.location), table: configuration.orders.name))
        }

        let quantityText = text(roles.quantity)
        let quantity = QuantityText.parse(quantityText)
        if quantity == nil { reasons.append(QuantityText.problem(quantityText)) }

        // One array, at most as long as the option columns: `map` then `filter` made two and grew the second.
        var options: [String] = []
        if !roles.options.isEmpty {
            options.reserveCapacity(roles.options.count)
            for place in roles.options {
                let option = text(place)
                if !option.isEmpty { options.append(option) }
            }
        }
        let note = text(roles.note)
        let timeText = text(roles.time)
        var time: Date?
        if !timeText.isEmpty {
            switch Timestamp.read(timeText, order: configuration.orders.dateOrder, offsets: &offsets) {
            case .time(let date, _, let proves):
                time = date
                dates.note(proves)
            case .unsettled:
                // Read, or warned about, once every row's evidence is in (`settleTimes`).
                dates.unsettled.append(index)
            case .unreadable:
                warnings.append(
                    .init(
                        row: number,
                        Reason(
                            .timeUnreadable, ["value": timeText])))
            }
        }
        // Checked one by one, not through an array of them made for every row.
        func checkLength(_ code: ReasonCode, _ value: String, _ limit: Int) {
            // Counting characters is slow; a text never has more of them than UTF-8 bytes.
            if value.utf8.count > limit, value.count > limit {
                warnings.append(.init(row: number, Reason(code, ["limit": String(limit)])))
            }
        }
        checkLength(.personTooLong, person, TextLimits.person)
        checkLength(.itemTooLong, item, TextLimits.item)
        checkLength(.noteTooLong, note, TextLimits.note)
        for option in options { checkLength(.optionTooLong, option, TextLimits.option) }

        let paid = PaidText.read(text(roles.paid), column: columns.paid, row: number, warnings: &warnings)
        let id = text(roles.id)
        let order = Order(
            row: number, id: id.isEmpty ? nil : id, group: group, person: person,
            personKey: people.key(person), item: item, options: options, quantity: quantity ?? 1,
            unitPrice: price ?? 0, currency: currency, time: time, timeText: timeText, note: note, paid: paid)
        return (order, Candidate(reasons: reasons, currencyText: currencyText, values: values, secrets: secrets), groupPosition)
    }

    /// A sheet (the orders, or the groups tab) comes from a SheetDB-style URL whose `mode=UNFORMATTED_VALUE`
    /// would undo the sheet's number formats: not from a file, and not from a URL that asks for it already (a
    /// `$1.23` then was typed as text). One rule for every cell the hint is given for (price, fee, discount).
    static func readsSheetAPI(_ location: Configuration.Location) -> Bool {
        guard case .url(let url) = location else { return false }
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return !items.contains { $0.name.lowercased() == "mode" && $0.value?.uppercased() == "UNFORMATTED_VALUE" }
    }

    /// The rows found shifted (`ShiftedCells`), by index, with the reason: only rows already rejected or warned about are looked at.
    private func shiftedRows(_ orders: SourceTable, read: [Order], candidates: [Candidate], warnings: [DataWarning]) -> [Int: Reason] {
        let warned = Set(warnings.compactMap(\.row))
        var suspects: [Int] = []
        for index in read.indices where !candidates[index].reasons.isEmpty || warned.contains(read[index].row) { suspects.append(index) }
        guard !suspects.isEmpty else { return [:] }
        var check = ShiftedCells(
            table: orders, columns: configuration.orderColumns, timeZone: configuration.timeZone,
            separator: configuration.orders.decimalSeparator, isKnownCurrency: isKnownCurrency)
        var found: [Int: Reason] = [:]
        let suspected = Set(suspects)
        for index in suspects {
            if let reason = check.reason(row: index, in: orders, suspects: suspected) { found[index] = reason }
        }
        return found
    }

    private func isKnownCurrency(_ code: String) -> Bool {
        Currency.codes.contains(code) || configuration.minorUnits[code] != nil
    }

    // MARK: - Groups

    /// The groups source's rows in sheet order, without nameless or repeated ones.
    private func readGroups(_ table: SourceTable, warnings: inout [DataWarning], signedAmounts: inout Int) -> [Group] {
        let columns = configuration.groupColumns
        let cells = CellReader(table)
        func text(_ row: Int, _ column: String) -> String { cells.text(table, row, column) }
        warnings += unmappedColumnWarnings(table, mapped: columns.mapped)
        warnings += table.malformed.map {
            $0.swallowedLines == nil
                ? DataWarning(
                    row: nil,
                    Reason(
                        .sourceRowFields,
                        ["table": table.name, "row": String($0.number), "count": String($0.fieldCount), "header_count": String(table.headers.count)]))
                : DataWarning(
                    row: nil,
                    Reason(
                        .sourceRowSwallowed,
                        ["table": table.name, "row": String($0.number), "first": String($0.swallowedLines!.lowerBound),
                         "last": String($0.swallowedLines!.upperBound)],
                        english: "\(table.name) row \($0.number) is ignored: it \($0.reason(headerCount: table.headers.count))"))
        }
        var groups: [Group] = []
        var names = Set<String>()
        let fromSheetAPI = configuration.groups.map { Self.readsSheetAPI($0.location) } ?? false
        // Deadlines whose day and month only the groups source's evidence settles (`DateEvidence`).
        let configuredOrder = configuration.groups?.dateOrder
        let separator = configuration.groups?.decimalSeparator ?? .point
        let sourceName = configuration.groups?.name ?? "groups"
        var dates = DateEvidence()
        var unsettled: [(row: Int, text: String)] = []
        for row in 0..<table.dataRowCount {
            let number = table.numbers[row]
            let name = text(row, columns.name)
            // A row nobody filled in (`BlankRows`) is nothing to warn about.
            if name.isEmpty, columns.mapped.allSatisfy({ BlankRows.isBlank(text(row, $0)) }) { continue }
            guard !name.isEmpty else {
                warnings.append(.init(row: nil, Reason(.groupNameless, ["row": String(number)])))
                continue
            }
            guard names.insert(name).inserted else {
                warnings.append(
                    .init(
                        row: nil,
                        Reason(.groupRepeated, ["row": String(number), "group": name])))
                continue
            }
            var currency = text(row, columns.currency).uppercased()
            if !currency.isEmpty, !isKnownCurrency(currency) {
                warnings.append(
                    .init(
                        row: nil,
                        Reason(
                            .groupCurrencyUnknown, ["row": String(number), "value": currency, "currency": configuration.baseCurrency])))
                currency = configuration.baseCurrency
            }
            let deadline = text(row, columns.deadline)
            if !deadline.isEmpty {
                switch Timestamp.read(deadline, order: configuredOrder, timeZone: configuration.timeZone, endOfDay: true) {
                case .time(_, _, let proves): dates.note(proves)
                case .unsettled: unsettled.append((number, deadline))
                case .unreadable:
                    warnings.append(
                        .init(
                            row: nil,
                            Reason(
                                .deadlineUnreadable, ["row": String(number), "value": deadline])))
                }
            }
            // A fee's sign is the group's currency's; a group that names none is priced in the base currency.
            func amount(_ column: String) -> GroupAmount.Reading {
                GroupAmount.read(
                    text(row, column), column: column, row: number, fromSheetAPI: fromSheetAPI, separator: separator,
                    currency: currency.isEmpty ? configuration.baseCurrency : currency, table: sourceName, warnings: &warnings)
            }
            let (fee, discount) = (amount(columns.fee), amount(columns.discount))
            signedAmounts += (fee.signed ? 1 : 0) + (discount.signed ? 1 : 0)
            var group = Group(
                name: name, organizer: text(row, columns.organizer), shop: text(row, columns.shop),
                currency: currency, deadline: text(row, columns.deadline), payment: text(row, columns.payment),
                fee: fee.value, discount: discount.value)
            (group.feeNotCounted, group.discountNotCounted) = (fee.notCounted, discount.notCounted)
            groups.append(group)
        }
        let order = dates.order(configured: configuredOrder)
        for index in groups.indices { groups[index].dateOrder = order }
        for (number, deadline) in unsettled
        where order.map({ Timestamp.read(deadline, order: $0, timeZone: configuration.timeZone).date == nil }) ?? true {
            let table = configuration.groups?.name ?? "groups"
            warnings.append(
                .init(
                    row: nil,
                    Reason(
                        .deadlineUnsettled, ["row": String(number), "value": deadline, "table": table])))
        }
        return groups
    }

    /// The final group list (source order, then groups first named by orders) with each group's
    /// currency settled; rows priced in another currency than their group's are rejected.
    /// `found`: what the rows' reading found of their groups, when there is a groups source.
    private func resolveGroups(listed: [Group]?, found: GroupsFound?, orders: inout [Order], candidates: inout [Candidate]) -> [Group] {
        var groups = listed ?? []
        // Each order's group looked up once (-1: none), and votes counted by group number.
        var (groupOfOrder, currencyVotes) = (found?.groupOfOrder ?? [], found?.currencyVotes ?? [:])
        if found == nil {
            // Without a groups source (`found` comes with one), the groups are those the orders name, in
            // the order they are first named.
            var position: [String: Int] = [:]
            groupOfOrder = [Int](repeating: -1, count: orders.count)
            for index in orders.indices where !orders[index].group.isEmpty {
                let name = orders[index].group
                let found = position[name] ?? groups.count
                if found == groups.count {
                    position[name] = found
                    groups.append(Group(name: name, organizer: "", shop: "", currency: "", deadline: ""))
                }
                groupOfOrder[index] = found
                if candidates[index].reasons.isEmpty, candidates[index].currencyFromRow {
                    currencyVotes[found, default: [:]][orders[index].currency, default: 0] += 1
                }
            }
        }
        for index in groups.indices where groups[index].currency.isEmpty {
            groups[index].currency = majorityCurrency(currencyVotes[index] ?? [:])
        }
        for index in candidates.indices {
            let groupIndex = groupOfOrder[index]
            guard groupIndex >= 0, groups[groupIndex].currency != orders[index].currency, isKnownCurrency(orders[index].currency) else { continue }
            guard candidates[index].currencyFromRow else {
                orders[index].currency = groups[groupIndex].currency
                continue
            }
            let group = groups[groupIndex]
            candidates[index].reasons.append(
                Reason(
                    .currencyDiffers, ["value": orders[index].currency, "group": group.name, "group_currency": group.currency]))
        }
        return groups
    }

    /// The currency most valid rows of a group use; ties go to the base currency, then alphabetically.
    private func majorityCurrency(_ votes: [String: Int]) -> String {
        let best = votes.values.max() ?? 0
        let leaders = votes.filter { $0.value == best }.map(\.key).sorted()
        if leaders.isEmpty || leaders.contains(configuration.baseCurrency) { return configuration.baseCurrency }
        return leaders[0]
    }

    // MARK: - Source-level warnings

    private func unmappedColumnWarnings(_ table: SourceTable, mapped: [String]) -> [DataWarning] {
        let mappedSet = Set(mapped)
        var counts: [String: Int] = [:]
        for header in table.headers where !header.isEmpty { counts[header, default: 0] += 1 }
        let unmapped = counts.keys.filter { !mappedSet.contains($0) }.sorted().map {
            DataWarning(
                row: nil,
                Reason(
                    .columnUnmapped, ["table": table.name, "column": $0]))
        }
        let repeated = counts.filter { $0.value > 1 && !mappedSet.contains($0.key) }.keys.sorted().map {
            DataWarning(
                row: nil,
                Reason(
                    .columnRepeated, ["table": table.name, "column": $0, "count": String(counts[$0]!)]))
        }
        return unmapped + repeated
    }

    /// A mapped column whose name the header repeats (perhaps only after normalisation: `note` and
    /// `note` with a zero-width space) is ambiguous: publishing either could publish what the sheet's
    /// owner meant to keep out of sight.
    private func requireUniqueColumns(_ mapped: [String], in table: SourceTable) throws(DataError) {
        let mappedSet = Set(mapped)
        var positions: [String: [Int]] = [:]
        for (index, header) in table.headers.enumerated() where mappedSet.contains(header) {
            positions[header, default: []].append(index + 1)
        }
        guard let (column, places) = positions.filter({ $0.value.count > 1 }).min(by: { $0.value[0] < $1.value[0] }) else { return }
        let list = places.map(String.init).joined(separator: ", ")
        throw DataError(
            message: "\(table.name): column '\(column)' appears \(places.count) times in the header (columns \(list)); "
                + "rename all but one, so that it is clear which one is read")
    }

    /// Stops at the first table that lacks a required column, naming it and the headers that are there
    /// (names only, shortened: a header is sheet text too). A sheet with no rows at all has no headers
    /// to check; the deletion guard stands for an emptied sheet.
    private func requireColumns(_ required: [(field: String, column: String)], in table: SourceTable, mapping: String) throws(DataError) {
        guard !(table.headers.isEmpty && table.rowCount == 0) else { return }
        let present = Set(table.headers)
        let missing = required.filter { !present.contains($0.column) }
        guard !missing.isEmpty else { return }
        let named = missing.map { "'\($0.column)' (\($0.field))" }
        let headers = table.headers.filter { !$0.isEmpty }
        let shown = headers.prefix(40).map { "'\(Text.shortened($0, to: 40))'" }
        let more = headers.count > 40 ? ", … (\(headers.count) in all)" : ""
        let found = shown.isEmpty ? "none" : shown.joined(separator: ", ") + more
        throw DataError(
            message: "\(table.name): \(missing.count == 1 ? "column" : "columns") \(named.joined(separator: " and ")) "
                + "\(missing.count == 1 ? "is" : "are") not in the sheet (headers found: \(found)); rename the header or fix [\(mapping)] in the configuration")
    }

    /// Ids used by more than one row (valid or not) cannot identify an order.
    private func duplicateIdWarnings(_ rowsById: [String: [Int]]) -> [DataWarning] {
        rowsById.filter { $0.value.count > 1 }.map { id, rows in
            let list = rows.map(String.init).joined(separator: ", ")
            return DataWarning(
                row: rows[0],
                Reason(.idRepeated, ["id": id, "rows": list]))
        }
    }
}
