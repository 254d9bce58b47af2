import Foundation

/// The one place an exact amount is rounded for display: half-up to its currency's minor units. The
/// rule itself is `halfUp` below; `DecimalText`'s writers and the charts round through it.
public struct MoneyFormat: Sendable {
    public var minorUnitOverrides: [String: Int]
    /// Written between each three digits of an amount's whole part ("26,297"): the language's catalogue
    /// entry `thousands_separator` on pages, never the machine's locale; empty (plain decimals) for
    /// `summary.json`, `orders.csv` and anything a script reads.
    public var thousandsSeparator: String

    public init(minorUnitOverrides: [String: Int], thousandsSeparator: String = "") {
        self.minorUnitOverrides = minorUnitOverrides
        self.thousandsSeparator = thousandsSeparator
    }

    /// The same minor units, with no grouping: what machine-read files write.
    public var plain: MoneyFormat { MoneyFormat(minorUnitOverrides: minorUnitOverrides) }

    /// `text` (as `DecimalText.fixed` writes it) grouped by thousands, or as it is without a separator.
    func grouped(_ text: String) -> String {
        thousandsSeparator.isEmpty ? text : DecimalText.grouped(text, separator: thousandsSeparator)
    }

    public func minorUnits(_ currency: String) -> Int {
        Currency.minorUnits(currency, overrides: minorUnitOverrides)
    }

    /// "2.80", "432".
    public func display(_ amount: Decimal, _ currency: String) -> String {
        display(amount, digits: minorUnits(currency))
    }

    /// The same, with the minor units of its currency already looked up (a page's cells look them up once).
    package func display(_ amount: Decimal, digits: Int) -> String {
        grouped(DecimalText.fixed(amount, digits: digits))
    }

    /// A converted amount, or "n/a" when a rate was missing.
    public func display(_ converted: ConvertedAmount) -> String {
        display(optional: converted) ?? "n/a"
    }

    /// A converted amount, or nil when a rate was missing (`summary.json` writes null).
    public func display(optional converted: ConvertedAmount) -> String? {
        display(optional: converted, digits: minorUnits(converted.currency))
    }

    /// The same, with the minor units of its currency already looked up.
    package func display(optional converted: ConvertedAmount, digits: Int) -> String? {
        Self.shown(converted, digits: digits).map { display($0, digits: digits) }
    }

    /// The amount `display(optional:digits:)` writes: the rounding made with the conversion when it
    /// was made to these digits (it then writes the same text with no rounding left to do).
    package static func shown(_ converted: ConvertedAmount, digits: Int) -> Decimal? {
        converted.digits == digits ? converted.rounded ?? converted.amount : converted.amount
    }
}

// MARK: - The rounding rule

extension MoneyFormat {
    /// The one rounding rule of the site: half-up, away from zero (Foundation's `.plain`). `magnitude`
    /// ÷ `step` in whole steps, the dropped part rounded up when it is at least half a step. Every
    /// rounding goes through here: `rounded(_:digits:)` on a Decimal's significand, the byte writers'
    /// integer fast path (`DecimalText.Scaled.units(fractionDigits:)`) and a chart's bar lengths
    /// (`DecimalText.roundedRatio`), each on the integers it already holds (the sign stays apart, so
    /// half-up on a magnitude is away from zero). Property tests hold it to `NSDecimalRound`.
    @inline(__always)
    static func halfUp<Magnitude: FixedWidthInteger & UnsignedInteger>(_ magnitude: Magnitude, dividedBy step: Magnitude) -> Magnitude {
        let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: step)
        return remainder >= step - remainder ? quotient + 1 : quotient
    }

    /// `value` rounded half-up (away from zero) to `digits` fraction digits: the same value and form as
    /// `NSDecimalRound(…, .plain)`.
    package static func rounded(_ value: Decimal, digits: Int) -> Decimal {
        if let nearest = nearestStep(value, digits: digits) { return nearest }
        var input = value
        var result = Decimal()
        NSDecimalRound(&result, &input, digits, .plain)
        return result
    }

    /// `NSDecimalRound` is slow on a converted amount's 38 digits (docs/benchmarks.md), and the
    /// aggregate step rounds every person's sum across currencies. A Decimal is a significand of at
    /// most 128 bits times a power of ten (`RawDecimal`), so the rounding is `halfUp` on that
    /// significand. Nil (ask Foundation) for a zero result, an amount with nothing to round and
    /// anything that does not fit 64 bits once rounded. (A double checked by a Decimal subtraction
    /// did the same at twenty times the cost.)
    private static func nearestStep(_ value: Decimal, digits: Int) -> Decimal? {
        guard (0...6).contains(digits), let raw = RawDecimal(value), raw.exponent < -digits else { return nil }
        let shift = -digits - raw.exponent
        guard shift <= RawDecimal.maximumShift else { return nil }
        let units = halfUp(raw.significand, dividedBy: RawDecimal.powers[shift])
        guard units != 0, let small = UInt64(exactly: units) else { return nil }
        return Decimal(sign: raw.negative ? .minus : .plus, exponent: -digits, significand: Decimal(small))
    }
}
