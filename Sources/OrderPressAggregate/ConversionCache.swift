import Foundation
import OrderPressFetch
import OrderPressSupport

/// The aggregate step's conversions into the display currencies, remembered by numbers: each amount
/// as its millionths (`ExactSum`), each currency as its number in a `Table` made once per aggregation.
/// Every group, every person of a group and every person across groups converts a total or two, and
/// the same amounts come back again and again (one cup of the same tea); looked up by a key of three
/// integers in a `FlatTable`, not by a `String` currency code in a `Dictionary` (hashing the code's
/// Unicode was a large part of converting a remembered total: docs/benchmarks.md). One cache per thread's share of the work.
///
/// The results are `Converter.converted(_:into:)`'s, to the last digit: each amount is converted by
/// the same cross rate, the conversions of several currencies are added in the order of their codes,
/// starting from the first (not from a zero), and rounded once by `Converter.rounding`.
struct ConversionCache {
    /// The currencies of one aggregation, numbered, and what converting between them needs; shared
    /// by every thread's cache.
    struct Table: Sendable {
        let converter: Converter
        /// By number: the currency's code.
        let codes: [String]
        /// The display currencies' numbers, in the configured order.
        let display: [Int32]
        /// By number: the place of the code among all codes in the order of their UTF-8 bytes (the order
        /// `Converter.inOrder` adds a sum's parts in).
        let ranks: [Int32]
        /// By number: the display currency's minor units (`MoneyFormat.minorUnits`), looked up once.
        private let digits: [Int]
        /// By `from * codes.count + to`: the cross rate, nil where a rate is missing (`Converter.crossRate`).
        private let factors: [RateTable.CrossRate?]
        private let numbers: [String: Int32]

        /// `first` are numbered 0, 1, … in their order (the orders' currencies, by `OrderFacts`' numbers),
        /// then whatever of `others` and `display` is not among them.
        init(converter: Converter, first: [String], others: some Sequence<String>, display: [String]) {
            var codes: [String] = []
            var numbers: [String: Int32] = [:]
            for code in [first, Array(others), display].joined() where numbers[code] == nil {
                numbers[code] = Int32(codes.count)
                codes.append(code)
            }
            precondition(codes.count <= Int(Int16.max), "more currencies than any rate table holds")
            self.converter = converter
            self.codes = codes
            self.numbers = numbers
            self.display = display.map { numbers[$0]! }
            digits = codes.map { converter.money.minorUnits($0) }
            var ranks = [Int32](repeating: 0, count: codes.count)
            for (rank, number) in codes.indices.sorted(by: { codes[$0].utf8.lexicographicallyPrecedes(codes[$1].utf8) }).enumerated() {
                ranks[number] = Int32(rank)
            }
            self.ranks = ranks
            var factors: [RateTable.CrossRate?] = []
            factors.reserveCapacity(codes.count * codes.count)
            for from in codes {
                for to in codes { factors.append(from == to ? RateTable.CrossRate(times: 1, over: 1) : converter.crossRate(from: from, to: to)) }
            }
            self.factors = factors
        }

        /// `exact` in `currency` and its rounding, as `Converter.rounding` makes it.
        func rounding(_ exact: Decimal?, in currency: Int32) -> ConvertedAmount {
            let digits = digits[Int(currency)]
            return ConvertedAmount(
                currency: codes[Int(currency)], amount: exact, rounded: exact.map { MoneyFormat.rounded($0, digits: digits) }, digits: digits)
        }

        /// The number of a currency given to `init`.
        func number(_ code: String) -> Int32 { numbers[code]! }

        /// `amount` in `from` converted into `to`, as `Converter.convert` converts it.
        func convert(_ amount: Decimal, from: Int32, to: Int32) -> Decimal? {
            if from == to { return amount }
            return factors[Int(from) * codes.count + Int(to)].map { $0.convert(amount) }
        }
    }

    let table: Table
    /// Lists made for one currency's amount, by its millionths and currency: `lists[index]`.
    private var listIndex = FlatTable<Key>()
    private var lists: [[ConvertedAmount]] = []
    /// Single conversions made for the sums of several currencies, by millionths, from and to.
    private var conversionIndex = FlatTable<Key>()
    private var conversions: [Decimal?] = []

    init(_ table: Table) {
        self.table = table
    }

    /// An amount in millionths and one currency number, or two (from and to) packed in `currencies`.
    private struct Key: Hashable, FlatKey {
        var micros: Int64
        var currencies: UInt32

        var spread: UInt64 { FlatTable<Self>.mix(UInt64(bitPattern: micros), UInt64(currencies)) }
    }

    /// `sum` in `currency` in each display currency: the same list for every equal amount.
    package mutating func converted(_ sum: ExactSum, in currency: Int32) -> [ConvertedAmount] {
        guard let micros = sum.exactMicros else { return list(sum.value, in: currency) }
        let key = Key(micros: micros, currencies: UInt32(currency))
        if let index = listIndex[key] { return lists[Int(index)] }
        let list = list(sum.value, in: currency)
        listIndex.insert(key, Int32(lists.count))
        lists.append(list)
        return list
    }

    /// The sum of `parts` (each currency at most once), in each display currency.
    package mutating func converted(_ parts: [(currency: Int32, sum: ExactSum)]) -> [ConvertedAmount] {
        if parts.count == 1 { return converted(parts[0].sum, in: parts[0].currency) }
        return sum(parts)
    }

    /// The sum of `parts` converted, each part in the order of the codes.
    private mutating func sum(_ parts: [(currency: Int32, sum: ExactSum)]) -> [ConvertedAmount] {
        let ordered = parts.sorted { table.ranks[Int($0.currency)] < table.ranks[Int($1.currency)] }
        let amounts = ordered.map { $0.sum.value }
        return table.display.map { to in
            var total: Decimal?
            for (part, amount) in zip(ordered, amounts) {
                guard let converted = conversion(part.sum, amount, from: part.currency, to: to) else {
                    return table.rounding(nil, in: to)
                }
                // Not added to a zero: a Decimal addition is costly, and 0 + x is x.
                total = total.map { $0 + converted } ?? converted
            }
            return table.rounding(total ?? 0, in: to)
        }
    }

    private func list(_ amount: Decimal, in currency: Int32) -> [ConvertedAmount] {
        table.display.map { to in table.rounding(table.convert(amount, from: currency, to: to), in: to) }
    }

    /// `amount` (`sum`'s value) converted, remembered by its millionths when it has them.
    private mutating func conversion(_ sum: ExactSum, _ amount: Decimal, from: Int32, to: Int32) -> Decimal? {
        guard let micros = sum.exactMicros else { return table.convert(amount, from: from, to: to) }
        let key = Key(micros: micros, currencies: UInt32(from) << 16 | UInt32(to))
        if let index = conversionIndex[key] { return conversions[Int(index)] }
        let converted = table.convert(amount, from: from, to: to)
        conversionIndex.insert(key, Int32(conversions.count))
        conversions.append(converted)
        return converted
    }
}
