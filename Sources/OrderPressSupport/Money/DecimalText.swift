import Foundation

/// Exact decimal numbers to and from text, independent of the machine's locale.
public enum DecimalText {
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// Parses plain decimal text such as `35`, `35.50`, `-5`, `1e-05`; nothing else.
    /// (`Decimal(string:)` alone would read "12abc" as 12.)
    package static func parse(_ text: some StringProtocol) -> Decimal? {
        var sawDigit = false
        var state = 0  // 0 sign, 1 integer digits, 2 fraction digits, 3 exponent sign, 4 exponent digits
        var sawExponentDigit = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                if state == 0 { state = 1 } else if state == 3 { state = 4 } else { return nil }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if state == 0 { state = 1 }
                if state == 3 { state = 4 }
                if state >= 3 { sawExponentDigit = true } else { sawDigit = true }
            case UInt8(ascii: "."):
                guard state <= 1 else { return nil }
                state = 2
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard state == 1 || state == 2, sawDigit else { return nil }
                state = 3
            default:
                return nil
            }
        }
        guard sawDigit, state < 3 || sawExponentDigit else { return nil }
        return Decimal(string: String(text), locale: posix)
    }

    /// The exact value as plain text ("35.5", "540"), never in exponent form.
    package static func exact(_ value: Decimal) -> String {
        guard let (scaled, fractionDigits, trailingZeros) = exactForm(value) else { return value.description }
        return scaled.text(units: scaled.units, fractionDigits: fractionDigits, trailingZeros: trailingZeros)
    }

    /// `exact(value)` as UTF-8, handed to `body` without making a String: `summary.json` and
    /// `orders.csv` write every amount of a site.
    @inlinable
    public static func withExact<Result>(_ value: Decimal, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard let (scaled, fractionDigits, trailingZeros) = exactForm(value) else {
            var text = value.description
            return text.withUTF8(body)
        }
        return scaled.withText(units: scaled.units, fractionDigits: fractionDigits, trailingZeros: trailingZeros, body)
    }

    /// How `exact` writes a value that fits 64 bits: its digits, then a point and `fractionDigits` of
    /// them, or `trailingZeros` zeros after them; nil for zero and for what does not fit (Foundation writes those).
    @usableFromInline
    static func exactForm(_ value: Decimal) -> (Scaled, fractionDigits: Int, trailingZeros: Int)? {
        guard let scaled = Scaled(value), scaled.units != 0 else { return nil }
        return scaled.exponent >= 0 ? (scaled, 0, scaled.exponent) : (scaled, -scaled.exponent, 0)
    }

    /// Rounded half-up (`MoneyFormat.halfUp`) to `digits` fraction digits and written with exactly that many ("2.80", "432").
    /// Every amount on every page goes through here: a value with no more fraction digits than
    /// asked (prices, most totals) skips the rounding, and the text is padded without splitting it.
    @usableFromInline
    package static func fixed(_ value: Decimal, digits: Int) -> String {
        if let scaled = Scaled(value), let units = scaled.units(fractionDigits: digits) {
            return scaled.text(units: units, fractionDigits: digits, trailingZeros: 0)
        }
        let text = (value.exponent >= -digits ? value : MoneyFormat.rounded(value, digits: digits)).description
        guard digits > 0 else { return text }
        let utf8 = text.utf8
        guard let point = utf8.firstIndex(of: UInt8(ascii: ".")) else {
            return text + "." + String(repeating: "0", count: digits)
        }
        let fraction = utf8.distance(from: utf8.index(after: point), to: utf8.endIndex)
        return fraction >= digits ? text : text + String(repeating: "0", count: digits - fraction)
    }

    /// `text` as `fixed` or `exact` write it ("-26297.50") with `separator` between each three digits of
    /// its whole part ("-26,297.50"): pages only (`MoneyFormat.thousandsSeparator`). Most amounts have
    /// at most three whole digits and come back as they are, after counting them.
    static func grouped(_ text: String, separator: String) -> String {
        let utf8 = text.utf8
        let sign = utf8.first == UInt8(ascii: "-") ? 1 : 0
        var digits = 0
        for byte in utf8.dropFirst(sign) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            digits += 1
        }
        guard digits > 3, !separator.isEmpty else { return text }
        let mark = Array(separator.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + (digits - 1) / 3 * mark.count)
        for (offset, byte) in utf8.enumerated() {
            let place = offset - sign
            // Before each digit that starts a group of three, counted from the whole part's end.
            if place > 0, place < digits, (digits - place) % 3 == 0 { bytes += mark }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `String(value)` as UTF-8, handed to `body` from the stack.
    @inlinable
    public static func withInteger<Result>(_ value: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let scaled = Scaled(negative: value < 0, units: UInt64(value.magnitude), exponent: 0)
        return scaled.withText(units: scaled.units, fractionDigits: 0, trailingZeros: 0, body)
    }

    /// `fixed(value, digits:)` as UTF-8, handed to `body` without making a String.
    @inlinable
    public static func withFixed<Result>(_ value: Decimal, digits: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let scaled = Scaled(value), let units = scaled.units(fractionDigits: digits) {
            return scaled.withText(units: units, fractionDigits: digits, trailingZeros: 0, body)
        }
        var text = fixed(value, digits: digits)
        return text.withUTF8(body)
    }

    /// `numerator` × `factor` ÷ `denominator`, rounded half-up to a whole number, worked out in
    /// integers (a chart's bar lengths: Decimal division and rounding were a twentieth of a build);
    /// nil when either is negative or zero-or-less respectively, or does not fit 64 bits. The same as
    /// rounding the Decimal quotient: that keeps 38 digits, and a fraction of two integers below
    /// 10^19 is never within 10^-19 of a half without being one.
    package static func roundedRatio(_ numerator: Decimal, times factor: Int, over denominator: Decimal) -> Int? {
        guard factor >= 0, let top = Scaled(numerator), let bottom = Scaled(denominator), !top.negative, !bottom.negative
        else { return nil }
        let scale = max(-top.exponent, -bottom.exponent, 0)
        guard let a = top.units(fractionDigits: scale), let b = bottom.units(fractionDigits: scale), b > 0 else { return nil }
        let (product, overflow) = a.multipliedReportingOverflow(by: UInt64(factor))
        guard !overflow else { return nil }
        return Int(exactly: MoneyFormat.halfUp(product, dividedBy: b))
    }

    /// A value as a sign, a 64-bit significand and a power of ten, when it fits. Every amount on
    /// every page is written through here, and Foundation's `Decimal.description` and
    /// `NSDecimalRound` were a large share of a build (docs/benchmarks.md); reading the
    /// significand and doing the rest in integers gives the same
    /// text. Anything that does not fit takes Foundation's path.
    public struct Scaled {
        @usableFromInline package let negative: Bool
        @usableFromInline package let units: UInt64
        @usableFromInline package let exponent: Int

        @usableFromInline
        package init(negative: Bool, units: UInt64, exponent: Int) {
            (self.negative, self.units, self.exponent) = (negative, units, exponent)
        }

        @usableFromInline
        package init?(_ value: Decimal) {
            guard let parts = Self.layoutHolds ? Self.parts(of: value) : Self.partsThroughFoundation(of: value) else { return nil }
            (negative, units, exponent) = parts
        }

        /// The sign, significand and exponent read from the `Decimal`'s own bytes (`RawDecimal`):
        /// Foundation gives the significand only as another `Decimal`, and turning that into an integer
        /// through `NSDecimalNumber` allocated an object for every amount on every page.
        /// Nil for NaN and for a significand over 64 bits, as through Foundation.
        static func parts(of value: Decimal) -> (negative: Bool, units: UInt64, exponent: Int)? {
            guard let raw = RawDecimal(value), let units = UInt64(exactly: raw.significand) else { return nil }
            return (raw.negative, units, raw.exponent)
        }

        static func partsThroughFoundation(of value: Decimal) -> (negative: Bool, units: UInt64, exponent: Int)? {
            guard !value.isNaN else { return nil }
            let significand = value.significand
            let units = NSDecimalNumber(decimal: significand).uint64Value
            guard Decimal(units) == significand else { return nil }
            return (value.sign == .minus, units, value.exponent)
        }

        /// Whether this Foundation lays a `Decimal` out as `RawDecimal` reads it; if not, every value
        /// goes through Foundation.
        package static var layoutHolds: Bool { RawDecimal.layoutHolds }

        /// 10^0 … 10^19, every power of ten a UInt64 holds.
        private static let powers: [UInt64] = (0...19).map { (0..<$0).reduce(UInt64(1)) { value, _ in value * 10 } }

        /// The value rounded half-up (away from zero, `MoneyFormat.halfUp`) to `digits` fraction digits, in units of 10^-digits;
        /// nil when that does not fit.
        @usableFromInline
        package func units(fractionDigits digits: Int) -> UInt64? {
            guard digits <= 18 else { return nil }
            let scale = -exponent
            if scale > digits {
                guard scale - digits <= 19 else { return nil }
                return MoneyFormat.halfUp(units, dividedBy: Self.powers[scale - digits])
            }
            guard digits - scale <= 19 else { return nil }
            let (scaled, overflow) = units.multipliedReportingOverflow(by: Self.powers[digits - scale])
            return overflow ? nil : scaled
        }

        /// `units` × 10^-`fractionDigits`, or `units` followed by `trailingZeros` zeros, with the
        /// value's sign unless it is zero: "-12.50", "0.001", "1000".
        package func text(units: UInt64, fractionDigits: Int, trailingZeros: Int) -> String {
            let count = length(units: units, fractionDigits: fractionDigits, trailingZeros: trailingZeros)
            return String(unsafeUninitializedCapacity: count) { buffer in
                write(units: units, fractionDigits: fractionDigits, trailingZeros: trailingZeros, into: buffer, count: count)
                return count
            }
        }

        /// The same text as UTF-8, handed to `body` from the stack.
        @inlinable
        public func withText<Result>(
            units: UInt64, fractionDigits: Int, trailingZeros: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
        ) -> Result {
            let count = length(units: units, fractionDigits: fractionDigits, trailingZeros: trailingZeros)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
                write(units: units, fractionDigits: fractionDigits, trailingZeros: trailingZeros, into: buffer, count: count)
                return body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
            }
        }

        @usableFromInline
        func length(units: UInt64, fractionDigits: Int, trailingZeros: Int) -> Int {
            var length = 1
            var rest = units / 10
            while rest > 0 { length += 1; rest /= 10 }
            let sign = negative && units != 0 ? 1 : 0
            return sign + max(length - fractionDigits, 1) + (fractionDigits > 0 ? 1 + fractionDigits : trailingZeros)
        }

        /// Written back to front into the first `count` bytes of `buffer`.
        @inlinable
        public func write(units: UInt64, fractionDigits: Int, trailingZeros: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, count: Int) {
            let zero = UInt8(ascii: "0")
            var position = count - 1
            var rest = units
            if fractionDigits > 0 {
                for _ in 0..<fractionDigits {
                    buffer[position] = zero + UInt8(rest % 10)
                    rest /= 10
                    position -= 1
                }
                buffer[position] = UInt8(ascii: ".")
                position -= 1
            } else {
                for _ in 0..<trailingZeros {
                    buffer[position] = zero
                    position -= 1
                }
            }
            let sign = negative && units != 0 ? 1 : 0
            while position >= sign {
                buffer[position] = zero + UInt8(rest % 10)
                rest /= 10
                position -= 1
            }
            if sign == 1 { buffer[0] = UInt8(ascii: "-") }
        }
    }
}
