import Foundation

/// Converts exact amounts between currencies through a rate table; the aggregate step converts every
/// total once, and pages only format what it found.
public struct Converter: Sendable {
    public let rates: RateTable?
    /// Factors worked out once: an aggregation converts thousands of totals with a handful of them, and
    /// each is a Decimal division. The same division as `RateTable.factor`, so the same exact results.
    private let factors: [Pair: Decimal?]

    private struct Pair: Hashable {
        var from: String
        var to: String
    }

    /// Rounds each converted amount to its currency's minor units.
    let money: MoneyFormat

    public init(rates: RateTable?, money: MoneyFormat = MoneyFormat(minorUnitOverrides: [:])) {
        self.rates = rates
        self.money = money
        factors = [:]
    }

    /// With the factors between every two of `currencies` computed up front.
    init(rates: RateTable?, money: MoneyFormat, precomputing currencies: Set<String>) {
        self.rates = rates
        self.money = money
        var factors: [Pair: Decimal?] = [:]
        for from in currencies {
            for to in currencies where to != from {
                factors[Pair(from: from, to: to)] = .some(rates?.factor(from: from, to: to))
            }
        }
        self.factors = factors
    }

    /// The exact sum of `amounts` (by currency) in `currency`, or nil when a rate is missing.
    public func convert(_ amounts: [String: Decimal], to currency: String) -> Decimal? {
        var sum: Decimal = 0
        for (from, amount) in Self.inOrder(amounts) {
            guard let converted = convert(amount, from: from, to: currency) else { return nil }
            sum += converted
        }
        return sum
    }

    public func convert(_ amount: Decimal, from: String, to: String) -> Decimal? {
        if from == to { return amount }
        guard let factor = factors[Pair(from: from, to: to)] ?? rates?.factor(from: from, to: to) else { return nil }
        return amount * factor
    }

    /// The exact sum of `amounts` in each of `currencies`, in that order, and its rounding to the
    /// currency's minor units.
    public func converted(_ amounts: [String: Decimal], into currencies: [String]) -> [ConvertedAmount] {
        currencies.map { rounding(convert(amounts, to: $0), in: $0) }
    }

    /// One amount to convert; a key for remembering conversions already made. The amount as it is
    /// stored (`RawDecimal`): hashing and comparing a Decimal cost some 2,000 instructions a look-up,
    /// and an equal form is an equal value, so the remembered result is the one converting would give.
    struct Conversion: Hashable {
        var amount: RawDecimal
        var from: String
        var to: String
    }

    /// Conversions already made, and lists already made for one amount, kept by one thread's share of the work.
    struct Memo {
        var conversions: [Conversion: Decimal?] = [:]
        /// By amount and currency (`to` unused): equal totals share one list instead of one each
        /// (a million orders make a few thousand distinct totals, but hundreds of thousands of lists).
        var lists: [Conversion: [ConvertedAmount]] = [:]
        /// `lists` again, by amounts known in millionths (`ExactSum`): hashing and comparing two integers
        /// costs a fraction of a Decimal's hash and comparison, and every person and group looks here.
        var listsByMicros: [MicrosKey: [ConvertedAmount]] = [:]
    }

    struct MicrosKey: Hashable {
        var micros: Int64
        var currency: String
    }

    /// `converted(sum.value, in: currency, into: currencies, memo:)`, found by the sum's millionths when it has them.
    func converted(_ sum: ExactSum, in currency: String, into currencies: [String], memo: inout Memo) -> [ConvertedAmount] {
        guard let micros = sum.exactMicros else { return converted(sum.value, in: currency, into: currencies, memo: &memo) }
        let key = MicrosKey(micros: micros, currency: currency)
        if let known = memo.listsByMicros[key] { return known }
        let list = converted(sum.value, in: currency, into: currencies, memo: &memo)
        memo.listsByMicros[key] = list
        return list
    }

    /// `converted([currency: amount], into: currencies, memo:)`, the same list for every equal amount.
    func converted(_ amount: Decimal, in currency: String, into currencies: [String], memo: inout Memo) -> [ConvertedAmount] {
        guard let raw = RawDecimal(amount) else { return sums([currency: amount], into: currencies, memo: &memo) }
        let key = Conversion(amount: raw, from: currency, to: "")
        if let known = memo.lists[key] { return known }
        let list = sums([currency: amount], into: currencies, memo: &memo)
        memo.lists[key] = list
        return list
    }

    /// `converted(_:into:)` through `memo`: a total in one currency gets the list made for an equal one.
    func converted(_ amounts: [String: Decimal], into currencies: [String], memo: inout Memo) -> [ConvertedAmount] {
        if amounts.count == 1, let (currency, amount) = amounts.first {
            return converted(amount, in: currency, into: currencies, memo: &memo)
        }
        return sums(amounts, into: currencies, memo: &memo)
    }

    /// The exact sum in each currency, each single conversion looked up in `memo` first and added
    /// there: the same conversions added in the same order as `convert` (which starts from a zero,
    /// and 0 + x is x), so the same exact sums.
    private func sums(_ amounts: [String: Decimal], into currencies: [String], memo: inout Memo) -> [ConvertedAmount] {
        let amounts = Self.inOrder(amounts)
        return currencies.map { currency in
            // The first term is the sum so far, not added to a zero: a Decimal addition is some 2,500
            // instructions, and 0 + x is x.
            var sum: Decimal?
            for (from, amount) in amounts {
                let converted: Decimal?
                if let raw = RawDecimal(amount) {
                    let key = Conversion(amount: raw, from: from, to: currency)
                    if let known = memo.conversions[key] {
                        converted = known
                    } else {
                        converted = convert(amount, from: from, to: currency)
                        memo.conversions[key] = .some(converted)
                    }
                } else {
                    converted = convert(amount, from: from, to: currency)
                }
                guard let converted else { return rounding(nil, in: currency) }
                sum = sum.map { $0 + converted } ?? converted
            }
            return rounding(sum ?? 0, in: currency)
        }
    }

    /// The amounts by currency code. A sum of 38-digit conversions rounds its last digit differently in
    /// another order, and a dictionary's order changes from process to process: summed in this one,
    /// the same totals make the same exact sums on every run.
    static func inOrder(_ amounts: [String: Decimal]) -> [(key: String, value: Decimal)] {
        amounts.count < 2 ? Array(amounts) : amounts.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    private func rounding(_ exact: Decimal?, in currency: String) -> ConvertedAmount {
        let digits = money.minorUnits(currency)
        return ConvertedAmount(
            currency: currency, amount: exact, rounded: exact.map { MoneyFormat.rounded($0, digits: digits) }, digits: digits)
    }
}
