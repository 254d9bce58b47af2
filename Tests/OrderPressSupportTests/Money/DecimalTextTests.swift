import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

@Suite struct DecimalTextTests {
    @Test(arguments: [
        ("35", "35"), ("35.50", "35.5"), ("-5", "-5"), ("0.000001", "0.000001"), ("1e-05", "0.00001"), (".5", "0.5"),
    ])
    func parsesPlainDecimals(text: String, expected: String) {
        #expect(DecimalText.parse(text).map(DecimalText.exact) == expected)
    }

    @Test(arguments: ["", "12abc", "1,200", "$1", "1.2.3", "--1", "1e", "e5", " 1", "NaN", "Infinity"])
    func refusesAnythingElse(text: String) {
        #expect(DecimalText.parse(text) == nil)
    }

    @Test(arguments: [
        ("2.345", 2, "2.35"), ("2.344", 2, "2.34"), ("964.5", 0, "965"), ("2.8", 2, "2.80"), ("432", 0, "432"),
        ("0.0005", 3, "0.001"), ("1", 3, "1.000"), ("10.25", 2, "10.25"),
    ])
    func roundsHalfUpToFixedDigits(value: String, digits: Int, expected: String) {
        #expect(DecimalText.fixed(Decimal(string: value)!, digits: digits) == expected)
    }

    /// The fast path (no rounding when not needed, no split) gives Foundation's rounding, split and
    /// padded, for generated values of every shape (more in `MoneyFormatTests`).
    @Test func fixedMatchesRoundingSplittingAndPadding() async {
        for input in [MoneyFormatTests.amounts, DecimalFixtures.anyShape] {
            await propertyCheck(count: 2000, input: input) { value, digits in
                #expect(DecimalText.fixed(value, digits: digits) == MoneyFormatTests.foundationText(value, digits), "\(value) \(digits)")
            }
        }
    }

    /// The exact text is Foundation's `description`, fast path or not.
    @Test func exactMatchesFoundationsDescription() async {
        await propertyCheck(count: 3000, input: DecimalFixtures.anyShape) { value, _ in
            #expect(DecimalText.exact(value) == value.description, "\(value)")
        }
    }

    @Test(arguments: [
        ("-2.345", 2, "-2.35"), ("-0.001", 2, "0.00"), ("0.005", 2, "0.01"), ("18446744073709551615", 0, "18446744073709551615"),
        ("18446744073709551616", 1, "18446744073709551616.0"), ("123456789012345678901234567890.125", 2, "123456789012345678901234567890.13"),
    ])
    func roundsSignsAndHugeValues(value: String, digits: Int, expected: String) {
        #expect(DecimalText.fixed(Decimal(string: value)!, digits: digits) == expected)
    }

    /// The UTF-8 handed out by `withExact`, `withFixed` and `withInteger` is the text of `exact`,
    /// `fixed` and `String(_:)`, for values of every shape and integers of every size.
    @Test func byteWritersWriteTheirTexts() async {
        await propertyCheck(count: 3000, input: DecimalFixtures.anyShape) { value, digits in
            #expect(DecimalText.withExact(value) { String(decoding: $0, as: UTF8.self) } == DecimalText.exact(value), "\(value)")
            #expect(
                DecimalText.withFixed(value, digits: digits) { String(decoding: $0, as: UTF8.self) } == DecimalText.fixed(value, digits: digits),
                "\(value) \(digits)")
        }
        let integers = Generator<Int, Shrink.None<Int>> { rng in
            [Int.min, Int.max, 0, -1, Int.random(in: -999...999, using: &rng), Int.random(in: .min ... .max, using: &rng)]
                .randomElement(using: &rng)!
        }
        await propertyCheck(count: 1000, input: integers) { value in
            #expect(DecimalText.withInteger(value) { String(decoding: $0, as: UTF8.self) } == String(value))
        }
    }
}

extension DecimalTextTests {
    /// Reading a `Decimal`'s bytes gives Foundation's sign, significand and exponent, for values of
    /// every shape and for NaN; and the layout check that guards it holds on this Foundation.
    @Test func decimalBytesReadAsFoundationReadsThem() async {
        #expect(DecimalText.Scaled.layoutHolds)
        await propertyCheck(count: 3000, input: DecimalFixtures.anyShape) { value, _ in
            for value in [value, -value, value / 7, value * Decimal(string: "32.125")!] {
                let raw = DecimalText.Scaled.parts(of: value)
                let foundation = DecimalText.Scaled.partsThroughFoundation(of: value)
                #expect(raw?.negative == foundation?.negative && raw?.units == foundation?.units && raw?.exponent == foundation?.exponent, "\(value)")
            }
        }
        #expect(DecimalText.Scaled.parts(of: .nan) == nil)
    }
}
