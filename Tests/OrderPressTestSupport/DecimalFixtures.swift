import Foundation
import PropertyBased

/// Decimals of any shape, and Foundation's rounding of them: the reference every amount's text is held to.
package enum DecimalFixtures {
    /// Values of every shape the integer fast path has to tell apart: significands that fit 64 bits
    /// and ones that don't (products such as amount × rate), trailing zeros kept in the significand,
    /// both signs, exponents from -24 to 12; with 0 to 6 fraction digits asked for.
    package static let anyShape = Generator<(Decimal, Int), Shrink.None<(Decimal, Int)>> { rng in
        var significand = Decimal(UInt64.random(in: 0...UInt64.max >> Int.random(in: 0...63, using: &rng), using: &rng))
        if Int.random(in: 0..<4, using: &rng) == 0 { significand *= Decimal(UInt64.random(in: 1...UInt64.max, using: &rng)) }
        if Bool.random(using: &rng) { significand *= 1000 }
        let value = Decimal(
            sign: Bool.random(using: &rng) ? .minus : .plus, exponent: Int.random(in: -24...12, using: &rng),
            significand: significand)
        return (value, Int.random(in: 0...6, using: &rng))
    }

    /// The reference: Foundation's `NSDecimalRound` in `.plain` mode (half-up, away from zero).
    package static func foundation(_ value: Decimal, _ digits: Int) -> Decimal {
        var input = value
        var result = Decimal()
        NSDecimalRound(&result, &input, digits, .plain)
        return result
    }
}
