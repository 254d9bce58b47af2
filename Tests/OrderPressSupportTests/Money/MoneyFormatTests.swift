import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// `MoneyFormat.halfUp` is the one rounding rule; every money path (the Decimal rounding, the byte
/// writers' integer fast path, a chart's bar lengths) is held here to Foundation's `.plain` rounding.
@Suite struct MoneyFormatTests {

    /// Foundation's rounding written with exactly `digits` fraction digits: what a page must show.
    static func foundationText(_ value: Decimal, _ digits: Int) -> String {
        let text = DecimalFixtures.foundation(value, digits).description
        guard digits > 0 else { return text }
        let parts = text.split(separator: ".", maxSplits: 1)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        return "\(parts[0]).\(fraction)\(String(repeating: "0", count: max(0, digits - fraction.count)))"
    }

    /// Amounts times a rate quotient: some 38 significant digits, as the converter makes them.
    static let converted = Generator<(Decimal, Int), Shrink.None<(Decimal, Int)>> { rng in
        let (amount, digits) = DecimalFixtures.anyShape.run(using: &rng)
        let rate = Decimal(UInt64.random(in: 1...999_999, using: &rng)) / Decimal(UInt64.random(in: 1...999_999, using: &rng))
        return (amount * rate, digits)
    }

    /// Exact halves at the rounding digit, written with or without trailing zeros, of both signs and
    /// at every scale asked for, and values a hair either side of them.
    static let halves = Generator<(Decimal, Int), Shrink.None<(Decimal, Int)>> { rng in
        let digits = Int.random(in: 0...8, using: &rng)
        let zeros = Int.random(in: 0...3, using: &rng)
        let significand = Decimal(UInt64.random(in: 0...UInt64.max / 100, using: &rng) * 10 + 5) * pow(Decimal(10), zeros)
        let sign: FloatingPointSign = Bool.random(using: &rng) ? .minus : .plus
        let half = Decimal(sign: sign, exponent: -digits - 1 - zeros, significand: significand)
        let hair = Decimal(sign: Bool.random(using: &rng) ? .minus : .plus, exponent: -Int.random(in: 20...36, using: &rng), significand: 1)
        return ([half, half, half + hair][Int.random(in: 0..<3, using: &rng)], digits)
    }

    /// Plain amounts: a price or total of up to 12 digits at any scale from 10^-12 to 10^6, both signs.
    static let amounts = Generator<(Decimal, Int), Shrink.None<(Decimal, Int)>> { rng in
        let mantissa = Decimal(Int64.random(in: -999_999_999_999...999_999_999_999, using: &rng))
        let exponent = Int.random(in: -12...6, using: &rng)
        let value = exponent < 0 ? mantissa / pow(Decimal(10), -exponent) : mantissa * pow(Decimal(10), exponent)
        return (value, Int.random(in: 0...8, using: &rng))
    }

    static let inputs = [DecimalFixtures.anyShape, converted, halves, amounts]

    /// The rule on integers is Foundation's rounding of their quotient, for powers of ten (every
    /// rounding of a significand) and any other step (a bar's share), 64 and 128 bits.
    @Test func halfUpIsFoundationsPlainRounding() async {
        let pairs = Generator<(UInt64, UInt64), Shrink.None<(UInt64, UInt64)>> { rng in
            let magnitude = UInt64.random(in: 0...UInt64.max >> Int.random(in: 0...63, using: &rng), using: &rng)
            let step = Bool.random(using: &rng)
                ? [1, 10, 100, 1000, 1_000_000, 10_000_000_000_000_000_000][Int.random(in: 0..<6, using: &rng)]
                : UInt64.random(in: 1...UInt64.max >> Int.random(in: 1...63, using: &rng), using: &rng)
            // Half the time a whole number of steps and an exact half of one.
            let (half, overflow) = (magnitude / step * step).addingReportingOverflow(step / 2)
            return (step % 2 == 0 && !overflow && Bool.random(using: &rng) ? half : magnitude, step)
        }
        await propertyCheck(count: 3000, input: pairs) { magnitude, step in
            let expected = DecimalFixtures.foundation(Decimal(magnitude) / Decimal(step), 0)
            #expect(Decimal(MoneyFormat.halfUp(magnitude, dividedBy: step)) == expected, "\(magnitude) / \(step)")
        }
        let wide = Generator<(UInt128, Int), Shrink.None<(UInt128, Int)>> { rng in
            // Below 2^124, 38 digits: what a Decimal holds.
            let high = UInt128(UInt64.random(in: 0...UInt64.max >> Int.random(in: 4...63, using: &rng), using: &rng))
            let magnitude = high << 64 | UInt128(UInt64.random(in: 0...UInt64.max, using: &rng))
            let shift = Int.random(in: 0...RawDecimal.maximumShift, using: &rng)
            let step = RawDecimal.powers[shift]
            let (half, overflow) = (magnitude / step * step).addingReportingOverflow(step / 2)
            return (Bool.random(using: &rng) || shift == 0 || overflow || half >> 124 != 0 ? magnitude : half, shift)
        }
        await propertyCheck(count: 3000, input: wide) { magnitude, shift in
            let value = Decimal(sign: .plus, exponent: -shift, significand: Decimal(string: String(magnitude))!)
            let expected = DecimalFixtures.foundation(value, 0)
            #expect(Decimal(string: String(MoneyFormat.halfUp(magnitude, dividedBy: RawDecimal.powers[shift])))! == expected, "\(magnitude) e-\(shift)")
        }
        #expect(MoneyFormat.halfUp(UInt64(25), dividedBy: 10) == 3)  // a half rounds up
        #expect(MoneyFormat.halfUp(UInt64(24), dividedBy: 10) == 2)
        #expect(MoneyFormat.halfUp(UInt64(7), dividedBy: 1) == 7)
    }

