import Foundation

/// Converts exact amounts between currencies through a rate table; the aggregate step converts every
/// total once, and pages only format what it found.
public struct Converter: Sendable {
    public var rates: RateTable? {
        didSet { factors = [:] }
    }
    /// Factors worked out once: an aggregation converts thousands of totals with a handful of them, and
    /// each is a Decimal division. The same division as `RateTable.factor`, so the same exact results.
    private var factors: [Pair: Decimal?] = [:]

    private struct Pair: Hashable {
        var from: String
        var to: String
    }

    /// Rounds each converted amount to its currency's minor units.
    let money: MoneyFormat

    public init(rates: RateTable?, money: MoneyFormat = MoneyFormat(minorUnitOverrides: [:])) {
        self.rates = rates
        self.money = money
    }

    /// With the factors between every two of `currencies` computed up front.
    init(rates: RateTable?, money: MoneyFormat, precomputing currencies: Set<String>) {
        self.rates = rates
        self.money = money
        for from in currencies {
            for to in currencies where to != from {
                factors[Pair(from: from, to: to)] = .some(rates?.factor(from: from, to: to))
            }
        }
    }

    /// The exact sum of `amounts` (by currency) in `currency`, or nil when a rate is missing.
    public func convert(_ amounts: [String: Decimal], to currency: String) -> Decimal? {
        var sum: Decimal = 0
        for (from, amount) in amounts {
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

    /// One amount to convert; a key for remembering conversions already made.
    struct Conversion: Hashable {
        var amount: Decimal
        var from: String
        var to: String
    }

    /// A conversion made, and its rounding once something asked for it.
    struct Converted {
        var exact: Decimal?
        var rounded: ConvertedAmount?
    }

    /// `converted(_:into:)`, looking up each single conversion in `memo` first and adding it there:
    /// the same arithmetic in the same order, so the same exact sums. The same totals come back
    /// again and again (one cup of the same tea), and so do their roundings.
    func converted(_ amounts: [String: Decimal], into currencies: [String], memo: inout [Conversion: Converted]) -> [ConvertedAmount] {
        func conversion(_ amount: Decimal, from: String, to currency: String) -> (key: Conversion, known: Converted) {
            let key = Conversion(amount: amount, from: from, to: currency)
            if let known = memo[key] { return (key, known) }
            let known = Converted(exact: convert(amount, from: from, to: currency))
            memo[key] = known
            return (key, known)
        }
        return currencies.map { currency in
            if amounts.count == 1, let (from, amount) = amounts.first {
                var (key, known) = conversion(amount, from: from, to: currency)
                if let rounded = known.rounded { return rounded }
                known.rounded = rounding(known.exact, in: currency)
                memo[key] = known
                return known.rounded!
            }
            var sum: Decimal = 0
            for (from, amount) in amounts {
                guard let converted = conversion(amount, from: from, to: currency).known.exact else {
                    return ConvertedAmount(currency: currency, amount: nil)
                }
                sum += converted
            }
            return rounding(sum, in: currency)
        }
    }

    private func rounding(_ exact: Decimal?, in currency: String) -> ConvertedAmount {
        let digits = money.minorUnits(currency)
        return ConvertedAmount(
            currency: currency, amount: exact, rounded: exact.map { DecimalText.rounded($0, digits: digits) }, digits: digits)
    }
}
