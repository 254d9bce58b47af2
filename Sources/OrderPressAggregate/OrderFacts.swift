import Foundation
import OrderPressSupport
import OrderPressValidate

/// What aggregation reads of each order, as numbers: its person, group, shop line and currency
/// numbered (in order of first occurrence, by the same equality as before: person keys, group names and
/// currencies as `String`s, shop lines by item, options and unit price), and its amount in millionths.
/// Summing then indexes small flat arrays instead of hashing texts (slow for a CJK name) into
/// a dictionary per person, and adds integers instead of Decimals. Each core numbers its share of
/// the sheet; the shares are merged by their distinct keys only.
struct OrderFacts {
    struct Fact {
        var person: Int32
        package var group: Int32
        var line: Int32
        package var currency: Int32
        /// `Order.amount` in millionths; `ExactSum.unknown` when it is not a whole number of them or does not fit.
        var micros: Int64
        var quantity: Int32
        var paid: Bool

        /// The amount in millionths, if known.
        var amountMicros: Int64? { micros == Self.unknown ? nil : micros }
        static let unknown = Int64.min
    }

    /// What makes two orders of a group one line of its shop sheet.
    struct LineKey: Hashable {
        var item: String
        var options: [String]
        /// The unit price in millionths, or the price itself when it has no such form.
        var unitMicros: Int64
        var unitPrice: Decimal?
    }

    /// By position in the orders.
    let facts: [Fact]
    /// By person number: the first order of each person (their key and name as first written).
    let personFirsts: [UInt32]
    /// The people numbered, to find a person's number by their key (the groups' organisers).
    let personNumbers: Numbering<String>
    /// By shop line number: the first order with that item, options and unit price.
    let lineFirsts: [UInt32]
    /// By group number: the groups' names, first those of the group list (each name once), then names
    /// only orders use (orders in no listed group).
    let groupCount: Int
    /// For each of the group list's groups, its group number (a repeated name has the first one's).
    let listedGroupNumbers: [Int32]
    /// By group number: the name as first numbered (the group list's, else the first order's), and
    /// whether some order writes it in other bytes; where none does, every order's name is this text.
    let groupNames: [String]
    let groupVariants: [Bool]
    /// By currency number, and the same for currencies.
    package let currencies: [String]
    let currencyVariants: [Bool]
    /// Every order's amount summed by currency number.
    let currencyTotals: [ExactSum]

    private struct Share {
        var people = Numbering<String>()
        var groups = Numbering<String>.texts()
        var lines = Numbering<LineKey>()
        var currencies = Numbering<String>.texts()
        var facts: [Fact] = []
        var currencyTotals: [ExactSum] = []
        /// Numbers already found, by the texts' words (see `TextBits`): a name looked up again costs
        /// a hash of two words instead of one of its Unicode.
        var knownPeople = FlatTable<TextBits>()
        var knownGroups = FlatTable<TextBits>()
        var knownLines = FlatTable<LineBits>()
        /// Codes of three letters, always found by their words: the last currency alone was remembered
        /// before, and sheets that mix currencies switch often (2,000 `String` hashes at 10,000 orders).
        var knownCurrencies = FlatTable<TextBits>()

        /// Numbers the order at `position` and sums its amount. A method of the share, not a function
        /// nested in the closure that owns it: that one reached the share as a captured variable, with
        /// a run-time exclusivity check on every access.
        mutating func add(_ order: UnsafePointer<Order>, at position: UInt32) {
            let price = ExactSum.micros(of: order.pointee.unitPrice)
            let micros = ExactSum.micros(unitPrice: price, quantity: order.pointee.quantity)
            let currency = currency(order, at: position)
            if currencyTotals.count < currencies.count { currencyTotals.append(ExactSum()) }
            currencyTotals[Int(currency)].add(micros: micros) { order.pointee.amount }
            facts.append(
                Fact(
                    person: person(order, at: position), group: group(order, at: position),
                    line: line(order, unitMicros: price, at: position), currency: currency, micros: micros ?? Fact.unknown,
                    quantity: Int32(clamping: order.pointee.quantity), paid: order.pointee.paid))
        }

        mutating func person(_ order: UnsafePointer<Order>, at position: UInt32) -> Int32 {
            Self.number(order.pointee.personKey.text, in: &people, known: &knownPeople, at: position)
        }

        mutating func group(_ order: UnsafePointer<Order>, at position: UInt32) -> Int32 {
            Self.number(order.pointee.group, in: &groups, known: &knownGroups, at: position)
        }

