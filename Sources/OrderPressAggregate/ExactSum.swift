import Foundation
import OrderPressSupport

/// An exact sum of amounts, kept in millionths in an Int64 while every amount and the sum fit there,
/// and in Decimal for what does not. A Decimal `+=` costs far more than an
/// integer add: every order is added to several totals. Prices have at most 6 fraction digits
/// (`PriceText`), so a valid order's amount is always a whole number of millionths; anything else (an
/// overflow, finer fractions) goes to the Decimal part, so the sum is exact either way and equals the
/// Decimal sum of the same amounts (Decimal keeps 38 digits; a sheet's sums need at most 29).
package struct ExactSum: Sendable, Equatable {
    private var micros: Int64 = 0
    /// What did not fit in `micros`; nil while nothing has spilled.
    private var spilled: Decimal?

    /// The amount of an order as millionths, or nil when it is not a whole number of them or does not fit.
    static func micros(of amount: Decimal) -> Int64? {
        // The significand as stored (`RawDecimal`): reading it through NSDecimalNumber made an object per order.
        guard let raw = RawDecimal(amount) else { return nil }
        guard raw.exponent >= -6, raw.exponent <= 12, raw.significand < 1 << 62 else { return nil }
        let (scaled, overflow) = Int64(raw.significand).multipliedReportingOverflow(by: powers[raw.exponent + 6])
        guard !overflow else { return nil }
        return raw.negative ? -scaled : scaled
    }

    /// `unitPrice` × `quantity` in millionths (what `Order.amount` is), when it fits.
    static func micros(unitPrice: Int64?, quantity: Int) -> Int64? {
        guard let unitPrice else { return nil }
        let (amount, overflow) = unitPrice.multipliedReportingOverflow(by: Int64(quantity))
        return overflow || amount == .min ? nil : amount
    }

    /// 10^0 … 10^18.
    private static let powers: [Int64] = (0...18).map { (0..<$0).reduce(Int64(1)) { value, _ in value * 10 } }

    /// `micros` millionths as a Decimal, exact (Decimal keeps it compact: 35000000 millionths is 35).
    /// Written field by field in the form Foundation gives it (`foundationDecimal`): every group's,
    /// person's and share's total is made so, and Foundation's two initialisers
    /// were a visible share of the aggregation (docs/benchmarks.md).
    static func decimal(micros: Int64) -> Decimal {
        guard writesDecimals else { return foundationDecimal(micros: micros) }
        return written(micros: micros)
    }

    /// The way Foundation makes it: the reference `decimal(micros:)` is checked against.
    static func foundationDecimal(micros: Int64) -> Decimal {
        Decimal(sign: micros < 0 ? .minus : .plus, exponent: -6, significand: Decimal(micros.magnitude))
    }

    /// The stored fields as `RawDecimal` reads them (its layout checked): the exponent's byte; the length
    /// in 16-bit words in the high nibble of the next, with the sign (bit 3) and "compact" (bit 2, no
    /// trailing zeros in the significand, which Foundation strips into the exponent); then the words.
    private static func written(micros: Int64) -> Decimal {
        var significand = micros.magnitude
        guard significand != 0 else { return Decimal() }
        var exponent = -6
        while significand % 10 == 0 {
            significand /= 10
            exponent += 1
        }
        let length = (UInt64.bitWidth - significand.leadingZeroBitCount + 15) / 16
        var value = Decimal()
        withUnsafeMutableBytes(of: &value) { raw in
            raw[0] = UInt8(bitPattern: Int8(exponent))
            raw[1] = UInt8(length << 4) | 0x04 | (micros < 0 ? 0x08 : 0)
            for word in 0..<length {
                raw[4 + 2 * word] = UInt8(truncatingIfNeeded: significand >> (16 * word))
                raw[5 + 2 * word] = UInt8(truncatingIfNeeded: significand >> (16 * word + 8))
            }
        }
        return value
    }

    /// Whether `written` makes Foundation's very bytes, checked once on values of every length, sign and
    /// number of trailing zeros; if not, every Decimal is made through Foundation.
    static let writesDecimals: Bool = {
        guard RawDecimal.layoutHolds else { return false }
        let samples: [Int64] = [0, 1, -1, 10, 35_000_000, -5_500_000, 65_535, 65_536, 123_456_789, 1 << 40, .max, -.max, .min, 1_000_000_000_000_000_000]
        return samples.allSatisfy { sameBytes(written(micros: $0), foundationDecimal(micros: $0)) }
    }()

    static func sameBytes(_ left: Decimal, _ right: Decimal) -> Bool {
        withUnsafeBytes(of: left) { left in withUnsafeBytes(of: right) { right in left.elementsEqual(right) } }
    }

    mutating func add(micros amount: Int64) {
        let (sum, overflow) = micros.addingReportingOverflow(amount)
        if overflow {
            spill(Self.decimal(micros: micros))
            micros = amount
        } else {
            micros = sum
        }
    }

    mutating func add(_ amount: Decimal) {
        spill(amount)
    }

    /// Adds an order's amount: `micros` when it has them (see `micros(unitPrice:quantity:)`), else `amount()`.
    mutating func add(micros: Int64?, amount: () -> Decimal) {
        if let micros { add(micros: micros) } else { add(amount()) }
    }

    mutating func add(_ other: ExactSum) {
        add(micros: other.micros)
        if let spilled = other.spilled { spill(spilled) }
    }

    private mutating func spill(_ amount: Decimal) {
        spilled = (spilled ?? 0) + amount
    }

    /// The sum in millionths, when nothing spilled.
    var exactMicros: Int64? { spilled == nil ? micros : nil }

    /// `value > 0`, without making the Decimal while nothing spilled.
    var isPositive: Bool {
        guard spilled != nil else { return micros > 0 }
        return value > 0
    }

    var value: Decimal {
        let small = Self.decimal(micros: micros)
        guard let spilled else { return small }
        return micros == 0 ? spilled : spilled + small
    }
}
