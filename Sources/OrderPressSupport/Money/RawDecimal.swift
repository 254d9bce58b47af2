import Foundation

/// A Decimal as Foundation stores it: a sign, a significand of up to 128 bits and a power of ten.
/// Read from its stored bytes in a few instructions, where `Decimal.significand` and `NSDecimalNumber`
/// build a Decimal and an object: for integer arithmetic on amounts (rounding) and for keys that hash
/// and compare two words instead of a Decimal (`OrdersCSV`, `PageKeys`). Two equal `RawDecimal`s are the same
/// Decimal, value and form; two equal Decimals may differ in form.
///
/// Foundation keeps the fields internal on Linux; their layout (that of Apple's `NSDecimal`: an 8-bit
/// exponent, the length in 16-bit words in the high nibble of the next byte and the sign in its bit 3,
/// then the significand's eight little-endian words from byte 4) is checked once on known values, and
/// should it ever differ, no Decimal is read this way (`init` is nil) and callers take Foundation's path.
package struct RawDecimal: Hashable, Sendable {
    package let significand: UInt128
    package let exponent: Int
    package let negative: Bool

    /// Nil for NaN, and for everything when the layout is not the one expected.
    package init?(_ value: Decimal) {
        guard Self.layoutHolds, !value.isNaN else { return nil }
        self.init(reading: value)
    }

    private init(reading value: Decimal) {
        (significand, exponent, negative) = withUnsafeBytes(of: value) { raw in
            let flags = raw[1]
            let length = Int(flags >> 4)
            var significand: UInt128 = 0
            for index in (0..<min(length, 8)).reversed() {
                significand = significand << 16 | UInt128(UInt16(raw[4 + 2 * index]) | UInt16(raw[5 + 2 * index]) << 8)
            }
            return (significand, Int(Int8(bitPattern: raw[0])), flags & 0x08 != 0 && length > 0)
        }
    }

    private init(_ significand: UInt128, _ exponent: Int, _ negative: Bool) {
        (self.significand, self.exponent, self.negative) = (significand, exponent, negative)
    }

    /// The stored fields read as expected from values of every shape made through Foundation's public
    /// API: significands of one to eight words, both signs, exponents either side of zero.
    package static let layoutHolds: Bool = {
        guard MemoryLayout<Decimal>.size == 20 else { return false }
        let samples = [
            "0", "1", "-1", "35", "65535", "65536", "-123.4500", "0.001", "-0.000001", "1e5", "4294967296", "281474976710656",
            "18446744073709551615", "18446744073709551616", "-98765432109876543210.5", "1e-20",
            "123456789012345678901234567890.12", "340282366920938463463374607431768211455",
        ]
        let posix = Locale(identifier: "en_US_POSIX")
        return samples.allSatisfy { text in
            guard let value = Decimal(string: text, locale: posix) else { return false }
            let raw = RawDecimal(reading: value)
            return raw.exponent == value.exponent && raw.negative == (value.sign == .minus)
                && Decimal(string: String(raw.significand), locale: posix) == value.significand
        } && RawDecimal(reading: Decimal(string: "-1234.5678", locale: posix)!) == RawDecimal(12_345_678, -4, true)
    }()

    /// 10^0 … 10^38, every power of ten a UInt128 holds.
    static let powers: [UInt128] = (0...maximumShift).map { (0..<$0).reduce(UInt128(1)) { value, _ in value * 10 } }
    static let maximumShift = 38
}