    /// `rounded` gives what `NSDecimalRound(.plain)` gives, value and form, for values of every shape,
    /// converted amounts, exact halves (both signs, with trailing zeros) and values a hair from them.
    @Test func roundedIsFoundationsPlainRounding() async {
        func expectFoundation(_ value: Decimal, _ digits: Int) {
            let expected = DecimalFixtures.foundation(value, digits)
            let rounded = MoneyFormat.rounded(value, digits: digits)
            #expect(rounded == expected && rounded.description == expected.description, "\(value) \(digits)")
            #expect(rounded.exponent == expected.exponent && rounded.significand == expected.significand, "\(value) \(digits)")
        }
        for input in Self.inputs {
            await propertyCheck(count: 3000, input: input) { value, digits in expectFoundation(value, digits) }
        }
        for (value, digits) in [
            ("-0.001", 2), ("0.005", 2), ("-0.005", 2), ("2.5", 0), ("-2.5", 0), ("0.0049999", 2), ("99.995", 2), ("-99.995", 2),
            ("0.5", 0), ("-0.5", 0), ("0.4", 0), ("2.50", 0), ("1.0000005", 6), ("18446744073709551615.5", 0), ("0", 2),
        ] {
            expectFoundation(Decimal(string: value)!, digits)
        }
    }

    /// Every text an amount is shown as — `display`, `DecimalText.fixed` and its byte writer
    /// `withFixed` (pages, `summary.json`) — is Foundation's rounding, padded to the digits.
    @Test func everyShownAmountIsFoundationsRounding() async {
        for input in Self.inputs {
            await propertyCheck(count: 3000, input: input) { value, digits in
                let expected = Self.foundationText(value, digits)
                #expect(MoneyFormat(minorUnitOverrides: ["XTS": digits]).display(value, "XTS") == expected, "\(value) \(digits)")
                #expect(DecimalText.fixed(value, digits: digits) == expected, "\(value) \(digits)")
                #expect(DecimalText.withFixed(value, digits: digits) { String(decoding: $0, as: UTF8.self) } == expected, "\(value) \(digits)")
                let converted = ConvertedAmount(currency: "XTS", amount: value, rounded: MoneyFormat.rounded(value, digits: digits), digits: digits)
                #expect(MoneyFormat(minorUnitOverrides: ["XTS": digits]).display(converted) == expected, "\(value) \(digits)")
            }
        }
    }
}

/// Thousands grouping on pages (issue 24): the catalogue's separator, never the machine's locale; files
/// that scripts read keep plain decimals.
@Suite struct ThousandsGroupingTests {
    @Test(arguments: [
        ("0", "0"), ("999", "999"), ("1000", "1,000"), ("-1000", "-1,000"), ("26297", "26,297"), ("1234567.50", "1,234,567.50"),
        ("-999.99", "-999.99"), ("100000", "100,000"), ("12.345678", "12.345678"), ("n/a", "n/a"),
    ])
    func groupsTheWholePart(plain: String, grouped: String) {
        #expect(DecimalText.grouped(plain, separator: ",") == grouped)
        #expect(DecimalText.grouped(plain, separator: "") == plain)
    }

    @Test func pagesGroupAndMachineFilesDoNot() {
        let pages = MoneyFormat(minorUnitOverrides: ["TWD": 0], thousandsSeparator: "\u{202F}")
        #expect(pages.display(Decimal(26297), "JPY") == "26\u{202F}297")
        #expect(pages.display(Decimal(string: "1234.5")!, "USD") == "1\u{202F}234.50")
        #expect(pages.plain.display(Decimal(26297), "JPY") == "26297")
        #expect(pages.display(ConvertedAmount(currency: "JPY", amount: 26297)) == "26\u{202F}297")
    }
}
