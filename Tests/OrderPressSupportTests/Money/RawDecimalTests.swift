import Foundation
import PropertyBased
import Testing

@testable import OrderPressSupport
import OrderPressTestSupport

/// `RawDecimal` reads Foundation's stored fields by their layout; these tests hold it to the public API.
@Suite struct RawDecimalTests {
    /// The layout check passed on this platform: otherwise every fast path would quietly fall back.
    @Test func readsDecimalsOnThisPlatform() throws {
        let raw = try #require(RawDecimal(Decimal(string: "-12.5")!))
        #expect(raw.significand == 125 && raw.exponent == -1 && raw.negative)
        #expect(RawDecimal(Decimal(string: "340282366920938463463374607431768211455")!)?.significand == .max)
        #expect(RawDecimal(Decimal.nan) == nil)
    }

    /// Sign, significand and exponent rebuild the same Decimal, value and form, for every shape of value
    /// (significands beyond 64 bits, trailing zeros kept, both signs, exponents from -24 to 12).
    @Test func readsWhatThePublicAPIShows() async {
        await propertyCheck(count: 3000, input: DecimalFixtures.anyShape) { value, _ in
            guard let raw = RawDecimal(value) else {
                Issue.record("\(value) not read")
                return
            }
            #expect(raw.exponent == value.exponent, "\(value)")
            #expect(raw.negative == (value.sign == .minus && value != 0), "\(value)")
            #expect(Decimal(string: String(raw.significand))! == value.significand, "\(value)")
            #expect(String(raw.significand) == value.significand.description, "\(value)")
        }
    }

    /// Equal raw forms only for equal Decimals of one form: a memo key never mistakes one amount for another.
    @Test func equalRawFormsAreEqualDecimals() async {
        let pairs = Generator<(Decimal, Decimal), Shrink.None<(Decimal, Decimal)>> { rng in
            let (a, _) = DecimalFixtures.anyShape.run(using: &rng)
            let (b, _) = DecimalFixtures.anyShape.run(using: &rng)
            // Equal values in whatever forms arithmetic gives them, and different ones.
            return (a, [b, a * 1, a + 0, a * 10 / 10][Int.random(in: 0..<4, using: &rng)])
        }
        await propertyCheck(count: 3000, input: pairs) { a, b in
            if RawDecimal(a) == RawDecimal(b) {
                #expect(a == b && a.exponent == b.exponent && a.significand == b.significand, "\(a) \(b)")
            } else {
                #expect(a != b || a.exponent != b.exponent, "\(a) \(b)")
            }
        }
    }
}