        mutating func currency(_ order: UnsafePointer<Order>, at position: UInt32) -> Int32 {
            Self.number(order.pointee.currency, in: &currencies, known: &knownCurrencies, at: position)
        }

        /// `unitMicros`: the unit price in millionths, when it has them.
        mutating func line(_ order: UnsafePointer<Order>, unitMicros: Int64?, at position: UInt32) -> Int32 {
            // The key made only when the cache misses: it copies the item and the options (retains).
            func key() -> LineKey {
                LineKey(
                    item: order.pointee.item, options: order.pointee.options, unitMicros: unitMicros ?? 0,
                    unitPrice: unitMicros == nil ? order.pointee.unitPrice : nil)
            }
            // Equal option lists are one shared array (the validator shares them): its address stands for it.
            guard let unitMicros, let item = TextBits(order.pointee.item) else { return lines.number(key(), at: position) }
            let bits = LineBits(
                item: item, options: order.pointee.options.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }, unitMicros: unitMicros)
            if let known = knownLines[bits] { return known }
            let number = lines.number(key(), at: position)
            knownLines.insert(bits, number)
            return number
        }

        private static func number(_ text: String, in numbering: inout Numbering<String>, known: inout FlatTable<TextBits>, at position: UInt32) -> Int32 {
            guard let bits = TextBits(text) else { return numbering.number(text, at: position) }
            if let number = known[bits] { return number }
            let number = numbering.number(text, at: position)
            known.insert(bits, number)
            return number
        }
    }

    /// A shop line by its item's words, its options' storage and its unit price in millionths: valid
    /// while the orders live, a cache in front of `LineKey`.
    private struct LineBits: Hashable, FlatKey {
        var item: TextBits
        var options: UInt
        var unitMicros: Int64

        var spread: UInt64 { FlatTable<Self>.mix(item.spread ^ UInt64(options), UInt64(bitPattern: unitMicros)) }
    }

    init(_ orders: [Order], groups: [Group]) {
        let shares = Parallel.chunks(count: orders.count) { range in
            var share = Share()
            share.facts.reserveCapacity(range.count)
            // Each order read where it is, through a pointer: `orders[position]`, even handed to a
            // `borrowing` parameter, copied it (every string retained and released).
            orders.withUnsafeBufferPointer { orders in
                for position in range { share.add(orders.baseAddress! + position, at: UInt32(position)) }
            }
            return share
        }
        var people = Numbering<String>()
        var groupNumbers = Numbering<String>.texts()
        var lines = Numbering<LineKey>()
        var currencies = Numbering<String>.texts()
        listedGroupNumbers = groups.map { groupNumbers.number($0.name, at: .max) }
        var facts: [Fact] = []
        facts.reserveCapacity(orders.count)
        var currencyTotals: [ExactSum] = []
        for (index, share) in shares.enumerated() {
            // The first share's people, lines and currencies are numbered as merging them into empty
            // numberings would number them (in order, variants kept): taken as they are, not hashed again.
            // Groups are merged: the group list comes first.
            let first = index == 0
            if first { (people, lines, currencies) = (share.people, share.lines, share.currencies) }
            let (person, group, line, currency) = (
                first ? nil : people.merge(share.people), groupNumbers.merge(share.groups), first ? nil : lines.merge(share.lines),
                first ? nil : currencies.merge(share.currencies)
            )
            facts.append(contentsOf: share.facts)
            for position in (facts.count - share.facts.count)..<facts.count {
                if let person { facts[position].person = person[Int(facts[position].person)] }
                facts[position].group = group[Int(facts[position].group)]
                if let line { facts[position].line = line[Int(facts[position].line)] }
                if let currency { facts[position].currency = currency[Int(facts[position].currency)] }
            }
            currencyTotals += Array(repeating: ExactSum(), count: currencies.count - currencyTotals.count)
            for (local, sum) in share.currencyTotals.enumerated() { currencyTotals[Int(currency?[local] ?? Int32(local))].add(sum) }
        }
        self.facts = facts
        personFirsts = people.firsts
        personNumbers = people
        lineFirsts = lines.firsts
        groupCount = groupNumbers.count
        groupNames = groupNumbers.keys
        groupVariants = groupNumbers.variants
        self.currencies = currencies.keys
        currencyVariants = currencies.variants
        self.currencyTotals = currencyTotals
    }
}
